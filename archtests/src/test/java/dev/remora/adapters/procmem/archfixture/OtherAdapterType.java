package dev.remora.adapters.procmem.archfixture;

/** Test fixture: a type in one adapter that another adapter must not use. */
public final class OtherAdapterType {
    public static int value() {
        return 1;
    }
}
