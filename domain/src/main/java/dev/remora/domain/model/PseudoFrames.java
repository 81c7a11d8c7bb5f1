package dev.remora.domain.model;

import dev.remora.domain.linetable.SourceLocation;

/** Frames that stand for something other than Python code, named as CPython's profiler names them. */
public final class PseudoFrames {

    /** Python called into C, which called back into Python. */
    public static final FrameInfo NATIVE = new FrameInfo("<native>", "~", SourceLocation.NONE);
    /** A garbage collection started in the frame below. */
    public static final FrameInfo GC = new FrameInfo("<GC>", "~", SourceLocation.NONE);

    private PseudoFrames() {}
}
