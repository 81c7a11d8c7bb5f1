package dev.remora.domain.asyncio;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.ports.MemoryAccessException;

/** Turns a frame's code object and instruction pointer into what a user sees, with the walker's caches. */
public interface CodeResolver {

    /** A new reading of the target begins: state read from it before may have changed. */
    default void newReading() {}

    /**
     * @param interpreter the address of the interpreter state the frame runs in (code caches are per interpreter)
     * @param executable the untagged address of the frame's code object
     * @param instrPtr the frame's {@code instr_ptr}
     */
    FrameInfo frame(long interpreter, long executable, long instrPtr) throws MemoryAccessException, MalformedObjectException;
}
