package dev.remora.ports.testing;

/** Deterministic noise for fake memories: the same input always gives the same well-mixed word. */
public final class Noise {

    private Noise() {}

    /** SplitMix64's finaliser. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
