package dev.remora.domain.walk;

import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.threads.InterpreterWindow;
import dev.remora.domain.threads.Interpreters;
import dev.remora.domain.model.StackVisitor;
import dev.remora.ports.CpuState;
import dev.remora.ports.MemoryAccessException;

import java.util.function.LongFunction;

/**
 * One pass over a process: a fresh snapshot of its memory, its interpreters in list order (see
 * {@link Interpreters}), and each started thread that the options ask for, handed to
 * {@link ThreadWalk}. One pass at a time: the pass under way keeps what it was asked for while
 * {@link Interpreters} calls it back.
 */
final class ProcessWalk implements Interpreters.Visitor {

    private final SnapshotReader reader;
    private final Interpreters interpreters;
    private final CodeObjectsByInterpreter codes;
    private final FrameCaches caches;
    private final ThreadWalk threads;
    private SnapshotOptions options;
    private LongFunction<CpuState> runStates;
    private StackVisitor visitor;

    ProcessWalk(SnapshotReader reader, Interpreters interpreters, CodeObjectsByInterpreter codes, FrameCaches caches,
                ThreadWalk threads) {
        this.reader = reader;
        this.interpreters = interpreters;
        this.codes = codes;
        this.caches = caches;
        this.threads = threads;
    }

    /** Walks every interpreter's threads, reporting them to {@code visitor} as it goes. */
    void walk(SnapshotOptions options, LongFunction<CpuState> runStates, StackVisitor visitor)
            throws MemoryAccessException, InspectionException {
        reader.reset();
        caches.beginWalk();
        this.options = options;
        this.runStates = runStates;
        this.visitor = visitor;
        try {
            interpreters.read(this);
        } finally {
            this.options = null;
            this.runStates = null;
            this.visitor = null;
        }
        caches.endWalk();
    }

    @Override
    public void visit(InterpreterWindow interpreter, Interpreters.Threads list) throws MemoryAccessException {
        CodeObjects codes = this.codes.of(interpreter);
        visitor.beginInterpreter(interpreter.id());
        for (int i = 0; i < list.count(); i++) {
            if (!options.allThreads() && list.address(i) != list.main()) {
                continue;
            }
            long nativeId = list.nativeId(i);
            if (list.notStarted(i, nativeId)) {
                // A thread state whose thread has not started yet has no OS thread and no frame: not a thread yet.
                visitor.threadNotStarted();
                continue;
            }
            // A 3.10 thread whose kernel id cannot be told is shown all the same, as thread 0.
            threads.walk(interpreter, list, i, Math.max(0, nativeId), codes, options, runStates, visitor);
        }
    }
}
