package dev.remora.domain.nativestack;

import java.util.Arrays;
import java.util.Optional;

/**
 * Builds an {@link FdeTable} by walking a section's entries one by one: for {@code .debug_frame},
 * which has no index, and for an {@code .eh_frame} whose {@code .eh_frame_hdr} is missing or unusable.
 */
final class FdeScan {

    private static final int MAX_ENTRIES = 1 << 22;

    private FdeScan() {}

    static FdeTable scan(CfiSection section) throws NativeDataException {
        long[] starts = new long[64];
        int[] offsets = new int[64];
        int count = 0;
        int offset = 0;
        for (int entries = 0; entries < MAX_ENTRIES; entries++) {
            Optional<CfiDecoder.Entry> entry = CfiDecoder.entry(section, offset);
            if (entry.isEmpty()) {
                break;
            }
            CfiDecoder.Entry e = entry.get();
            if (!e.isCie()) {
                try {
                    Fde fde = CfiDecoder.fde(section, e);
                    // Functions the linker discarded keep FDEs at address 0 in debug files.
                    if (fde.pcEnd() != fde.pcBegin() && fde.pcBegin() != 0) {
                        if (count == starts.length) {
                            starts = Arrays.copyOf(starts, count * 2);
                            offsets = Arrays.copyOf(offsets, count * 2);
                        }
                        starts[count] = fde.pcBegin();
                        offsets[count] = e.start();
                        count++;
                    }
                } catch (NativeDataException skipped) {
                    // One bad FDE costs its own code range only; its length still leads to the next entry.
                }
            }
            offset = e.end();
        }
        return FdeTable.sorted(section, starts, offsets, count);
    }
}
