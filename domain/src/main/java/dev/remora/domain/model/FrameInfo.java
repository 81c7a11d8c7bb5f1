package dev.remora.domain.model;

import dev.remora.domain.linetable.SourceLocation;

/** One Python frame as a user sees it: the code's qualified name, its file, and where it is. */
public record FrameInfo(String function, String file, SourceLocation location) {}
