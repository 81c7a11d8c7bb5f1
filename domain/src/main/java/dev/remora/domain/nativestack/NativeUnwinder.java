package dev.remora.domain.nativestack;

import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadRegisters;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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

    /**
     * The registers and the stack above the stack pointer, copied now (while the thread is stopped).
     * Reads a later walk makes beyond the copy (C stacks over 64 KiB) go to the target as it is then.
     */
    public CapturedThread capture(ThreadRegisters registers) {
        return new CapturedThread(registers, CopiedStack.of(memory, modules, registers.sp()));
    }

    /** The frames of a captured thread, innermost first. */
    public NativeStack unwind(CapturedThread thread) {
        return new NativeWalk(thread.stack(), modules, thread.registers().dwarf()).run();
    }

    /**
     * The stack with each frame's source file and line where its module has a line table (pyenv's
     * builds do; stripped ones do not). A caller's line is that of its call, one byte before the
     * return address, as gdb gives it.
     */
    public NativeStack withSourceLines(NativeStack stack) {
        List<NativeFrame> frames = new ArrayList<>(stack.frames().size());
        for (int i = 0; i < stack.frames().size(); i++) {
            NativeFrame f = stack.frames().get(i);
            long lookup = i == 0 ? f.pc() : f.pc() - 1;
            Optional<SourceLine> source = modules.moduleAt(lookup).flatMap(m -> {
                OptionalLong bias = m.bias();
                return bias.isPresent() ? m.file().line(lookup - bias.getAsLong()) : Optional.empty();
            });
            frames.add(f.at(source));
        }
        return new NativeStack(frames, stack.incomplete());
    }

    /** The modules this unwinder reads, to carry over to one made for newer mappings. */
    public NativeModules modules() {
        return modules;
    }

    /** The thread's frames, innermost first, from its registers at the stop. */
    public NativeStack unwind(ThreadRegisters registers) {
        return unwind(capture(registers));
    }
}
