package dev.remora.app.cli;

import dev.remora.app.output.dump.NativeDump;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.nativestack.EvalCall;
import dev.remora.domain.nativestack.InternalFrames;
import dev.remora.domain.nativestack.MixedStack;
import dev.remora.domain.nativestack.NativeModules;
import dev.remora.domain.nativestack.NativeStack;
import dev.remora.domain.nativestack.NativeUnwinder;
import dev.remora.domain.nativestack.StackEntry;
import dev.remora.domain.nativestack.StackMerge;
import dev.remora.domain.nativestack.ThreadKey;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadRegisters;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Reads each thread's C stack from its registers and merges it with the Python stack the dump read:
 * the registers come from a stopped process, or from a core.
 */
final class NativeStacksReader {

    /** Which threads get C frames: those with a Python state, or every thread of the process. */
    enum Threads { PYTHON, ALL }

    private final ProcessImage image;
    private final RemoteMemory memory;
    private final PythonProcess process;
    private final InternalFrames internal;

    NativeStacksReader(ProcessImage image, RemoteMemory memory, PythonProcess process, InternalFrames internal) {
        this.image = image;
        this.memory = memory;
        this.process = process;
        this.internal = internal;
    }

    NativeDump read(ProcessStacks stacks, LongFunction<Optional<ThreadRegisters>> registers, Threads threads)
            throws InspectionException {
        NativeUnwinder unwinder = unwinder(image, memory, null);
        Map<ThreadKey, List<EvalCall>> calls = process.evalCalls();
        StackMerge merge = new StackMerge(process.interpreterFile(), internal);
        Map<ThreadKey, MixedStack> merged = new LinkedHashMap<>();
        Set<Long> python = new HashSet<>();
        for (InterpreterStacks interpreter : stacks.interpreters()) {
            for (ThreadStack thread : interpreter.threads()) {
                python.add(thread.threadId());
                Optional<ThreadRegisters> regs = registers.apply(thread.threadId());
                ThreadKey key = new ThreadKey(interpreter.interpreterId(), thread.threadId());
                merged.put(key, regs.isEmpty() ? pythonOnly(thread)
                        : merge.merge(thread.frames(), calls.getOrDefault(key, List.of()), unwind(unwinder, regs.get())));
            }
        }
        List<NativeDump.CThread> cThreads = new ArrayList<>();
        if (threads == Threads.ALL) {
            for (long tid : threadIds()) {
                if (!python.contains(tid)) {
                    Optional<ThreadRegisters> regs = registers.apply(tid);
                    MixedStack stack = regs.isEmpty()
                            ? new MixedStack(List.of(), Optional.of("no registers for this thread (it exited?)"), 0)
                            : merge.merge(List.of(), List.of(), unwind(unwinder, regs.get()));
                    cThreads.add(new NativeDump.CThread(tid, image.threadName(tid), stack));
                }
            }
        }
        return new NativeDump(merged, cThreads, image.fatalSignal());
    }

    /**
     * An unwinder over the process's mappings as they are now; the files {@code previous} (if any) has
     * read are not read again.
     */
    static NativeUnwinder unwinder(ProcessImage image, RemoteMemory memory, NativeUnwinder previous) throws InspectionException {
        try {
            NativeModules modules = previous == null
                    ? NativeModules.of(image.mappings(), image::openFile, memory, ZstdJniDecoder.INSTANCE)
                    : previous.modules().withMappings(image.mappings());
            return new NativeUnwinder(memory, modules);
        } catch (ProcessImageException e) {
            throw new InspectionException.Unreadable("cannot list the mappings of process %d: %s".formatted(image.pid(), e.getMessage()));
        }
    }

    /** A dump's C frames carry their source lines; a profile's do not need them. */
    private static NativeStack unwind(NativeUnwinder unwinder, ThreadRegisters registers) {
        return unwinder.withSourceLines(unwinder.unwind(registers));
    }

    private List<Long> threadIds() throws InspectionException {
        try {
            return image.threadIds();
        } catch (ProcessImageException e) {
            throw new InspectionException.Unreadable("cannot list the threads of process %d: %s".formatted(image.pid(), e.getMessage()));
        }
    }

    private static MixedStack pythonOnly(ThreadStack thread) {
        List<StackEntry> entries = new ArrayList<>();
        for (int i = 0; i < thread.frames().size(); i++) {
            entries.add(new StackEntry.Python(i));
        }
        return new MixedStack(entries, Optional.of("no registers for this thread, so no C frames (it exited, or the core left them out)"), 0);
    }
}
