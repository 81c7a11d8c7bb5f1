package dev.remora.domain.walk;

import dev.remora.domain.asyncio.CodeResolver;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Resolves frames for the asyncio graph with the same per-interpreter code-object caches the stack
 * walks use, dropping them when the interpreter's code-object generation moved (read once per
 * interpreter and reading).
 */
final class SharedCodeResolver implements CodeResolver {

    private final SnapshotReader reader;
    private final ObjectReader objects;
    private final DebugOffsets offsets;
    private final Map<Long, CodeObjects> codesByInterpreter;
    /** Interpreters whose generation was read in the current reading. */
    private final Set<Long> observed = new HashSet<>();

    SharedCodeResolver(SnapshotReader reader, ObjectReader objects, DebugOffsets offsets,
                       Map<Long, CodeObjects> codesByInterpreter) {
        this.reader = reader;
        this.objects = objects;
        this.offsets = offsets;
        this.codesByInterpreter = codesByInterpreter;
    }

    @Override
    public void newReading() {
        observed.clear();
    }

    @Override
    public FrameInfo frame(long interpreter, long executable, long instrPtr)
            throws MemoryAccessException, MalformedObjectException {
        CodeObjects codes = codesByInterpreter.computeIfAbsent(interpreter, a -> new CodeObjects(reader, objects, offsets));
        var generation = offsets.interpreter().codeObjectGeneration();
        if (generation.isPresent() && observed.add(interpreter)) {
            codes.observeGeneration(reader.readLong(interpreter + generation.getAsLong()));
        }
        return codes.get(executable).frameAt(instrPtr);
    }
}
