package dev.remora.adapters.vmreadv;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The scheduling policy of the calling thread ({@code sched_setscheduler} with pid 0, which Linux
 * applies to the calling thread alone). A sampling thread at the lowest real-time priority is woken on
 * time even while the target and the JVM's own compiler threads share its CPU; at normal priority the
 * kernel may let them run out their slice first, and the sampler's ticks come milliseconds late.
 */
@SuppressWarnings("restricted") // the launchers and the jar's manifest enable native access for Remora
public final class ThreadScheduling {

    /** What asking for a policy came to. */
    public enum Outcome {
        APPLIED,
        /** No CAP_SYS_NICE and no RLIMIT_RTPRIO: the thread keeps its policy. */
        REFUSED,
        /** Not Linux, or no {@code sched_setscheduler} to call. */
        UNAVAILABLE
    }

    private static final int SCHED_OTHER = 0;
    private static final int SCHED_FIFO = 1;
    private static final int LOWEST_REALTIME_PRIORITY = 1;
    private static final MethodHandle SCHED_SETSCHEDULER;

    static {
        Linker linker = Linker.nativeLinker();
        boolean linux = System.getProperty("os.name", "").toLowerCase().startsWith("linux");
        SCHED_SETSCHEDULER = linux ? linker.defaultLookup().find("sched_setscheduler").map(fn -> linker.downcallHandle(fn,
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS))).orElse(null) : null;
    }

    private ThreadScheduling() {}

    /** Puts the calling thread at the lowest real-time (FIFO) priority, above every normal thread. */
    public static Outcome realtime() {
        return set(SCHED_FIFO, LOWEST_REALTIME_PRIORITY);
    }

    /** Puts the calling thread back at normal priority; always allowed. */
    public static Outcome normal() {
        return set(SCHED_OTHER, 0);
    }

    private static Outcome set(int policy, int priority) {
        if (SCHED_SETSCHEDULER == null) {
            return Outcome.UNAVAILABLE;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment param = arena.allocate(JAVA_INT); // struct sched_param { int sched_priority; }
            param.set(JAVA_INT, 0, priority);
            int result = (int) SCHED_SETSCHEDULER.invokeExact(0, policy, param);
            return result == 0 ? Outcome.APPLIED : Outcome.REFUSED;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
