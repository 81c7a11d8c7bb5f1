package dev.remora.domain.nativestack;

/** A function symbol, in its file's link-time addresses; size 0 when the file does not say. */
record Symbol(String name, long start, long size) {}
