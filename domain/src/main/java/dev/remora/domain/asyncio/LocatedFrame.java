package dev.remora.domain.asyncio;

import dev.remora.domain.model.FrameInfo;

/** A frame of a task's stack with where it lives, for reading its variables when they are asked for. */
record LocatedFrame(FrameInfo frame, long frameAddress, long codeAddress) {}
