package dev.remora.domain.nativestack;

import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadRegisters;

/**
 * Walks a thread's C stack from its registers, x86-64 Linux: DWARF call frame information from each
 * module's {@code .eh_frame} (or {@code .debug_frame}), and the frame pointer chain where a module
 * has none for the pc. Never throws for bad input; every walk is bounded in frames and work.
 * Safe for concurrent walks when the memory is.
 */
public final class NativeUnwinder {

    /** The deepest stack walked; deeper ones are cut there. */
    public static final int MAX_FRAMES = 256;

    private final RemoteMemory memory;
    private final NativeModules modules;

    public NativeUnwinder(RemoteMemory memory, NativeModules modules) {
        this.memory = memory;
        this.modules = modules;
    }

    /** The modules this unwinder reads, to carry over to one made for newer mappings. */
    public NativeModules modules() {
        return modules;
    }

    /** The thread's frames, innermost first, from its registers at the stop. */
    public NativeStack unwind(ThreadRegisters registers) {
        return new NativeWalk(CopiedStack.of(memory, modules, registers.sp()), modules, registers.dwarf()).run();
    }
}
