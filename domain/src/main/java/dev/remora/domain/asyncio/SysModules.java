package dev.remora.domain.asyncio;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DictKeysLayout;
import dev.remora.ports.MemoryAccessException;

import java.util.List;

/**
 * Whether a module is in an interpreter's {@code sys.modules}: needed where asyncio's layout is
 * built into the interpreter (Debian's 3.15), so that a mapped {@code AsyncioDebug} section does
 * not mean asyncio was imported.
 */
final class SysModules {

    /** More modules than any real program imports; a larger dict is garbage. */
    private static final long MAX_ENTRIES = 1 << 17;
    private static final int MAX_LOG2_INDEX_BYTES = 32;

    private SysModules() {}

    static boolean anyHas(AsyncContext c, TypeFacts types, List<Long> interpreters, String module)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        for (long interp : interpreters) {
            long modules = c.reader().readLong(interp + c.offsets().interpreter().importsModules());
            if (modules != 0 && has(c, types, modules, module)) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(AsyncContext c, TypeFacts types, long dict, String module)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        DictKeysLayout layout = c.offsets().layout().dictKeys().orElseThrow();
        long keys = c.reader().readLong(dict + c.offsets().dict().maKeys());
        if (!AsyncContext.plausiblePointer(keys)) {
            throw new InconsistentGraph("sys.modules at 0x%x has a bad keys pointer 0x%x".formatted(dict, keys));
        }
        byte[] head = new byte[layout.indices()];
        c.reader().read(keys, head, 0, head.length);
        int log2IndexBytes = head[layout.log2IndexBytes()] & 0xFF;
        int kind = head[layout.kind()] & 0xFF;
        long count = Bytes.getLong(head, layout.entryCount());
        if (log2IndexBytes > MAX_LOG2_INDEX_BYTES || count < 0 || count > MAX_ENTRIES) {
            throw new InconsistentGraph("sys.modules at 0x%x has a malformed keys object".formatted(dict));
        }
        int entrySize = layout.entrySize(kind);
        byte[] entries = new byte[(int) count * entrySize];
        c.reader().read(keys + layout.indices() + (1L << log2IndexBytes), entries, 0, entries.length);
        for (int at = layout.keyInEntry(kind); at < entries.length; at += entrySize) {
            long key = Bytes.getLong(entries, at);
            if (AsyncContext.plausiblePointer(key)
                    && (types.flags(types.typeOf(key)) & TypeFacts.UNICODE_SUBCLASS) != 0
                    && module.equals(c.objects().readString(key))) {
                return true;
            }
        }
        return false;
    }
}
