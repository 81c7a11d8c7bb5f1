package dev.remora.adapters.vmreadv;

import dev.remora.ports.MemoryAccessException;

/** What a batched read achieved for one range. */
public sealed interface RangeOutcome {

    /** Number of bytes delivered into the range's buffer, from its start. */
    int bytesRead();

    record Complete(int bytesRead) implements RangeOutcome {}

    /** Only a prefix arrived; the rest could not be read. */
    record Partial(int bytesRead, MemoryAccessException cause) implements RangeOutcome {}

    record Failed(MemoryAccessException cause) implements RangeOutcome {
        @Override
        public int bytesRead() {
            return 0;
        }
    }
}
