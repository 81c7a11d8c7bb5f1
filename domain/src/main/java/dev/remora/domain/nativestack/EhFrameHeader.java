package dev.remora.domain.nativestack;

import java.util.OptionalLong;

/**
 * Reads the binary search table of {@code .eh_frame_hdr}: (initial location, FDE address) pairs in a
 * fixed-size encoding, sorted by location, which the linker builds for exactly this lookup.
 */
final class EhFrameHeader {

    private EhFrameHeader() {}

    /**
     * The table, pointing into {@code ehFrame}.
     *
     * @param address the header's link-time address, base of its data-relative values
     * @throws NativeDataException when the header has no usable table (the caller then scans)
     */
    static FdeTable read(byte[] header, long address, CfiSection ehFrame) throws NativeDataException {
        DwarfCursor in = new DwarfCursor(header, 0, header.length);
        int version = in.u8();
        int framePointerEncoding = in.u8();
        int countEncoding = in.u8();
        int tableEncoding = in.u8();
        if (version != 1) {
            throw new NativeDataException(".eh_frame_hdr version " + version);
        }
        OptionalLong base = OptionalLong.of(address);
        PointerEncoding.read(in, framePointerEncoding, address, base);
        if (countEncoding == PointerEncoding.OMIT || tableEncoding == PointerEncoding.OMIT) {
            throw new NativeDataException(".eh_frame_hdr has no search table");
        }
        long count = PointerEncoding.read(in, countEncoding, address, base);
        long entrySize = PointerEncoding.fixedSize(tableEncoding)
                .orElseThrow(() -> new NativeDataException("table encoding 0x%x is not fixed-size".formatted(tableEncoding)));
        if ((tableEncoding & PointerEncoding.INDIRECT) != 0) {
            throw new NativeDataException("indirect search table");
        }
        if (count < 0 || count > (header.length - in.position()) / (2 * entrySize)) {
            throw new NativeDataException(".eh_frame_hdr claims %d entries".formatted(count));
        }
        int n = (int) count;
        long[] starts = new long[n];
        int[] offsets = new int[n];
        boolean ordered = true;
        for (int i = 0; i < n; i++) {
            starts[i] = PointerEncoding.read(in, tableEncoding, address, base);
            long fde = PointerEncoding.read(in, tableEncoding, address, base) - ehFrame.address();
            if (fde < 0 || fde >= ehFrame.bytes().length) {
                throw new NativeDataException("search table entry %d points outside .eh_frame".formatted(i));
            }
            offsets[i] = (int) fde;
            ordered &= i == 0 || Long.compareUnsigned(starts[i - 1], starts[i]) <= 0;
        }
        return ordered ? new FdeTable(ehFrame, starts, offsets) : FdeTable.sorted(ehFrame, starts, offsets, n);
    }
}
