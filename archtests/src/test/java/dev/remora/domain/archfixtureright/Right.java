package dev.remora.domain.archfixtureright;

import dev.remora.domain.archfixtureleft.Left;

/** Fixture: the other half of a package cycle inside the domain. */
public final class Right {
    public Left left() {
        return new Left();
    }
}
