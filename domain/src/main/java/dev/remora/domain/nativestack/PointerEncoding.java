package dev.remora.domain.nativestack;

import java.util.OptionalLong;

/**
 * The DW_EH_PE_* pointer encodings of {@code .eh_frame} and {@code .eh_frame_hdr}: a value format in
 * the low nibble, what it is relative to in the high one. Addresses come out in the image's own
 * (link-time) addresses, since the section address given is the link-time one.
 */
final class PointerEncoding {

    static final int ABSPTR = 0x00;
    static final int ULEB128 = 0x01;
    static final int UDATA2 = 0x02;
    static final int UDATA4 = 0x03;
    static final int UDATA8 = 0x04;
    static final int SLEB128 = 0x09;
    static final int SDATA2 = 0x0a;
    static final int SDATA4 = 0x0b;
    static final int SDATA8 = 0x0c;
    static final int PCREL = 0x10;
    static final int TEXTREL = 0x20;
    static final int DATAREL = 0x30;
    static final int FUNCREL = 0x40;
    static final int ALIGNED = 0x50;
    static final int INDIRECT = 0x80;
    static final int OMIT = 0xff;

    private PointerEncoding() {}

    /**
     * Reads a pointer encoded as {@code encoding} at the cursor.
     *
     * @param sectionAddress the link-time address of the cursor's byte 0, for pc-relative values
     * @param dataBase the base of data-relative values, where the section defines one
     */
    static long read(DwarfCursor in, int encoding, long sectionAddress, OptionalLong dataBase)
            throws NativeDataException {
        if (encoding == OMIT) {
            return 0;
        }
        long fieldAddress = sectionAddress + in.position();
        long value = readValue(in, encoding & 0x0f);
        return switch (encoding & 0x70) {
            case ABSPTR -> value;
            case PCREL -> fieldAddress + value;
            case DATAREL -> dataBase.orElseThrow(() -> new NativeDataException("data-relative pointer without a data base"))
                    + value;
            default -> throw new NativeDataException("unsupported pointer encoding 0x%x".formatted(encoding));
        };
    }

    /** Reads a value of the format only (a range, a count): no base applies. */
    static long readValue(DwarfCursor in, int format) throws NativeDataException {
        return switch (format) {
            case ABSPTR, UDATA8, SDATA8 -> in.u64();
            case ULEB128 -> in.uleb();
            case UDATA2 -> in.u16();
            case UDATA4 -> in.u32();
            case SLEB128 -> in.sleb();
            case SDATA2 -> (short) in.u16();
            case SDATA4 -> (int) in.u32();
            default -> throw new NativeDataException("unsupported pointer format 0x%x".formatted(format));
        };
    }

    /** Bytes a value of this format takes, when fixed: what a binary-searchable table needs. */
    static OptionalLong fixedSize(int encoding) {
        return switch (encoding & 0x0f) {
            case ABSPTR, UDATA8, SDATA8 -> OptionalLong.of(8);
            case UDATA4, SDATA4 -> OptionalLong.of(4);
            case UDATA2, SDATA2 -> OptionalLong.of(2);
            default -> OptionalLong.empty();
        };
    }
}
