package dev.remora.app.profiling;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * Tells when the heap that holds a profile is nearly full after a collection: a run should then stop
 * and write what it has, rather than meet an OutOfMemoryError and write nothing. Asked between
 * samples; it reads flags the JVM keeps, so asking costs next to nothing.
 */
public final class HeapWatch {

    /** Of a pool's maximum, what a collection may leave in use before the run stops: the rest is for writing. */
    public static final double FULL = 0.75;

    /** Between two looks at the pools: the sampler asks at every tick. */
    private static final long LOOK_EVERY_NANOS = 100_000_000L;

    private final List<MemoryPoolMXBean> pools;
    private long lastLook = System.nanoTime();
    private boolean full;

    private HeapWatch(List<MemoryPoolMXBean> pools) {
        this.pools = pools;
    }

    /**
     * Watches the heap pools where what lives long ends (old or tenured: not eden or survivor, whose
     * use after a collection says nothing of what the run keeps) whose use after a collection the JVM
     * can compare with a threshold.
     */
    public static HeapWatch ofThisJvm() {
        List<MemoryPoolMXBean> watched = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()
                        && p.getUsage().getMax() > 0 && !p.getName().contains("Eden") && !p.getName().contains("Survivor"))
                .toList();
        for (MemoryPoolMXBean pool : watched) {
            pool.setCollectionUsageThreshold((long) (pool.getUsage().getMax() * FULL));
        }
        return new HeapWatch(watched);
    }

    /** Whether a collection left some heap pool fuller than {@link #FULL} of its maximum; once it did, always. */
    public boolean nearlyFull() {
        long now = System.nanoTime();
        if (full || now - lastLook < LOOK_EVERY_NANOS) {
            return full;
        }
        lastLook = now;
        for (MemoryPoolMXBean pool : pools) {
            full |= pool.isCollectionUsageThresholdExceeded();
        }
        return full;
    }

    /** Whether {@link #nearlyFull} said so: the run stopped for it. */
    public boolean stopped() {
        return full;
    }

    /** The heap's maximum, in MiB, for the message that says why a run stopped. */
    public static long maxMebibytes() {
        return Runtime.getRuntime().maxMemory() >> 20;
    }
}
