package dev.remora.domain.asyncio;

import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * What the task graph needs to know about the type of an object: its {@code tp_flags}, and whether
 * it is CPython's own coroutine or generator type, whose instances embed a frame that can be read.
 * Remembered per reading: a heap type could be freed and its address reused between readings.
 */
final class TypeFacts {

    // Py_TPFLAGS_* of Include/object.h, part of the stable ABI.
    static final long HEAPTYPE = 1L << 9;
    static final long LONG_SUBCLASS = 1L << 24;
    static final long UNICODE_SUBCLASS = 1L << 28;

    /** Both names are nine characters; read them with their NUL. */
    private static final byte[] COROUTINE = "coroutine\0".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GENERATOR = "generator\0".getBytes(StandardCharsets.US_ASCII);

    private final SnapshotReader reader;
    private final DebugOffsets offsets;
    private final Map<Long, Long> flags = new HashMap<>();
    private final Map<Long, Boolean> generatorLike = new HashMap<>();

    TypeFacts(SnapshotReader reader, DebugOffsets offsets) {
        this.reader = reader;
        this.offsets = offsets;
    }

    long typeOf(long object) throws MemoryAccessException, InconsistentGraph {
        long type = reader.readLong(object + offsets.object().obType());
        if (!AsyncContext.plausiblePointer(type)) {
            throw new InconsistentGraph("object at 0x%x has a bad type pointer 0x%x".formatted(object, type));
        }
        return type;
    }

    long flags(long type) throws MemoryAccessException {
        Long known = flags.get(type);
        if (known == null) {
            known = reader.readLong(type + offsets.type().tpFlags());
            flags.put(type, known);
        }
        return known;
    }

    /**
     * Whether objects of this type are CPython's coroutines or generators. Those types are static,
     * so a heap type of the same name (a user's {@code class coroutine}) is not taken for them.
     */
    boolean isGeneratorLike(long type) throws MemoryAccessException {
        Boolean known = generatorLike.get(type);
        if (known == null) {
            known = (flags(type) & HEAPTYPE) == 0 && hasName(type);
            generatorLike.put(type, known);
        }
        return known;
    }

    private boolean hasName(long type) throws MemoryAccessException {
        long name = reader.readLong(type + offsets.type().tpName());
        byte[] raw = new byte[COROUTINE.length];
        try {
            reader.read(name, raw, 0, raw.length);
        } catch (MemoryAccessException.Unmapped e) {
            return false;
        }
        return Arrays.equals(raw, COROUTINE) || Arrays.equals(raw, GENERATOR);
    }
}
