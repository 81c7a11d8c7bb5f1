package dev.remora.app.bench;

import dev.remora.domain.InspectionException;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncThread;
import dev.remora.domain.asyncio.TaskStacks;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.domain.walk.WalkStats;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Calls Remora's unwinder back to back for a while, each walk feeding a profile as a sampler's would,
 * and counts what it achieved.
 */
public final class RemoraBenchLoop implements BenchSide {

    /** One call of the unwinder, fed to a profile; false when it found nothing to report. */
    @FunctionalInterface
    private interface Call {
        boolean into(ProfileBuilder builder) throws InspectionException;
    }

    private final PythonProcess process;
    private final ProfileBuilder builder;
    private final Call call;
    /** Another unwinder takes turns on the same target and keeps the frame markers its own way. */
    private final boolean sharesTarget;
    private WalkStats before;
    private long errorsBefore;
    private final long origin = System.nanoTime();
    private long calls, samples, failures, work, wall, allocated;

    public RemoraBenchLoop(PythonProcess process, ThreadScope scope, BenchApi api, boolean sharesTarget) {
        this.sharesTarget = sharesTarget;
        ProfileMode mode = scope == ThreadScope.only_active ? ProfileMode.GIL : ProfileMode.WALL;
        this.process = process;
        this.builder = new ProfileBuilder(new ProfileInfo(process.pid(), process.version().toString(),
                process.backendName(), mode, 1, System.currentTimeMillis()));
        this.call = call(process, scope, api);
        this.before = process.stats();
    }

    @Override
    public void warmUp(long nanos) {
        measure(nanos);
        calls = samples = failures = work = wall = allocated = 0;
        before = process.stats();
        errorsBefore = builder.errorCount();
    }

    @Override
    public void measure(long nanos) {
        if (sharesTarget) {
            process.distrustFrameMarkers();
        }
        long allocatedBefore = allocatedBytes();
        long start = System.nanoTime();
        long end = start + nanos;
        long now = start;
        while (now < end) {
            calls++;
            builder.beginSample(now - origin);
            try {
                if (call.into(builder)) {
                    samples++;
                }
            } catch (InspectionException e) {
                failures++;
            }
            long after = System.nanoTime();
            work += after - now;
            now = after;
        }
        wall += now - start;
        allocated += allocatedBytes() - allocatedBefore;
    }

    @Override
    public BenchResult result() {
        Map<String, Long> stats = stats(before, process.stats(), builder.errorCount() - errorsBefore);
        stats.put("allocated_bytes_per_call", calls == 0 ? 0 : allocated / calls);
        return new BenchResult("remora", calls, samples, failures, work, wall, stats);
    }

    @Override
    public void close() {
        // The process belongs to the caller.
    }

    private static Call call(PythonProcess process, ThreadScope scope, BenchApi api) {
        return switch (api) {
            case stack -> {
                SnapshotOptions walk = SnapshotOptions.of(SnapshotOptions.Threads.all(scope != ThreadScope.main));
                // A sample only when every thread's stack was read whole.
                yield builder -> {
                    long errors = builder.errorCount();
                    process.sample(walk, builder);
                    return builder.errorCount() == errors;
                };
            }
            case async -> builder -> tasks(process.asyncSnapshot(AsyncMode.RUNNING), builder);
            case awaited -> builder -> tasks(process.asyncSnapshot(AsyncMode.ALL), builder);
        };
    }

    /** Counts a reading as a sample when it found a task, as CPython's benchmark counts a non-empty answer. */
    private static boolean tasks(AsyncSnapshot snapshot, ProfileBuilder builder) {
        TaskStacks.feed(snapshot, builder);
        for (AsyncThread thread : snapshot.threads()) {
            if (!thread.tasks().isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Heap bytes this thread has allocated so far (the JDK's per-thread counter). */
    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static Map<String, Long> stats(WalkStats before, WalkStats after, long stackErrors) {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("code_object_cache_hits", after.codeObjectHits() - before.codeObjectHits());
        stats.put("code_object_cache_misses", after.codeObjectMisses() - before.codeObjectMisses());
        stats.put("frame_cache_hits", after.frameCacheHits() - before.frameCacheHits());
        stats.put("frame_cache_misses", after.frameCacheMisses() - before.frameCacheMisses());
        stats.put("remote_reads", after.remoteReads() - before.remoteReads());
        stats.put("remote_bytes", after.remoteBytes() - before.remoteBytes());
        stats.put("batched_reads", after.batchedReads() - before.batchedReads());
        stats.put("checks_from_batch", after.checksFromBatch() - before.checksFromBatch());
        stats.put("check_reads", after.checkReads() - before.checkReads());
        stats.put("marker_walks", after.markerWalks() - before.markerWalks());
        stats.put("frames_below_marker", after.framesBelowMarker() - before.framesBelowMarker());
        stats.put("marker_writes", after.markerWrites() - before.markerWrites());
        stats.put("stack_errors", stackErrors);
        return stats;
    }
}
