package dev.remora.domain.nativestack;

/**
 * A frame description entry: the unwind program for the code {@code [pcBegin, pcEnd)}, in link-time
 * addresses.
 */
record Fde(int offset, Cie cie, long pcBegin, long pcEnd, int instructionsStart, int instructionsEnd) {

    boolean covers(long pc) {
        return Long.compareUnsigned(pc, pcBegin) >= 0 && Long.compareUnsigned(pc, pcEnd) < 0;
    }
}
