package dev.remora.domain.locals;

import dev.remora.domain.locals.ObjectMemory.BadObject;
import dev.remora.domain.offsets.DictKeysLayout;
import dev.remora.domain.offsets.SplitDictValues;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.List;

/**
 * The key and value pointers of a dict's live entries, in the order the dict iterates them: from a
 * keys object and, for a split dict (or an object's values kept apart from any dict), its values.
 * Every count read is bounded, and at most {@code maxSlots} entries are looked at.
 */
final class DictEntries {

    private static final int MAX_ENTRIES = 1 << 26;

    /** One live entry. */
    record Entry(long key, long value) {}

    private final ObjectMemory memory;
    private final DictKeysLayout layout;
    private final SplitDictValues split;

    DictEntries(ObjectMemory memory, DictKeysLayout layout, SplitDictValues split) {
        this.memory = memory;
        this.layout = layout;
        this.split = split;
    }

    /**
     * Up to {@code wanted} live entries among the first {@code maxSlots}.
     *
     * @param values the split values, 0 for a combined dict whose values sit in its entries
     */
    List<Entry> read(long keys, long values, int wanted, int maxSlots) throws MemoryAccessException, BadObject {
        long entryCount = memory.word(keys + layout.entryCount());
        long entries;
        int entrySize;
        int keyAt;
        if (layout.legacySize().isPresent()) {
            long dkSize = memory.word(keys + layout.legacySize().getAsInt());
            if (dkSize <= 0 || dkSize > MAX_ENTRIES || Long.bitCount(dkSize) != 1) {
                throw new BadObject("dict keys of size %d at 0x%x".formatted(dkSize, keys));
            }
            entries = keys + layout.indices() + DictKeysLayout.legacyIndexBytes(dkSize);
            entrySize = 24;
            keyAt = 8;
        } else {
            int log2IndexBytes = memory.u8(keys + layout.log2IndexBytes());
            int kind = memory.u8(keys + layout.kind());
            if (log2IndexBytes > 32) {
                throw new BadObject("dict keys with 2^%d index bytes at 0x%x".formatted(log2IndexBytes, keys));
            }
            entries = keys + layout.indices() + (1L << log2IndexBytes);
            entrySize = layout.entrySize(kind);
            keyAt = layout.keyInEntry(kind);
        }
        if (entryCount < 0 || entryCount > MAX_ENTRIES) {
            throw new BadObject("dict keys of %d entries at 0x%x".formatted(entryCount, keys));
        }
        int[] order = splitOrder(values, entryCount);
        int slots = order != null ? order.length : (int) Math.min(entryCount, maxSlots);
        List<Entry> out = new ArrayList<>();
        for (int s = 0; s < slots && out.size() < wanted; s++) {
            int i = order != null ? order[s] : s;
            long entry = entries + (long) i * entrySize;
            long key = memory.word(entry + keyAt);
            long value = values == 0 ? memory.word(entry + keyAt + 8) : memory.word(values + split.valuesOffset() + 8L * i);
            if (key != 0 && value != 0) {
                out.add(new Entry(key, value));
            }
        }
        return out;
    }

    /** 3.13+'s insertion order of a split dict's values; null for a combined dict or key order. */
    private int[] splitOrder(long values, long entryCount) throws MemoryAccessException, BadObject {
        if (values == 0 || !split.ordered()) {
            return null;
        }
        int capacity = memory.u8(values);
        int size = memory.u8(values + 1);
        if (size > capacity || size > entryCount) {
            throw new BadObject("split dict values of size %d, capacity %d at 0x%x".formatted(size, capacity, values));
        }
        byte[] order = memory.bytes(values + split.valuesOffset() + 8L * capacity, size);
        int[] out = new int[size];
        for (int j = 0; j < size; j++) {
            out[j] = order[j] & 0xff;
            if (out[j] >= entryCount) {
                throw new BadObject("split dict order names entry %d of %d".formatted(out[j], entryCount));
            }
        }
        return out;
    }
}
