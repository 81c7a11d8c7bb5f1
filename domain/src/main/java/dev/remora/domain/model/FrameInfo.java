package dev.remora.domain.model;

import dev.remora.domain.linetable.SourceLocation;

/**
 * One frame as a user sees it. A Python frame: the code's qualified name, its file, where it is, and
 * the line its code starts on ({@code co_firstlineno}, 0 where unknown: frames read back from a
 * collapsed or binary file). A C frame ({@link Kind#NATIVE}): its function's symbol (or its address),
 * the library it lives in, no location, and {@code address}: the function's start (the pc where no
 * symbol names one) in the library's own link-time addresses, what {@code addr2line} takes (0 where
 * unknown, and for Python frames).
 */
public record FrameInfo(String function, String file, SourceLocation location, Kind kind, int firstLine, long address) {

    /** What ran in the frame. */
    public enum Kind { PYTHON, NATIVE }

    /** A Python frame whose code's first line is unknown (or a pseudo frame such as {@link PseudoFrames#NATIVE}). */
    public FrameInfo(String function, String file, SourceLocation location) {
        this(function, file, location, Kind.PYTHON, 0, 0);
    }

    /** A Python frame of code that starts on {@code firstLine}. */
    public static FrameInfo ofCode(String function, String file, SourceLocation location, int firstLine) {
        return new FrameInfo(function, file, location, Kind.PYTHON, firstLine, 0);
    }

    /** A C frame: {@code function} in {@code library} (its path), its address unknown. */
    public static FrameInfo ofNative(String function, String library) {
        return ofNative(function, library, 0);
    }

    /** A C frame: {@code function} in {@code library} (its path), starting at {@code address} there. */
    public static FrameInfo ofNative(String function, String library, long address) {
        return new FrameInfo(function, library, SourceLocation.NONE, Kind.NATIVE, 0, address);
    }

    public boolean isNative() {
        return kind == Kind.NATIVE;
    }
}
