package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.LongIntMap;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Code objects of the target by address. Entries stay valid until the interpreter's
 * {@code code_object_generation} changes (code objects were freed, addresses may be reused); in
 * versions without that counter every hit is checked against the target instead.
 */
final class CodeObjects implements CodeHolding {

    private static final int MAX_ENTRIES = 1 << 16;
    private static final String CODE_TYPE_NAME = "code";
    /** More code units than any real code object has: a larger count was read as garbage. */
    private static final long MAX_CODE_UNITS = 1 << 24;

    private final SnapshotReader reader;
    private final ObjectReader objects;
    private final DebugOffsets offsets;
    private final Map<Long, CodeObject> byAddress = new HashMap<>();
    /** The same entries by where their code units start, to find the code an instruction pointer is in. */
    private final TreeMap<Long, CodeObject> byCodeStart = new TreeMap<>();
    /** The same entries' frame slots, by address. */
    private final LongIntMap slotsByAddress = new LongIntMap(256);
    /** Type address -> whether it is the code type; lets garbage executables be rejected cheaply. */
    private final Map<Long, Boolean> codeTypes = new HashMap<>();
    private final byte[] codeBuffer;
    private final boolean hasGeneration;
    private long generation = Long.MIN_VALUE;
    private long epoch;
    private long hits;
    private long misses;

    CodeObjects(SnapshotReader reader, ObjectReader objects, DebugOffsets offsets) {
        this.reader = reader;
        this.objects = objects;
        this.offsets = offsets;
        this.codeBuffer = new byte[(int) offsets.code().size()];
        this.hasGeneration = offsets.interpreter().codeObjectGeneration().isPresent();
    }

    /** Drops every entry when the target's generation counter moved. */
    void observeGeneration(long current) {
        if (current != generation) {
            forgetAll();
            generation = current;
        }
    }

    /**
     * Counts the times every entry was dropped. Frames resolved before a drop may point at freed code
     * objects, so frame caches keep the epoch they resolved in and reuse only frames of the current one.
     */
    long epoch() {
        return epoch;
    }

    private void forgetAll() {
        byAddress.clear();
        byCodeStart.clear();
        slotsByAddress.clear();
        epoch++;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }

    /**
     * The data-stack slots a frame of the code at {@code address} takes: from the entry the walk just
     * resolved, without reading the target again (the count only judges where a frame ends); read
     * when not known yet.
     */
    int frameSlots(long address) throws MemoryAccessException, MalformedObjectException {
        CodeObject known = byAddress.get(address);
        return known != null ? known.frameSlots() : get(address).frameSlots();
    }

    /**
     * The data-stack slots a frame of the code at {@code address} takes, where an entry holds that code
     * and the version says (else 0), without reading the target: asked of every frame of every copied
     * walk, so kept by primitive key.
     */
    int knownFrameSlots(long address) {
        return Math.max(0, slotsByAddress.get(address));
    }

    CodeObject get(long address) throws MemoryAccessException, MalformedObjectException {
        CodeObject known = byAddress.get(address);
        if (known != null && (hasGeneration || stillThere(address, known))) {
            hits++;
            return known;
        }
        misses++;
        CodeObject decoded = decode(address);
        if (byAddress.size() >= MAX_ENTRIES) {
            forgetAll();
        }
        CodeObject replaced = byAddress.put(address, decoded);
        if (replaced != null) {
            byCodeStart.remove(replaced.codeStart());
        }
        byCodeStart.put(decoded.codeStart(), decoded);
        slotsByAddress.put(address, decoded.frameSlots());
        return decoded;
    }

    /**
     * The known code object whose code units hold {@code instrPtr}: a frame whose code reference was
     * cleared as it returned still points at its last instruction. Empty when no code met so far holds
     * it (none is read for it: an address inside some object says nothing of where the object starts).
     */
    Optional<CodeObject> holding(long instrPtr) {
        Map.Entry<Long, CodeObject> below = byCodeStart.floorEntry(instrPtr);
        return below != null && below.getValue().holdsInstruction(instrPtr) ? Optional.of(below.getValue()) : Optional.empty();
    }

    /** The address of the code object {@link #holding} {@code instrPtr}, or 0. */
    @Override
    public long addressHolding(long instrPtr) {
        return holding(instrPtr).map(CodeObject::address).orElse(0L);
    }

    /**
     * Without a generation counter a freed code object's address can be reused: check that the
     * address still holds the same name and line table pointers before trusting the entry.
     */
    private boolean stillThere(long address, CodeObject known) throws MemoryAccessException {
        return reader.readLong(address + offsets.code().qualname()) == known.qualnamePointer()
                && reader.readLong(address + offsets.code().linetable()) == known.lineTablePointer();
    }

    private CodeObject decode(long address) throws MemoryAccessException, MalformedObjectException {
        long type = reader.readLong(address + offsets.object().obType());
        if (!isCodeType(type)) {
            throw new MalformedObjectException("executable at 0x%x is not a code object".formatted(address));
        }
        DebugOffsets.Code code = offsets.code();
        reader.read(address, codeBuffer, 0, codeBuffer.length);
        long qualnamePointer = Bytes.getLong(codeBuffer, code.qualname());
        long lineTablePointer = Bytes.getLong(codeBuffer, code.linetable());
        String qualname = objects.readString(qualnamePointer);
        String filename = objects.readString(Bytes.getLong(codeBuffer, code.filename()));
        byte[] lineTable = objects.readBytes(lineTablePointer);
        int firstLineNo = Bytes.getInt(codeBuffer, code.firstLineNo());
        int frameSlots = code.frameSize().map(f -> Bytes.getInt(codeBuffer, f.nlocalsplus())
                + Bytes.getInt(codeBuffer, f.stacksize()) + f.specials()).orElse(0);
        long units = Bytes.getLong(codeBuffer, (int) offsets.bytes().obSize());
        long codeStart = address + code.codeAdaptive();
        // A count out of range leaves the code without units: no instruction pointer is then taken as its.
        long codeEnd = units > 0 && units <= MAX_CODE_UNITS ? codeStart + 2 * units : codeStart;
        return new CodeObject(qualname, filename, lineTable, offsets.layout().lineTable(), firstLineNo, frameSlots,
                address, codeStart, codeEnd, qualnamePointer, lineTablePointer);
    }

    private boolean isCodeType(long type) throws MemoryAccessException {
        Boolean known = codeTypes.get(type);
        if (known != null) {
            return known;
        }
        boolean isCode;
        try {
            long namePtr = reader.readLong(type + offsets.type().tpName());
            byte[] name = new byte[CODE_TYPE_NAME.length() + 1];
            reader.read(namePtr, name, 0, name.length);
            isCode = name[name.length - 1] == 0
                    && new String(name, 0, name.length - 1, StandardCharsets.US_ASCII).equals(CODE_TYPE_NAME);
        } catch (MemoryAccessException.Unmapped e) {
            isCode = false;
        }
        if (codeTypes.size() < 1024) {
            codeTypes.put(type, isCode);
        }
        return isCode;
    }
}
