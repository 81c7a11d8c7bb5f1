package dev.remora.ports;

/**
 * How long each thread of the target has run on a CPU, read at the moment asked. Unlike the OS's run
 * state, which also counts a thread waiting for a CPU as running, the clock moves only while the
 * thread has one.
 */
public interface ThreadCpuClocks extends AutoCloseable {

    /** What {@link #cpuNanos} answers for a thread whose clock cannot be read. */
    long UNAVAILABLE = -1;

    /** No clocks: every thread's is unavailable. */
    ThreadCpuClocks NONE = new ThreadCpuClocks() {
        @Override
        public long cpuNanos(long nativeThreadId) {
            return UNAVAILABLE;
        }

        @Override
        public void close() {}
    };

    /** Nanoseconds the thread has run on a CPU so far, or {@link #UNAVAILABLE}. */
    long cpuNanos(long nativeThreadId);

    /** Lets go of what reading the clocks holds open. */
    @Override
    void close();
}
