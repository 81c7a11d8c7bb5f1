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
    private byte[] regionBytes = new byte[64 * 1024];
    private long[] sortKeys = new long[256];

    private long remoteReads;
    private long remoteBytes;
    private long batches;

    public SnapshotReader(RemoteMemory memory) {
        this.memory = memory;
    }

    /** Starts a new snapshot: fetches, in one batch, what the last snapshot read. */
    public void reset() {
        planRegions();
        recorded = 0;
        if (regions == 0) {
            return;
        }
        batches++;
        remoteReads++;
        int total = regionOffset[regions - 1] + regionLength[regions - 1];
        remoteBytes += total;
        regions = memory.readPrefix(regionStart, regionLength, regionBytes, regionOffset, regions);
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

    private int addRegion(long start, long end, int offset) {
        int length = (int) Math.min(end - start, MAX_PREFETCH_BYTES);
        if (offset + length > MAX_PREFETCH_BYTES) {
            return offset;
        }
        if (regions == regionStart.length) {
            regionStart = Arrays.copyOf(regionStart, regions * 2);
            regionLength = Arrays.copyOf(regionLength, regions * 2);
            regionOffset = Arrays.copyOf(regionOffset, regions * 2);
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
