package dev.remora.app.testing;

/**
 * One Python frame as the process itself saw it: {@code function} is the code object's
 * co_qualname, {@code file} its co_filename, and the positions (co_positions() of the instruction
 * the frame is at; null where CPython has none) are 1-based lines and 0-based UTF-8 byte columns.
 */
public record ExpectedFrame(String function, String file, Integer line, Integer endLine, Integer column, Integer endColumn) {}
