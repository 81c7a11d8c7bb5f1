package dev.remora.domain.asyncio;

import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;

/**
 * What every part of one reading of the task graph shares. The debug offsets are known to carry
 * the 3.14+ records ({@code generator}, {@code llistNode}, {@code set}, the frame's stack pointer):
 * the accessors below unwrap them.
 */
record AsyncContext(SnapshotReader reader, ObjectReader objects, DebugOffsets offsets, AsyncioOffsets asyncio,
                    CodeResolver codes) {

    DebugOffsets.Generator generator() {
        return offsets.generator().orElseThrow();
    }

    DebugOffsets.LlistNode llistNode() {
        return offsets.llistNode().orElseThrow();
    }

    DebugOffsets.SetObject set() {
        return offsets.set().orElseThrow();
    }

    long stackPointer() {
        return offsets.frame().stackPointer().orElseThrow();
    }

    /** Whether a pointer read from the target can address an object at all. */
    static boolean plausiblePointer(long address) {
        return address > 0 && (address & 7) == 0;
    }
}
