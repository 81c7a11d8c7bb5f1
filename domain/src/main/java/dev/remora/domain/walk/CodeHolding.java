package dev.remora.domain.walk;

/** Which known code object holds an instruction: where a frame whose code reads cleared last ran. */
@FunctionalInterface
interface CodeHolding {

    /** Knows no code object. */
    CodeHolding NONE = instrPtr -> 0;

    /** The address of the known code object whose code units hold {@code instrPtr}, or 0. */
    long addressHolding(long instrPtr);
}
