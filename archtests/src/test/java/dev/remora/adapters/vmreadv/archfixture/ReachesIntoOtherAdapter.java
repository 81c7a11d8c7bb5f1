package dev.remora.adapters.vmreadv.archfixture;

import dev.remora.adapters.procmem.archfixture.OtherAdapterType;
import dev.remora.domain.archfixture.CleanDomainCode;

/** Test fixture: an adapter using another adapter and the domain, both forbidden. */
public final class ReachesIntoOtherAdapter {
    public static int use(CleanDomainCode domain) {
        return OtherAdapterType.value() + domain.names().size();
    }
}
