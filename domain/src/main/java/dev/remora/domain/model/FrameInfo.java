package dev.remora.domain.model;

import dev.remora.domain.linetable.SourceLocation;

/**
 * One frame as a user sees it. A Python frame: the code's qualified name, its file, where it is, and
 * the line its code starts on ({@code co_firstlineno}, 0 where unknown: frames read back from a
 * collapsed or binary file). A C frame ({@link Kind#NATIVE}): its function's symbol (or its address),
 * the library it lives in, and no location.
 */
public record FrameInfo(String function, String file, SourceLocation location, Kind kind, int firstLine) {

    /** What ran in the frame. */
    public enum Kind { PYTHON, NATIVE }

    /** A Python frame whose code's first line is unknown (or a pseudo frame such as {@link PseudoFrames#NATIVE}). */
    public FrameInfo(String function, String file, SourceLocation location) {
        this(function, file, location, Kind.PYTHON, 0);
    }

    /** A Python frame of code that starts on {@code firstLine}. */
    public static FrameInfo ofCode(String function, String file, SourceLocation location, int firstLine) {
        return new FrameInfo(function, file, location, Kind.PYTHON, firstLine);
    }

    /** A C frame: {@code function} in {@code library} (its path). */
    public static FrameInfo ofNative(String function, String library) {
        return new FrameInfo(function, library, SourceLocation.NONE, Kind.NATIVE, 0);
    }

    public boolean isNative() {
        return kind == Kind.NATIVE;
    }
}
