package dev.remora.domain.nativestack;

/** A DWARF expression: the bytes {@code [start, end)} of a section, shared, never written. */
record DwarfBlock(byte[] bytes, int start, int end) {

    @Override
    public String toString() {
        return "DwarfBlock[%d bytes at %d]".formatted(end - start, start);
    }
}
