package dev.remora.domain.walk;

import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.threads.InterpreterWindow;
import dev.remora.domain.offsets.DebugOffsets;

import java.util.HashMap;
import java.util.Map;

/**
 * The code-object cache of each interpreter (code objects belong to one), shared by stack walks and
 * asyncio readings. Most processes have one interpreter: asking for the same one again costs no
 * lookup.
 */
final class CodeObjectsByInterpreter {

    private final SnapshotReader reader;
    private final ObjectReader objects;
    private final DebugOffsets offsets;
    private final Map<Long, CodeObjects> byInterpreter = new HashMap<>();
    private long lastInterpreter;
    private CodeObjects last;

    CodeObjectsByInterpreter(SnapshotReader reader, ObjectReader objects, DebugOffsets offsets) {
        this.reader = reader;
        this.objects = objects;
        this.offsets = offsets;
    }

    /**
     * The cache of the interpreter {@code window} holds, told first the interpreter's code-object
     * generation where it keeps one: a moved generation drops what the cache held.
     */
    CodeObjects of(InterpreterWindow window) {
        CodeObjects codes = of(window.address());
        if (window.countsCodeObjectChanges()) {
            codes.observeGeneration(window.codeObjectGeneration());
        }
        return codes;
    }

    CodeObjects of(long interpreter) {
        if (last == null || interpreter != lastInterpreter) {
            last = byInterpreter.computeIfAbsent(interpreter, a -> new CodeObjects(reader, objects, offsets));
            lastInterpreter = interpreter;
        }
        return last;
    }

    long hits() {
        return byInterpreter.values().stream().mapToLong(CodeObjects::hits).sum();
    }

    long misses() {
        return byInterpreter.values().stream().mapToLong(CodeObjects::misses).sum();
    }
}
