package dev.remora.domain.nativestack;

/** One entry of a thread's merged stack: a Python frame of the dump's stack, or a C frame. */
public sealed interface StackEntry {

    /** The Python frame at {@code index} in the thread's Python stack (its frames and variables). */
    record Python(int index) implements StackEntry {}

    /** A C frame. */
    record Native(NativeFrame frame) implements StackEntry {}
}
