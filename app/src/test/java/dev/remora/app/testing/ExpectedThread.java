package dev.remora.app.testing;

import java.util.List;

/**
 * One thread's Python stack, innermost frame first. {@code threadId} is the native (Linux) thread
 * id; {@code name} is the threading name, or null where the source does not know it.
 */
public record ExpectedThread(long threadId, String name, List<ExpectedFrame> frames) {

    public ExpectedThread {
        frames = List.copyOf(frames);
    }

    /** The innermost frame: where the thread is parked. */
    public ExpectedFrame top() {
        if (frames.isEmpty()) {
            throw new IllegalStateException("thread " + threadId + " (" + name + ") has no Python frames");
        }
        return frames.getFirst();
    }

    /** The functions' qualified names, innermost first. */
    public List<String> functions() {
        return frames.stream().map(ExpectedFrame::function).toList();
    }

    /** The frames' first lines, innermost first (elements may be null). */
    public List<Integer> lines() {
        return frames.stream().map(ExpectedFrame::line).toList();
    }
}
