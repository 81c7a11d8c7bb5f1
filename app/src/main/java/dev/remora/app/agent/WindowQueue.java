package dev.remora.app.agent;

import java.util.ArrayDeque;
import java.util.Optional;

/**
 * The windows one sink has yet to deliver, oldest first, bounded in bytes: a window that would pass
 * the bound pushes the oldest out (counted), never itself, so that what a back end gets once it is
 * back is the most recent past. Safe between the sampling side, which adds, and the sink's thread.
 */
final class WindowQueue {

    private final long maxBytes;
    private final ArrayDeque<ProfileWindow> windows = new ArrayDeque<>();
    private long bytes;
    private long dropped;
    private boolean closed;

    WindowQueue(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    synchronized void add(ProfileWindow window) {
        windows.addLast(window);
        bytes += window.bytes();
        while (bytes > maxBytes && windows.size() > 1) {
            bytes -= windows.removeFirst().bytes();
            dropped++;
        }
        notifyAll();
    }

    /**
     * The oldest window, left in the queue until {@link #remove}d; waits up to {@code waitNanos} for
     * one. Empty when none came, or the queue is closed and empty.
     */
    synchronized Optional<ProfileWindow> oldest(long waitNanos) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        while (windows.isEmpty() && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return Optional.ofNullable(windows.peekFirst());
    }

    /**
     * Takes {@code window}, the oldest when the sink's thread took it, out: it was delivered or refused.
     * If a full queue pushed it out meanwhile, it was counted as dropped, which it no longer is.
     */
    synchronized void remove(ProfileWindow window) {
        if (windows.peekFirst() == window) {
            windows.removeFirst();
            bytes -= window.bytes();
        } else {
            dropped--;
        }
    }

    /** No more windows will come: a sink's thread that finds the queue empty ends. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }

    /** Waits {@code nanos}, or less if the queue is closed meanwhile; true when it is closed. */
    synchronized boolean awaitClose(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (!closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    synchronized boolean closed() {
        return closed;
    }

    synchronized long bytes() {
        return bytes;
    }

    synchronized int size() {
        return windows.size();
    }

    /** Windows pushed out by newer ones since the start. */
    synchronized long dropped() {
        return dropped;
    }
}
