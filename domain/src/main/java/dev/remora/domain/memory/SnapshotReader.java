package dev.remora.domain.memory;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.Arrays;

/**
 * Reads the target for one snapshot at a time. A sampler walks nearly the same structures every time,
 * so this reader remembers which ranges a walk read and, when the next snapshot begins, fetches all of
 * them again in one batched remote read; the walk then finds its bytes already here and only what
 * changed costs a read of its own. Every byte served comes from this snapshot's reads: nothing is
 * carried over from an earlier one. Buffers are reused, so a steady sampler allocates nothing.
 */
public final class SnapshotReader {

    /** Changes of the stack met by one walk before it stops using prefetched bytes. */
    private static final int MAX_REFRESHES = 4;
    private static final int MAX_REGIONS = 1 << 14;
    /** Ranges closer than this are fetched as one: the bytes between cost less than another range. */
    private static final int MERGE_GAP = 256;
    private static final int MAX_RECORDED = 1 << 14;
    private static final int MAX_PREFETCH_BYTES = 4 << 20;

    private final RemoteMemory memory;
    private final byte[] scratch = new byte[8];

    // Ranges read during the current snapshot: start address and length.
    private long[] recordedStart = new long[256];
    private int[] recordedLength = new int[256];
    private int recorded;

    // This snapshot's prefetched ranges, sorted by address, and where their bytes are.
    private long[] regionStart = new long[256];
    private int[] regionLength = new int[256];
    private int[] regionOffset = new int[256];
    private int regions;
    private int refreshes;
    private byte[] regionBytes = new byte[64 * 1024];
    private long[] sortKeys = new long[256];
    // The walk the current regions were planned from, and how many regions that plan has.
    private long[] plannedStart = new long[256];
    private int[] plannedLength = new int[256];
    private int plannedFrom;
    private int planned;

    private long remoteReads;
    private long remoteBytes;
    private long batches;

    public SnapshotReader(RemoteMemory memory) {
        this.memory = memory;
    }

    /** Starts a new snapshot: fetches, in one batch, what the last snapshot read. */
    public void reset() {
        if (!sameAsPlanned()) {
            planRegions();
            keepPlan();
        }
        recorded = 0;
        refreshes = 0;
        if (planned == 0) {
            regions = 0;
            return;
        }
        batches++;
        remoteReads++;
        remoteBytes += regionOffset[planned - 1] + regionLength[planned - 1];
        regions = memory.readPrefix(regionStart, regionLength, regionBytes, regionOffset, planned);
    }

    /**
     * Whether the walk just ended read exactly what the walk the regions were planned from read: the
     * steady state of a sampler, where sorting and merging again would give the same regions.
     */
    private boolean sameAsPlanned() {
        return recorded == plannedFrom
                && Arrays.equals(recordedStart, 0, recorded, plannedStart, 0, recorded)
                && Arrays.equals(recordedLength, 0, recorded, plannedLength, 0, recorded);
    }

    private void keepPlan() {
        planned = regions;
        plannedFrom = recorded;
        if (plannedStart.length < recorded) {
            plannedStart = new long[recordedStart.length];
            plannedLength = new int[recordedStart.length];
        }
        System.arraycopy(recordedStart, 0, plannedStart, 0, recorded);
        System.arraycopy(recordedLength, 0, plannedLength, 0, recorded);
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

    /** Batched reads at the start of snapshots. */
    public long batches() {
        return batches;
    }

    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        int region = regionHolding(address, length);
        if (region < 0 && regions > 0) {
            region = refreshWith(address, length);
        }
        if (region >= 0) {
            System.arraycopy(regionBytes, regionOffset[region] + (int) (address - regionStart[region]), dst, offset, length);
        } else {
            remoteReads++;
            remoteBytes += length;
            memory.read(address, dst, offset, length);
        }
        // Only ranges that could be read are fetched again: one bad range would cut the batch short.
        record(address, length);
    }

    /**
     * A walk that leaves the prefetched ranges has met a changed stack. Bytes fetched before the
     * change must not be mixed with bytes read after it (a frame's {@code previous} from now followed
     * into a frame from then makes a stack that never existed), so the planned ranges are fetched
     * again together with the new one, in one batch; after a few such changes the walk reads on its
     * own and uses no prefetched bytes at all.
     *
     * @return the region now holding the range, or -1
     */
    private int refreshWith(long address, int length) {
        if (++refreshes > MAX_REFRESHES || planned + 1 > MAX_REGIONS) {
            regions = 0;
            return -1;
        }
        int end = regionOffset[planned - 1] + regionLength[planned - 1];
        if (regionStart.length == planned) {
            growRegions();
        }
        if (regionBytes.length < end + length) {
            regionBytes = Arrays.copyOf(regionBytes, Math.max(end + length, regionBytes.length * 2));
        }
        regionStart[planned] = address;
        regionLength[planned] = length;
        regionOffset[planned] = end;
        batches++;
        remoteReads++;
        remoteBytes += end + length;
        int whole = memory.readPrefix(regionStart, regionLength, regionBytes, regionOffset, planned + 1);
        // The extra range sits last and out of address order: serve it once, search only the sorted ones.
        regions = Math.min(whole, planned);
        return whole == planned + 1 ? planned : -1;
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
        if (recorded == MAX_RECORDED || length <= 0 || length > MAX_PREFETCH_BYTES) {
            return;
        }
        if (recorded == recordedStart.length) {
            recordedStart = Arrays.copyOf(recordedStart, recorded * 2);
            recordedLength = Arrays.copyOf(recordedLength, recorded * 2);
        }
        recordedStart[recorded] = address;
        recordedLength[recorded] = length;
        recorded++;
    }

    /** The prefetched region that holds all of {@code [address, address + length)}, or -1. */
    private int regionHolding(long address, int length) {
        int lo = 0, hi = regions - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(regionStart[mid], address) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        int candidate = hi;
        if (candidate < 0) {
            return -1;
        }
        long offset = address - regionStart[candidate];
        return offset >= 0 && offset + length <= regionLength[candidate] ? candidate : -1;
    }

    /** Sorts the recorded ranges and merges neighbours into the next snapshot's regions. */
    private void planRegions() {
        regions = 0;
        if (recorded == 0) {
            return;
        }
        if (sortKeys.length < recorded) {
            sortKeys = new long[recordedStart.length];
        }
        // Addresses are user-space (below 2^47), so the index fits in the low bits of the sort key.
        for (int i = 0; i < recorded; i++) {
            sortKeys[i] = recordedStart[i] << 16 | i;
        }
        Arrays.sort(sortKeys, 0, recorded);
        int total = 0;
        long start = -1, end = -1;
        for (int k = 0; k < recorded; k++) {
            int i = (int) (sortKeys[k] & 0xFFFF);
            long s = recordedStart[i], e = s + recordedLength[i];
            if (start >= 0 && s <= end + MERGE_GAP) {
                end = Math.max(end, e);
                continue;
            }
            if (start >= 0) {
                total = addRegion(start, end, total);
            }
            start = s;
            end = e;
        }
        addRegion(start, end, total);
    }

    private void growRegions() {
        regionStart = Arrays.copyOf(regionStart, regionStart.length * 2);
        regionLength = Arrays.copyOf(regionLength, regionLength.length * 2);
        regionOffset = Arrays.copyOf(regionOffset, regionOffset.length * 2);
    }

    private int addRegion(long start, long end, int offset) {
        int length = (int) Math.min(end - start, MAX_PREFETCH_BYTES);
        if (offset + length > MAX_PREFETCH_BYTES) {
            return offset;
        }
        if (regions == regionStart.length) {
            growRegions();
        }
        if (regionBytes.length < offset + length) {
            regionBytes = Arrays.copyOf(regionBytes, Math.max(offset + length, regionBytes.length * 2));
        }
        regionStart[regions] = start;
        regionLength[regions] = length;
        regionOffset[regions] = offset;
        regions++;
        return offset + length;
    }
}
