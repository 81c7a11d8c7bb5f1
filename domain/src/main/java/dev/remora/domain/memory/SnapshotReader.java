package dev.remora.domain.memory;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

/**
 * Reads the target for one snapshot at a time. A sampler walks nearly the same structures every time,
 * so this reader remembers which ranges a walk read and, when the next snapshot begins, fetches all of
 * them again in one batched remote read; the walk then finds its bytes already here and only what
 * changed costs a read of its own. Every byte served comes from this snapshot's reads: nothing is
 * carried over from an earlier one. Buffers are reused, so a steady sampler allocates nothing.
 *
 * <p>The same batch ends with second copies of the ranges the last snapshot's checks read back (see
 * {@link #recordCheck}): the kernel fills a batch in order, so those copies were read after every
 * byte the walk gets from the batch, and a check can use them instead of a round trip of its own.
 */
public final class SnapshotReader {

    /** Changes of the stack met by one walk before it stops using prefetched bytes. */
    private static final int MAX_REFRESHES = 4;

    private final RemoteMemory memory;
    private final byte[] scratch = new byte[8];

    private final RecordedRanges recorded = new RecordedRanges();
    private final RecordedRanges recordedChecks = new RecordedRanges();
    // What the current regions were planned from.
    private final RecordedRanges plannedFrom = new RecordedRanges();
    private final RecordedRanges plannedChecksFrom = new RecordedRanges();

    /** The batch: {@code planned} ranges for the walk, then {@code checks} ranges of second copies. */
    private final Regions regions = new Regions();
    private int planned;
    private int checks;
    /** The walk's ranges that arrived this snapshot; lookups search only these. */
    private int searchable;
    /** Whether every byte served so far came from this snapshot's batch, with its second copies whole. */
    private boolean checksUsable;
    private int refreshes;
    // A refresh fetches the planned ranges again plus one new range, placed after the batch's bytes.
    private long[] refreshStart = new long[256];
    private int[] refreshLength = new int[256];
    private int[] refreshOffset = new int[256];
    private int extraOffset = -1;
    private long extraStart;
    private int extraLength;

    private long remoteReads;
    private long remoteBytes;
    private long batches;

    public SnapshotReader(RemoteMemory memory) {
        this.memory = memory;
    }

    /** Starts a new snapshot: fetches, in one batch, what the last snapshot read. */
    public void reset() {
        if (!recorded.sameAs(plannedFrom) || !recordedChecks.sameAs(plannedChecksFrom)) {
            regions.clear();
            regions.appendMerged(recorded);
            planned = regions.count;
            regions.appendMerged(recordedChecks);
            checks = regions.count - planned;
            plannedFrom.copyFrom(recorded);
            plannedChecksFrom.copyFrom(recordedChecks);
        }
        recorded.clear();
        recordedChecks.clear();
        refreshes = 0;
        extraOffset = -1;
        int total = planned + checks;
        if (total == 0) {
            searchable = 0;
            checksUsable = false;
            return;
        }
        batches++;
        remoteReads++;
        remoteBytes += regions.end();
        int whole = memory.readPrefix(regions.start, regions.length, regions.bytes, regions.offset, total);
        searchable = Math.min(whole, planned);
        checksUsable = checks > 0 && whole == total;
    }

    public RemoteMemory memory() {
        return memory;
    }

    /** Remote reads issued since this reader was made (a batch counts once). */
    public long remoteReads() {
        return remoteReads;
    }

    /** Bytes those reads asked for. */
    public long remoteBytes() {
        return remoteBytes;
    }

    /** Batched reads at the start of snapshots and on changes met by a walk. */
    public long batches() {
        return batches;
    }

    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        int at = locate(address, length);
        if (at >= 0) {
            System.arraycopy(regions.bytes, at, dst, offset, length);
        } else {
            checksUsable = false;
            remoteReads++;
            remoteBytes += length;
            memory.read(address, dst, offset, length);
        }
        // Only ranges that could be read are fetched again: one bad range would cut the batch short.
        record(address, length);
    }

    /** Where this snapshot holds the range in {@link #bytes()}, fetching it (and refreshing) if needed; -1 if not held. */
    private int locate(long address, int length) {
        int at = regions.find(address, length, 0, searchable);
        if (at < 0 && extraOffset >= 0 && address >= extraStart && address - extraStart + length <= extraLength) {
            at = extraOffset + (int) (address - extraStart);
        }
        if (at < 0 && searchable > 0) {
            at = refreshWith(address, length);
        }
        return at;
    }

    /**
     * A walk that leaves the prefetched ranges has met a changed stack. Bytes fetched before the
     * change must not be mixed with bytes read after it (a frame's {@code previous} from now followed
     * into a frame from then makes a stack that never existed), so the planned ranges are fetched
     * again together with the new one, in one batch; after a few such changes the walk reads on its
     * own and uses no prefetched bytes at all.
     *
     * @return where the range now sits in {@link #bytes()}, or -1
     */
    private int refreshWith(long address, int length) {
        checksUsable = false;
        int end = regions.end();
        if (++refreshes > MAX_REFRESHES || !regions.reserve(end + (long) length)) {
            searchable = 0;
            extraOffset = -1;
            return -1;
        }
        if (refreshStart.length < planned + 1) {
            refreshStart = new long[regions.start.length + 1];
            refreshLength = new int[refreshStart.length];
            refreshOffset = new int[refreshStart.length];
        }
        System.arraycopy(regions.start, 0, refreshStart, 0, planned);
        System.arraycopy(regions.length, 0, refreshLength, 0, planned);
        System.arraycopy(regions.offset, 0, refreshOffset, 0, planned);
        // The new range goes after the second copies, which stay where the batch put them.
        refreshStart[planned] = address;
        refreshLength[planned] = length;
        refreshOffset[planned] = end;
        batches++;
        remoteReads++;
        remoteBytes += (planned == 0 ? 0 : regions.offset[planned - 1] + regions.length[planned - 1]) + length;
        int whole = memory.readPrefix(refreshStart, refreshLength, regions.bytes, refreshOffset, planned + 1);
        searchable = Math.min(whole, planned);
        if (whole != planned + 1) {
            extraOffset = -1;
            return -1;
        }
        extraStart = address;
        extraLength = length;
        extraOffset = end;
        return end;
    }

    /**
     * Notes a range a check reads back after the walk: the next snapshot's batch fetches it again,
     * last, so that check can use {@link #secondCopy}.
     */
    public void recordCheck(long address, int length) {
        recordedChecks.add(address, length);
    }

    /**
     * Where the batch holds a second copy of the range, read after everything this snapshot has
     * served; -1 when there is none or when some byte served came from a later read.
     */
    public int secondCopy(long address, int length) {
        return checksUsable ? regions.find(address, length, planned, planned + checks) : -1;
    }

    /** The buffer that {@link #secondCopy} offsets point into; valid until the next read. */
    public byte[] bytes() {
        return regions.bytes;
    }

    /**
     * Reads ranges afresh, all in one batch, bypassing what this snapshot holds: for checking that
     * what a walk saw still stands.
     *
     * @return how many ranges, from the first, arrived whole
     */
    public int readTogether(long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int count) {
        batches++;
        remoteReads++;
        for (int i = 0; i < count; i++) {
            remoteBytes += lengths[i];
        }
        return memory.readPrefix(addresses, lengths, dst, dstOffsets, count);
    }

    public long readLong(long address) throws MemoryAccessException {
        read(address, scratch, 0, 8);
        return Bytes.getLong(scratch, 0);
    }

    public int readInt(long address) throws MemoryAccessException {
        read(address, scratch, 0, 4);
        return Bytes.getInt(scratch, 0);
    }

    private void record(long address, int length) {
        recorded.add(address, length);
    }
}
