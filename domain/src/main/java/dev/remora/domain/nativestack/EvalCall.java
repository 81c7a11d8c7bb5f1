package dev.remora.domain.nativestack;

/**
 * One call of the eval loop on a thread's C stack, as the Python side sees it.
 *
 * @param pythonFrames how many of the thread's Python frames (as a dump shows them, innermost first) it runs
 * @param anchor an address inside that call's own C stack frame (3.11 and 3.12: its {@code _PyCFrame};
 *     3.12 on: its entry frame), or 0 when the version keeps none there
 */
public record EvalCall(int pythonFrames, long anchor) {}
