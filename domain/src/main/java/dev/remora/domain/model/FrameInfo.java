package dev.remora.domain.model;

import dev.remora.domain.linetable.SourceLocation;

/**
 * One frame as a user sees it. A Python frame: the code's qualified name, its file, and where it is.
 * A C frame ({@link Kind#NATIVE}): its function's symbol (or its address), the library it lives in,
 * and no location.
 */
public record FrameInfo(String function, String file, SourceLocation location, Kind kind) {

    /** What ran in the frame. */
    public enum Kind { PYTHON, NATIVE }

    /** A Python frame (or a pseudo frame such as {@link PseudoFrames#NATIVE}). */
    public FrameInfo(String function, String file, SourceLocation location) {
        this(function, file, location, Kind.PYTHON);
    }

    /** A C frame: {@code function} in {@code library} (its path). */
    public static FrameInfo ofNative(String function, String library) {
        return new FrameInfo(function, library, SourceLocation.NONE, Kind.NATIVE);
    }

    public boolean isNative() {
        return kind == Kind.NATIVE;
    }
}
