package dev.remora.adapters.vmreadv;

import dev.remora.ports.MemoryAccessException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns a list of ranges into as few {@code process_vm_readv} calls as possible and gives every range
 * its own outcome.
 *
 * <p>The kernel stops a call at the first remote iovec it cannot read and reports only the byte count
 * up to there. So after a short call the next call simply starts at the stopping point: if that range
 * really is bad, the kernel fails it at once (nothing transferred, errno says why), the range gets its
 * failure, and the call after that resumes with the ranges behind it. One bad range therefore costs one
 * extra call and never hides the others.
 */
final class ReadvLoop {

    private final NativeReader reader;
    private final int pid;
    private final int maxBytesPerCall;

    ReadvLoop(NativeReader reader, int pid, int maxBytesPerCall) {
        if (maxBytesPerCall <= 0) {
            throw new IllegalArgumentException("maxBytesPerCall must be positive");
        }
        this.reader = reader;
        this.pid = pid;
        this.maxBytesPerCall = maxBytesPerCall;
    }

    List<RangeOutcome> run(List<ReadRange> ranges) {
        int n = ranges.size();
        RangeOutcome[] outcomes = new RangeOutcome[n];
        int[] done = new int[n];
        for (int i = 0; i < n; i++) {
            ReadRange r = ranges.get(i);
            if (r.length() == 0) {
                outcomes[i] = new RangeOutcome.Complete(0);
            } else if (wrapsAround(r)) {
                outcomes[i] = new RangeOutcome.Failed(new MemoryAccessException.Unmapped(r.address()));
            }
        }

        List<ReadRange> pieces = new ArrayList<>(Math.min(n, NativeReader.IOV_MAX));
        int[] owners = new int[Math.min(n, NativeReader.IOV_MAX)];
        int next = nextPending(outcomes, 0);
        while (next < n) {
            pieces.clear();
            plan(ranges, outcomes, done, next, pieces, owners);
            try {
                attribute(reader.readv(pid, pieces), ranges, pieces, owners, outcomes, done);
            } catch (ErrnoException e) {
                int owner = owners[0];
                MemoryAccessException cause =
                        Errno.toException(e.errno(), pid, ranges.get(owner).address() + done[owner]);
                if (Errno.affectsWholeProcess(e.errno())) {
                    failAllPending(outcomes, done, cause);
                    break;
                }
                outcomes[owner] = failure(done[owner], cause);
            }
            next = nextPending(outcomes, next);
        }
        return Arrays.asList(outcomes);
    }

    /** Fills {@code pieces} with the pending ranges from {@code first}, within the per-call limits. */
    private void plan(List<ReadRange> ranges, RangeOutcome[] outcomes, int[] done, int first,
                      List<ReadRange> pieces, int[] owners) {
        int budget = maxBytesPerCall;
        for (int i = first; i < ranges.size() && pieces.size() < NativeReader.IOV_MAX && budget > 0; i++) {
            if (outcomes[i] != null) {
                continue;
            }
            ReadRange r = ranges.get(i);
            int remaining = r.length() - done[i];
            int take = Math.min(remaining, budget);
            owners[pieces.size()] = i;
            pieces.add(new ReadRange(r.address() + done[i], r.buffer(), r.offset() + done[i], take));
            budget -= take;
            if (take < remaining) {
                break; // the rest of this range opens the next call, keeping ranges in order
            }
        }
    }

    private static void attribute(long transferred, List<ReadRange> ranges, List<ReadRange> pieces,
                                  int[] owners, RangeOutcome[] outcomes, int[] done) {
        long remaining = transferred;
        for (int k = 0; k < pieces.size() && remaining > 0; k++) {
            int owner = owners[k];
            int take = (int) Math.min(pieces.get(k).length(), remaining);
            done[owner] += take;
            remaining -= take;
            if (done[owner] == ranges.get(owner).length()) {
                outcomes[owner] = new RangeOutcome.Complete(done[owner]);
            }
        }
    }

    private static void failAllPending(RangeOutcome[] outcomes, int[] done, MemoryAccessException cause) {
        for (int i = 0; i < outcomes.length; i++) {
            if (outcomes[i] == null) {
                outcomes[i] = failure(done[i], cause);
            }
        }
    }

    private static RangeOutcome failure(int bytesRead, MemoryAccessException cause) {
        return bytesRead > 0 ? new RangeOutcome.Partial(bytesRead, cause) : new RangeOutcome.Failed(cause);
    }

    private static int nextPending(RangeOutcome[] outcomes, int from) {
        int i = from;
        while (i < outcomes.length && outcomes[i] != null) {
            i++;
        }
        return i;
    }

    private static boolean wrapsAround(ReadRange r) {
        return Long.compareUnsigned(r.address() + (r.length() - 1), r.address()) < 0;
    }
}
