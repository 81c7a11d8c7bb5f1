package dev.remora.domain.nativestack;

/**
 * A source position of a code address, from the line table of the code's module.
 *
 * @param file the source path as the compiler saw it: joined with its directory, {@code .} segments dropped
 * @param line the 1-based line; 0 where the compiler gave the code no line (generated code)
 */
public record SourceLine(String file, int line) {}
