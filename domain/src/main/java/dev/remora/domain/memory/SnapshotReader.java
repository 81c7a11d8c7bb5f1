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
 * <p>The kernel fills a batch in order, and the batch is laid out for the checks that prove a walked
 * stack existed: the ranges read with {@link #read} (frames, the interpreter state) and those read
 * with {@link #readState} (thread states, whose current frame names the stack), in the
 * {@link StateOrder} given, then second copies of the ranges the last snapshot's checks read back
 * (see {@link #recordCheck}). So a thread state is read before its frames' second copies, and a check
 * can use the batch instead of a round trip of its own. Stack copies ride along ({@link Rider}): where
 * thread states come first, each copy is read whole (its thread state first) before everything else.
 */
public final class SnapshotReader {

    /** Changes of the stack met by one walk before it stops using prefetched bytes. */
    private static final int MAX_REFRESHES = 4;

    private final RemoteMemory memory;
    private final byte[] scratch = new byte[8];

    private final RecordedRanges recorded = new RecordedRanges();
    private final RecordedRanges recordedStates = new RecordedRanges();
    private final RecordedRanges recordedChecks = new RecordedRanges();

    /**
     * The batch: the first part up to {@code firstPart} (thread states or the other ranges, as
     * {@link #order} says), the second up to {@code planned}, then {@code checks} ranges of second
     * copies. Each part is sorted by address on its own.
     */
    private final Regions regions = new Regions();
    private final StateOrder order;
    private int firstPart;
    private int planned;
    private int checks;
    /** The walk's ranges that arrived this snapshot; lookups search only these. */
    private int searchable;
    /** Whether every byte served so far came from this snapshot's batch, which arrived whole. */
    private boolean checksUsable;
    private int refreshes;
    // A refresh fetches the planned ranges again plus one new range, placed after the batch's bytes.
    private final RangeList refresh = new RangeList(256);
    private int extraOffset = -1;
    private long extraStart;
    private int extraLength;

    private Rider[] riders = new Rider[8];
    private int riderCount;
    private Rider[] ridingNow = new Rider[8];
    /** Per rider of this batch: where its offsets start in {@link #riderOffsets}, and its last range's index in the batch (-1: not read). */
    private int[] riderFirst = new int[8];
    private int[] riderLast = new int[8];
    private int[] riderOffsets = new int[64];
    /** The batch as read: the riders' leading ranges, the snapshot's own ranges, riders' second copies. */
    private final RangeList batch = new RangeList(256);
    /** Riders' ranges read before the snapshot's own. */
    private int leading;
    /** Bytes the batch fills in {@link Regions#bytes}: a refresh puts its range after them. */
    private int batchEnd;

    private long snapshots;
    private long remoteReads;
    private long remoteBytes;
    private long batches;

    /** A reader that reads thread states between their frames' two copies. */
    public SnapshotReader(RemoteMemory memory) {
        this(memory, StateOrder.STATE_BETWEEN);
    }

    public SnapshotReader(RemoteMemory memory, StateOrder order) {
        this.memory = memory;
        this.order = order;
    }

    /** Where this reader's batches read thread states among their frames. */
    public StateOrder stateOrder() {
        return order;
    }

    /** Starts a new snapshot: fetches, in one batch, what the last snapshot read. */
    public void reset() {
        // Not short-circuited: every part must replan, or start recording afresh.
        if (recorded.replan() | recordedStates.replan() | recordedChecks.replan()) {
            regions.clear();
            boolean statesFirst = order == StateOrder.STATE_FIRST;
            regions.appendMerged(statesFirst ? recordedStates.plan() : recorded.plan());
            firstPart = regions.list.count;
            regions.appendMerged(statesFirst ? recorded.plan() : recordedStates.plan());
            planned = regions.list.count;
            regions.appendMerged(recordedChecks.plan());
            checks = regions.list.count - planned;
        }
        snapshots++;
        refreshes = 0;
        extraOffset = -1;
        int riding = takeRiders();
        leading = 0; // until the layout puts riders in the batch
        int total = layOut(riding);
        if (total == 0) {
            searchable = 0;
            checksUsable = false;
            return;
        }
        batches++;
        remoteReads++;
        remoteBytes += batchEnd;
        int whole = batch.readInto(memory, regions.bytes, total);
        if (whole < leading) {
            // A rider's range is gone (a chunk freed since it was planned): the snapshot's own ranges were
            // not read. Read them on their own; riders not read whole read theirs when their walks come.
            batches++;
            remoteReads++;
            int read = whole;
            whole = leading + regions.list.readInto(memory, regions.bytes, planned + checks);
            for (int k = 0; k < riding; k++) {
                if (riderLast[k] >= read) {
                    riderLast[k] = -1;
                }
            }
        }
        // The snapshot's own ranges follow the riders' leading ranges.
        int ownWhole = Math.max(0, Math.min(whole - leading, planned + checks));
        searchable = Math.min(ownWhole, planned);
        checksUsable = ownWhole == planned + checks;
        // Where riders share the snapshot's thread states, those must have arrived too.
        boolean statesArrived = order == StateOrder.STATE_FIRST || ownWhole >= planned;
        for (int k = 0; k < riding; k++) {
            Rider rider = ridingNow[k];
            ridingNow[k] = null;
            boolean arrived = riderLast[k] >= 0 && whole > riderLast[k] && statesArrived;
            rider.arrived(regions.bytes, riderOffsets, riderFirst[k], arrived, snapshots);
        }
    }

    /**
     * A reader of its own ranges that rides along with the next snapshot's batch: a copy of some
     * ranges and a thread state, where the reader's {@link StateOrder} puts it, then the ranges again.
     * Where thread states come first, each rider's ranges are read whole, in its order, before the
     * snapshot's own ranges. Where they come between, the rider's thread state is the one the snapshot
     * reads itself: the first copies are read before the snapshot's own ranges and the second copies
     * after them, so one batch holds, for every rider, its ranges on both sides of its thread state.
     * {@link #ride} it again for each batch.
     */
    public interface Rider {
        /** How many ranges, the thread state included. */
        int ranges();

        /**
         * The thread state's position among the ranges, where the snapshot's own read of it stands in
         * (thread states between the copies); the ranges after it mirror those before it.
         */
        int middle();

        long start(int range);

        int length(int range);

        /**
         * The batch of snapshot {@code snapshot} (see {@link #snapshots}) was read: the rider's ranges
         * sit at {@code offsets[first ..]} in {@code bytes} when {@code whole}.
         */
        void arrived(byte[] bytes, int[] offsets, int first, boolean whole, long snapshot);
    }

    /** Has {@code rider}'s ranges read at the end of the next snapshot's batch. */
    public void ride(Rider rider) {
        if (riderCount == riders.length) {
            riders = java.util.Arrays.copyOf(riders, riderCount * 2);
        }
        riders[riderCount++] = rider;
    }

    /** Takes the riders of the last snapshot for this batch; returns how many ride along. */
    private int takeRiders() {
        if (ridingNow.length < riderCount) {
            ridingNow = new Rider[riders.length];
            riderFirst = new int[riders.length];
            riderLast = new int[riders.length];
        }
        int riding = riderCount;
        System.arraycopy(riders, 0, ridingNow, 0, riding);
        java.util.Arrays.fill(riders, 0, riding, null);
        riderCount = 0;
        return riding;
    }

    /**
     * Lays the batch out: the riders' leading ranges (each rider's ranges whole where thread states
     * come first, its first copies where they come between), the snapshot's own ranges, then the
     * riders' second copies where thread states come between. Own ranges keep their places in
     * {@link Regions#bytes}; the riders' bytes go after them.
     *
     * @return how many ranges the batch reads
     */
    private int layOut(int riding) {
        int own = planned + checks;
        int wanted = 0;
        for (int k = 0; k < riding; k++) {
            wanted += ridingNow[k].ranges();
        }
        batch.ensureCapacity(own + wanted);
        if (riderOffsets.length < wanted) {
            riderOffsets = new int[Math.max(wanted, riderOffsets.length * 2)];
        }
        boolean statesFirst = order == StateOrder.STATE_FIRST;
        long at = regions.end();
        int n = 0, used = 0;
        for (int k = 0; k < riding; k++) {
            Rider rider = ridingNow[k];
            riderFirst[k] = used;
            riderLast[k] = -1;
            int lead = statesFirst ? rider.ranges() : rider.middle();
            for (int r = 0; r < lead; r++, n++) {
                batch.set(n, rider.start(r), rider.length(r), (int) at);
                riderOffsets[used + r] = (int) at;
                at += rider.length(r);
            }
            if (statesFirst) {
                riderLast[k] = n - 1;
            }
            used += rider.ranges();
        }
        int lead = n;
        batch.copyFrom(regions.list, n, own);
        n += own;
        for (int k = 0; k < riding && !statesFirst; k++) {
            // The thread states are among the snapshot's own; then the second copies.
            Rider rider = ridingNow[k];
            int first = riderFirst[k], middle = rider.middle();
            int state = regions.find(rider.start(middle), rider.length(middle), firstPart, planned);
            if (state < 0) {
                continue; // its thread state is not among the snapshot's this time: the rider reads on its own
            }
            riderOffsets[first + middle] = state;
            for (int r = middle + 1; r < rider.ranges(); r++, n++) {
                batch.set(n, rider.start(r), rider.length(r), (int) at);
                riderOffsets[first + r] = (int) at;
                at += rider.length(r);
            }
            riderLast[k] = n - 1;
        }
        if (!regions.reserve(at)) {
            // Too large to read at once: the snapshot's own ranges only.
            for (int k = 0; k < riding; k++) {
                riderLast[k] = -1;
            }
            batch.copyFrom(regions.list, 0, own);
            batchEnd = regions.end();
            return own;
        }
        leading = lead;
        batchEnd = (int) at; // below Regions' bound: reserve(at) held
        return n;
    }

    /** Snapshots begun so far: the current one's number. */
    public long snapshots() {
        return snapshots;
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
        read(address, dst, offset, length, recorded);
    }

    /**
     * Reads like {@link #read}, but the next snapshots fetch the range apart from the ones read with
     * {@link #read}, before or after them as the {@link StateOrder} says: for thread states.
     */
    public void readState(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        read(address, dst, offset, length, recordedStates);
    }

    private void read(long address, byte[] dst, int offset, int length, RecordedRanges into) throws MemoryAccessException {
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
        into.add(address, length);
    }

    /** Where this snapshot holds the range in {@link #bytes()}, fetching it (and refreshing) if needed; -1 if not held. */
    private int locate(long address, int length) {
        int at = regions.find(address, length, 0, Math.min(searchable, firstPart));
        if (at < 0 && searchable > firstPart) {
            at = regions.find(address, length, firstPart, searchable);
        }
        if (at < 0 && extraOffset >= 0 && address >= extraStart && address - extraStart <= extraLength - (long) length) {
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
        int end = Math.max(regions.end(), batchEnd);
        if (++refreshes > MAX_REFRESHES || !regions.reserve(end + (long) length)) {
            searchable = 0;
            extraOffset = -1;
            return -1;
        }
        refresh.ensureCapacity(planned + 1);
        refresh.copyFrom(regions.list, 0, planned);
        // The new range goes after the second copies, which stay where the batch put them.
        refresh.set(planned, address, length, end);
        batches++;
        remoteReads++;
        remoteBytes += (planned == 0 ? 0 : regions.list.offset[planned - 1] + regions.list.length[planned - 1]) + length;
        int whole = refresh.readInto(memory, regions.bytes, planned + 1);
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

    /**
     * Where the batch holds the range among the thread states (read before the second copies); -1
     * when it does not, or when some byte served came from a later read.
     */
    public int stateCopy(long address, int length) {
        if (!checksUsable) {
            return -1;
        }
        return order == StateOrder.STATE_FIRST ? regions.find(address, length, 0, firstPart)
                : regions.find(address, length, firstPart, planned);
    }

    /** The buffer that {@link #secondCopy} and {@link #stateCopy} offsets point into; valid until the next read. */
    public byte[] bytes() {
        return regions.bytes;
    }

    /**
     * Reads ranges afresh, all in one batch, bypassing what this snapshot holds: for checking that
     * what a walk saw still stands.
     *
     * @return how many ranges, from the first, arrived whole
     */
    public int readTogether(RangeList ranges, byte[] dst) {
        batches++;
        remoteReads++;
        for (int i = 0; i < ranges.count; i++) {
            remoteBytes += ranges.length[i];
        }
        return ranges.readInto(memory, dst, ranges.count);
    }

    /**
     * Reads a range on its own, now, bypassing this snapshot's batch and left out of the next ones
     * (a range that moves every sample, or one read to see the target as it is after the batch).
     */
    public void readApart(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        remoteReads++;
        remoteBytes += length;
        memory.read(address, dst, offset, length);
    }

    /** Has the next snapshots' batches read this range among the thread states, without reading it now. */
    public void planState(long address, int length) {
        recordedStates.add(address, length);
    }

    public long readLong(long address) throws MemoryAccessException {
        read(address, scratch, 0, 8);
        return Bytes.getLong(scratch, 0);
    }


    public int readInt(long address) throws MemoryAccessException {
        read(address, scratch, 0, 4);
        return Bytes.getInt(scratch, 0);
    }
}
