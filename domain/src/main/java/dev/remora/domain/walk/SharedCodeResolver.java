package dev.remora.domain.walk;

import dev.remora.domain.threads.InterpreterWindow;
import dev.remora.domain.asyncio.CodeResolver;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.HashSet;
import java.util.Set;

/**
 * Resolves frames for the asyncio graph with the same per-interpreter code-object caches the stack
 * walks use, dropping them when the interpreter's code-object generation moved (read once per
 * interpreter and reading).
 */
final class SharedCodeResolver implements CodeResolver {

    private final SnapshotReader reader;
    private final InterpreterWindow window;
    private final CodeObjectsByInterpreter codes;
    /** Interpreters whose generation was read in the current reading. */
    private final Set<Long> observed = new HashSet<>();

    SharedCodeResolver(SnapshotReader reader, DebugOffsets offsets, CodeObjectsByInterpreter codes) {
        this.reader = reader;
        this.window = new InterpreterWindow(offsets);
        this.codes = codes;
    }

    @Override
    public void newReading() {
        observed.clear();
    }

    @Override
    public FrameInfo frame(long interpreter, long executable, long instrPtr)
            throws MemoryAccessException, MalformedObjectException {
        CodeObjects ofInterpreter;
        if (observed.add(interpreter)) {
            window.read(reader, interpreter);
            ofInterpreter = codes.of(window);
        } else {
            ofInterpreter = codes.of(interpreter);
        }
        return ofInterpreter.get(executable).frameAt(instrPtr);
    }
}
