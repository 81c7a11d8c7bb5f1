package dev.remora.domain.locals;

import dev.remora.domain.locals.ObjectMemory.BadObject;
import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.model.LocalVariable;
import dev.remora.domain.model.VariableKind;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.VariableLayout;
import dev.remora.domain.offsets.VariableLayout.CodeVariables;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a frame's variables: their names from its code object, their values from the frame's
 * {@code localsplus} slots, each value shown by {@link ValueFormatter}. Cells are shown by what they
 * hold. Nothing here runs code in the target, and nothing read from it is trusted unchecked.
 */
public final class FrameVariablesReader {

    /** More slots than any function has (CPython caps arguments, and locals live in a code object). */
    static final int MAX_SLOTS = 1 << 16;

    private final ObjectMemory memory;
    private final VariableLayout layout;
    private final long tagBits;
    private final ValueFormatter values;
    private final Map<Long, CodeVariableNames> names = new HashMap<>();

    public FrameVariablesReader(RemoteMemory memory, DebugOffsets offsets, VariableLayout layout) {
        this.memory = new ObjectMemory(memory);
        this.layout = layout;
        this.tagBits = offsets.layout().stackRefTagBits();
        this.values = new ValueFormatter(this.memory, offsets, layout);
    }

    /** The frame's variables; what could not be read is said, never thrown. */
    public FrameVariables read(long frameAddress, long codeAddress) {
        CodeVariableNames code;
        long[] slots;
        try {
            code = names(codeAddress);
            slots = code.slots() == 0 ? new long[0]
                    : memory.words(frameAddress + layout.frameLocalsPlus(), code.slots());
        } catch (MemoryAccessException | BadObject e) {
            return FrameVariables.unreadable("variables unreadable: " + ValueFormatter.unreadable(e));
        }
        List<LocalVariable> out = new ArrayList<>();
        boolean[] shownAsArgument = new boolean[code.slots()];
        for (int i = 0; i < code.slots(); i++) {
            if (code.hidden()[i] || shownAsArgument[i]) {
                continue;
            }
            long raw = slots[i];
            boolean cellSlot = code.holdsCell()[i];
            int cell = code.cellOfArgument()[i];
            if (unbound(raw) && cell >= 0) {
                // 3.10 moved this argument into a cell: show it here, as the argument it is.
                raw = slots[cell];
                cellSlot = true;
                shownAsArgument[cell] = true;
            }
            if (unbound(raw)) {
                continue; // unbound, as locals() leaves it out
            }
            variable(code.names().get(i), code.kinds().get(i), raw, untag(raw), cellSlot).ifPresent(out::add);
        }
        return new FrameVariables(out, Optional.empty());
    }

    private Optional<LocalVariable> variable(String name, VariableKind kind, long raw, long value, boolean cellSlot) {
        if (taggedInt(raw)) {
            // A tagged int (3.14+): the value is in the pointer's bits.
            return Optional.of(new LocalVariable(name, kind, "int", Long.toString(raw >> 2), 0));
        }
        long shown = value;
        try {
            shown = cellSlot ? values.derefCell(value) : value;
        } catch (MemoryAccessException | BadObject e) {
            return Optional.of(new LocalVariable(name, kind, "?", ValueFormatter.unreadable(e), value));
        }
        if (shown == 0) {
            return Optional.empty(); // an empty cell: not bound yet
        }
        ValueFormatter.Shown text = values.show(shown);
        return Optional.of(new LocalVariable(name, kind, text.type(), text.repr(), shown));
    }

    /** A tagged int (3.14+) keeps its value in the slot's bits: a tagged 0 untags to 0 but is bound. */
    private boolean taggedInt(long raw) {
        return tagBits != 0 && (raw & tagBits) == tagBits;
    }

    private boolean unbound(long raw) {
        return untag(raw) == 0 && !taggedInt(raw);
    }

    private long untag(long raw) {
        return raw & ~tagBits;
    }

    private CodeVariableNames names(long code) throws MemoryAccessException, BadObject {
        CodeVariableNames known = names.get(code);
        if (known == null) {
            known = layout.code().localsPlus().isPresent() ? localsPlus(code) : separate(code);
            names.put(code, known);
        }
        return known;
    }

    /** 3.11+: {@code co_localsplusnames} and {@code co_localspluskinds}. */
    private CodeVariableNames localsPlus(long code) throws MemoryAccessException, BadObject {
        VariableLayout.LocalsPlusNames at = layout.code().localsPlus().orElseThrow();
        List<String> slotNames = tupleOfNames(memory.word(code + at.names()));
        long kindsObject = memory.word(code + at.kinds());
        byte[] kinds = bytesObject(kindsObject, slotNames.size());
        int arguments = arguments(code, slotNames.size());
        List<VariableKind> slotKinds = new ArrayList<>();
        boolean[] hidden = new boolean[slotNames.size()];
        boolean[] holdsCell = new boolean[slotNames.size()];
        for (int i = 0; i < kinds.length; i++) {
            int k = kinds[i] & 0xff;
            hidden[i] = at.hiddenKind() != 0 && (k & at.hiddenKind()) != 0;
            holdsCell[i] = (k & (at.cellKind() | at.freeKind())) != 0;
            slotKinds.add(i < arguments ? VariableKind.ARGUMENT : (k & at.freeKind()) != 0 ? VariableKind.FREE
                    : (k & at.cellKind()) != 0 && (k & at.localKind()) == 0 ? VariableKind.CELL : VariableKind.LOCAL);
        }
        int[] noCells = new int[slotNames.size()];
        Arrays.fill(noCells, -1);
        return new CodeVariableNames(slotNames, slotKinds, hidden, noCells, holdsCell);
    }

    /** 3.10: {@code co_varnames}, then {@code co_cellvars}, then {@code co_freevars}. */
    private CodeVariableNames separate(long code) throws MemoryAccessException, BadObject {
        VariableLayout.SeparateNames at = layout.code().separate().orElseThrow();
        List<String> locals = tupleOfNames(memory.word(code + at.varnames()));
        List<String> cells = tupleOfNames(memory.word(code + at.cellvars()));
        List<String> frees = tupleOfNames(memory.word(code + at.freevars()));
        List<String> all = new ArrayList<>(locals);
        all.addAll(cells);
        all.addAll(frees);
        if (all.size() > MAX_SLOTS) {
            throw new BadObject("a code object of %d variables at 0x%x".formatted(all.size(), code));
        }
        int arguments = arguments(code, locals.size());
        List<VariableKind> kinds = new ArrayList<>();
        int[] cellOfArgument = new int[all.size()];
        Arrays.fill(cellOfArgument, -1);
        boolean[] holdsCell = new boolean[all.size()];
        for (int i = 0; i < all.size(); i++) {
            holdsCell[i] = i >= locals.size();
            kinds.add(i < arguments ? VariableKind.ARGUMENT : i < locals.size() ? VariableKind.LOCAL
                    : i < locals.size() + cells.size() ? VariableKind.CELL : VariableKind.FREE);
            if (i < arguments) {
                cellOfArgument[i] = cells.indexOf(locals.get(i)) < 0 ? -1 : locals.size() + cells.indexOf(locals.get(i));
            }
        }
        return new CodeVariableNames(all, kinds, new boolean[all.size()], cellOfArgument, holdsCell);
    }

    /** Parameters, {@code *args} and {@code **kwargs} included: the first slots. */
    private int arguments(long code, int slots) throws MemoryAccessException, BadObject {
        CodeVariables at = layout.code();
        int flags = memory.int32(code + at.flags());
        long count = (long) memory.int32(code + at.argcount()) + memory.int32(code + at.kwonlyargcount())
                + ((flags & at.varargsFlag()) != 0 ? 1 : 0) + ((flags & at.varkeywordsFlag()) != 0 ? 1 : 0);
        if (count < 0 || count > slots) {
            throw new BadObject("a code object of %d arguments and %d variables at 0x%x".formatted(count, slots, code));
        }
        return (int) count;
    }

    private List<String> tupleOfNames(long tuple) throws MemoryAccessException, BadObject {
        VariableLayout.Sequence at = layout.objects().tuple();
        long size = memory.word(tuple + at.size());
        if (size < 0 || size > MAX_SLOTS) {
            throw new BadObject("a tuple of %d names at 0x%x".formatted(size, tuple));
        }
        List<String> out = new ArrayList<>();
        for (long item : size == 0 ? new long[0] : memory.words(tuple + at.items(), (int) size)) {
            out.add(values.text(item));
        }
        return out;
    }

    private byte[] bytesObject(long address, int expected) throws MemoryAccessException, BadObject {
        DebugOffsets.Bytes at = values.bytesLayout();
        long size = memory.word(address + at.obSize());
        if (size != expected) {
            throw new BadObject("%d kinds for %d variables at 0x%x".formatted(size, expected, address));
        }
        return memory.bytes(address + at.obSval(), expected);
    }
}
