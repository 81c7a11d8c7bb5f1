package dev.remora.domain.locals;

import dev.remora.domain.locals.ObjectMemory.BadObject;
import dev.remora.domain.objects.CompactStr;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.VariableLayout;
import dev.remora.domain.offsets.VariableLayout.ObjectFields;
import dev.remora.ports.MemoryAccessException;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Shows a value of the target as {@code repr()} would, from memory alone: exactly for None, bool,
 * int, float, and str and bytes up to {@link #MAX_CHARS}; containers with their first
 * {@link #MAX_ITEMS} items, {@link #MAX_DEPTH} levels deep; anything else as
 * {@code <type object at 0x...>}. Every size read is bounded and every value costs from a budget,
 * so garbage memory ends in {@code <unreadable: why>}, never in a long read or a loop.
 */
final class ValueFormatter {

    static final int MAX_CHARS = 200;
    static final int MAX_ITEMS = 10;
    static final int MAX_DEPTH = 3;
    /** Objects one value may read, its items' items included. */
    static final int MAX_OBJECTS = 256;
    /** 30-bit digits of an int shown in full: about 4000 decimal digits, under CPython's own limit of 4300. */
    static final int MAX_INT_DIGITS = 440;
    /** Slots of a dict's entries or a set's table looked at to find the items shown. */
    private static final int MAX_SLOTS_SCANNED = 4096;
    /**
     * Reads one value may take at most: each object of its budget reads a few words of its own and
     * two per slot of a dict or set it scans.
     */
    static final long MAX_READS_PER_VALUE = (long) MAX_OBJECTS * (2L * MAX_SLOTS_SCANNED + 64);
    private static final int MAX_ENTRIES = 1 << 26;
    private static final int MAX_TYPE_NAME = 256;
    private static final int MAX_NAME_CHARS = 4096;

    private final ObjectMemory memory;
    private final DebugOffsets offsets;
    private final ObjectFields fields;
    /** Absent where the version's dict keys layout is unknown. */
    private final DictEntries entries;
    private final Map<Long, PyType> types = new HashMap<>();
    private int budget;

    ValueFormatter(ObjectMemory memory, DebugOffsets offsets, VariableLayout layout) {
        this.memory = memory;
        this.offsets = offsets;
        this.fields = layout.objects();
        this.entries = offsets.layout().dictKeys()
                .map(keys -> new DictEntries(memory, keys, offsets.layout().splitDictValues())).orElse(null);
    }

    /** A value's type name and repr; never fails. */
    Shown show(long address) {
        budget = MAX_OBJECTS;
        PyType type;
        try {
            type = typeOf(address);
        } catch (MemoryAccessException | BadObject e) {
            return new Shown("?", unreadable(e));
        }
        return new Shown(type.name(), repr(address, type, 0, new HashSet<>()));
    }

    record Shown(String type, String repr) {}

    /** The value a cell holds, or 0 for an empty cell; {@code address} itself when it is no cell. */
    long derefCell(long address) throws MemoryAccessException, BadObject {
        return typeOf(address).builtin() == PyType.Builtin.CELL ? memory.word(address + fields.cellRef()) : address;
    }

    DebugOffsets.Bytes bytesLayout() {
        return offsets.bytes();
    }

    /** A str's text, for names. */
    String text(long address) throws MemoryAccessException, BadObject {
        int[] codePoints = codePoints(address, MAX_NAME_CHARS + 1);
        if (codePoints.length > MAX_NAME_CHARS) {
            throw new BadObject("a name of more than %d characters at 0x%x".formatted(MAX_NAME_CHARS, address));
        }
        return new String(codePoints, 0, codePoints.length);
    }

    /** Whether {@code address} is a str holding exactly {@code expected}. */
    boolean isText(long address, String expected) throws MemoryAccessException, BadObject {
        return typeOf(address).builtin() == PyType.Builtin.STR
                && memory.word(address + offsets.unicode().length()) == expected.length() && expected.equals(text(address));
    }

    PyType typeOf(long address) throws MemoryAccessException, BadObject {
        if (address == 0) {
            throw new BadObject("NULL object");
        }
        long type = memory.word(address + offsets.object().obType());
        PyType known = types.get(type);
        if (known != null) {
            return known;
        }
        if (type == 0) {
            throw new BadObject("object at 0x%x has no type".formatted(address));
        }
        String name = memory.cString(memory.word(type + offsets.type().tpName()), MAX_TYPE_NAME);
        if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new BadObject("type at 0x%x has no name".formatted(type));
        }
        PyType parsed = PyType.of(name, memory.word(type + offsets.type().tpFlags()));
        types.put(type, parsed);
        return parsed;
    }

    private String repr(long address, PyType type, int depth, Set<Long> path) {
        if (--budget < 0) {
            return "...";
        }
        try {
            return switch (type.builtin()) {
                case NONE -> "None";
                case ELLIPSIS -> "Ellipsis";
                case NOT_IMPLEMENTED -> "NotImplemented";
                case BOOL -> integer(address).signum() != 0 ? "True" : "False";
                case INT -> intRepr(address);
                case FLOAT -> PythonRepr.ofFloat(Double.longBitsToDouble(memory.word(address + fields.floatValue())));
                case STR -> PythonRepr.ofStr(codePoints(address, MAX_CHARS + 1), MAX_CHARS);
                case BYTES -> bytesRepr(address);
                case TUPLE, LIST, DICT, SET, FROZENSET -> container(address, type, depth, path);
                case CELL, OTHER -> other(address, type);
            };
        } catch (MemoryAccessException | BadObject e) {
            return unreadable(e);
        }
    }

    private static String other(long address, PyType type) {
        return "<%s object at 0x%x>".formatted(type.name(), address);
    }

    private String item(long address, int depth, Set<Long> path) {
        try {
            return repr(address, typeOf(address), depth, path);
        } catch (MemoryAccessException | BadObject e) {
            return unreadable(e);
        }
    }

    private String container(long address, PyType type, int depth, Set<Long> path) throws MemoryAccessException, BadObject {
        PyType.Builtin kind = type.builtin();
        String open = kind == PyType.Builtin.TUPLE ? "(" : kind == PyType.Builtin.LIST ? "[" : "{";
        String close = kind == PyType.Builtin.TUPLE ? ")" : kind == PyType.Builtin.LIST ? "]" : "}";
        if (path.contains(address) || depth >= MAX_DEPTH) {
            // A container met again inside itself, as repr() shows it; one nested too deep, with its size.
            long size = path.contains(address) ? -1 : size(address, kind);
            String cut = open + (size < 0 ? "..." : "... %d item%s".formatted(size, size == 1 ? "" : "s")) + close;
            return kind == PyType.Builtin.FROZENSET ? "frozenset(" + cut + ")" : cut;
        }
        path.add(address);
        try {
            Items items = switch (kind) {
                case TUPLE -> sequence(address, fields.tuple(), depth, path);
                case LIST -> sequence(address, fields.list(), depth, path);
                case DICT -> dict(address, depth, path);
                default -> set(address, depth, path);
            };
            if (items.total() == 0) {
                return switch (kind) {
                    case SET -> "set()";
                    case FROZENSET -> "frozenset()";
                    default -> open + close;
                };
            }
            StringBuilder out = new StringBuilder(open);
            out.append(String.join(", ", items.shown()));
            if (items.more()) {
                out.append(items.shown().isEmpty() ? "" : ", ").append("... %d more".formatted(items.total() - items.shown().size()));
            } else if (kind == PyType.Builtin.TUPLE && items.shown().size() == 1) {
                out.append(',');
            }
            out.append(close);
            return kind == PyType.Builtin.FROZENSET ? "frozenset(" + out + ")" : out.toString();
        } finally {
            path.remove(address);
        }
    }

    /** The reprs of a container's first items, and how many it holds. */
    private record Items(List<String> shown, long total) {
        boolean more() {
            return total > shown.size();
        }
    }

    /** How many items a container holds, as its size field says (checked as the items are read). */
    private long size(long address, PyType.Builtin kind) throws MemoryAccessException, BadObject {
        long size = switch (kind) {
            case TUPLE -> memory.word(address + fields.tuple().size());
            case LIST -> memory.word(address + fields.list().size());
            case DICT -> memory.word(address + fields.dict().used());
            default -> memory.word(address + fields.set().orElseThrow(() -> new BadObject("this version's set layout is unknown"))
                    .used());
        };
        if (size < 0 || size > MAX_ENTRIES) {
            throw new BadObject("a container of %d items at 0x%x".formatted(size, address));
        }
        return size;
    }

    private Items sequence(long address, VariableLayout.Sequence layout, int depth, Set<Long> path)
            throws MemoryAccessException, BadObject {
        long size = memory.word(address + layout.size());
        if (size < 0 || size > MAX_ENTRIES) {
            throw new BadObject("a sequence of %d items at 0x%x".formatted(size, address));
        }
        int count = (int) Math.min(size, MAX_ITEMS);
        long items = layout.itemsInline() ? address + layout.items() : memory.word(address + layout.items());
        long[] pointers = count == 0 ? new long[0] : memory.words(items, count);
        List<String> shown = new ArrayList<>();
        for (long item : pointers) {
            shown.add(item == 0 ? "<NULL>" : item(item, depth + 1, path));
        }
        return new Items(shown, size);
    }

    private Items dict(long address, int depth, Set<Long> path) throws MemoryAccessException, BadObject {
        long used = memory.word(address + fields.dict().used());
        if (used < 0 || used > MAX_ENTRIES) {
            throw new BadObject("a dict of %d items at 0x%x".formatted(used, address));
        }
        if (used == 0) {
            return new Items(List.of(), 0);
        }
        if (entries == null) {
            return new Items(List.of(), used);
        }
        long keys = memory.word(address + fields.dict().keys());
        long values = memory.word(address + fields.dict().values());
        List<String> shown = new ArrayList<>();
        for (DictEntries.Entry entry : entries.read(keys, values, MAX_ITEMS, MAX_SLOTS_SCANNED)) {
            shown.add(item(entry.key(), depth + 1, path) + ": " + item(entry.value(), depth + 1, path));
        }
        return new Items(shown, Math.max(used, shown.size()));
    }

    private Items set(long address, int depth, Set<Long> path) throws MemoryAccessException, BadObject {
        Optional<VariableLayout.SetFields> layout = fields.set();
        if (layout.isEmpty()) {
            throw new BadObject("this version's set layout is unknown");
        }
        long used = memory.word(address + layout.get().used());
        long mask = memory.word(address + layout.get().mask());
        if (used < 0 || used > MAX_ENTRIES || mask < 0 || mask >= MAX_ENTRIES || Long.bitCount(mask + 1) != 1) {
            throw new BadObject("a set of %d items, mask %d at 0x%x".formatted(used, mask, address));
        }
        long table = memory.word(address + layout.get().table());
        int slots = (int) Math.min(mask + 1, MAX_SLOTS_SCANNED);
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < slots && shown.size() < MAX_ITEMS; i++) {
            long key = memory.word(table + 16L * i);
            long hash = memory.word(table + 16L * i + 8);
            // A removed key leaves the dummy, whose hash is -1: no real hash is.
            if (key == 0 || hash == -1) {
                continue;
            }
            shown.add(item(key, depth + 1, path));
        }
        return new Items(shown, Math.max(used, shown.size()));
    }

    private String intRepr(long address) throws MemoryAccessException, BadObject {
        return PythonRepr.ofInt(integer(address));
    }

    BigInteger integer(long address) throws MemoryAccessException, BadObject {
        VariableLayout.IntFields layout = fields.ints();
        long head = memory.word(address + layout.sizeOrTag());
        long digits;
        int sign;
        if (layout.tagged()) {
            digits = head >>> 3;
            int bits = (int) (head & 3);
            sign = bits == 0 ? 1 : bits == 1 ? 0 : -1;
            if (bits == 3 || (sign == 0) != (digits == 0)) {
                throw new BadObject("int with lv_tag 0x%x at 0x%x".formatted(head, address));
            }
        } else {
            digits = head == Long.MIN_VALUE ? -1 : Math.abs(head);
            sign = Long.signum(head);
        }
        if (digits < 0) {
            throw new BadObject("int with ob_size 0x%x at 0x%x".formatted(head, address));
        }
        if (digits > MAX_INT_DIGITS) {
            throw new BadObject("an int of %d 30-bit digits (about %d decimal digits), too long to show"
                    .formatted(digits, digits * 30 * 3 / 10));
        }
        byte[] raw = memory.bytes(address + layout.digits(), (int) digits * 4);
        BigInteger value = BigInteger.ZERO;
        for (int i = (int) digits - 1; i >= 0; i--) {
            int digit = (raw[4 * i] & 0xff) | (raw[4 * i + 1] & 0xff) << 8 | (raw[4 * i + 2] & 0xff) << 16
                    | (raw[4 * i + 3] & 0xff) << 24;
            if (digit >>> 30 != 0) {
                throw new BadObject("int digit 0x%x at 0x%x".formatted(digit, address));
            }
            value = value.shiftLeft(30).or(BigInteger.valueOf(digit));
        }
        return sign < 0 ? value.negate() : value;
    }

    private String bytesRepr(long address) throws MemoryAccessException, BadObject {
        long size = memory.word(address + offsets.bytes().obSize());
        if (size < 0 || size > MAX_ENTRIES) {
            throw new BadObject("bytes of size %d at 0x%x".formatted(size, address));
        }
        // One byte more than shown tells the repr it was cut.
        byte[] data = memory.bytes(address + offsets.bytes().obSval(), (int) Math.min(size, MAX_CHARS + 1));
        return PythonRepr.ofBytes(data, MAX_CHARS);
    }

    /**
     * A compact str's first {@code max} code points (all of them when it is shorter): asked for one
     * more than a repr shows, they tell it whether to cut.
     */
    private int[] codePoints(long address, int max) throws MemoryAccessException, BadObject {
        DebugOffsets.Unicode unicode = offsets.unicode();
        CompactStr str;
        try {
            str = CompactStr.of(address, memory.int32(address + unicode.state()), memory.word(address + unicode.length()),
                    MAX_ENTRIES, unicode);
        } catch (MalformedObjectException e) {
            throw new BadObject(e.getMessage());
        }
        int kind = str.kind();
        int count = (int) Math.min(str.length(), max);
        byte[] raw = memory.bytes(str.data(), count * kind);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = switch (kind) {
                case 1 -> raw[i] & 0xff;
                case 2 -> (raw[2 * i] & 0xff) | (raw[2 * i + 1] & 0xff) << 8;
                default -> (raw[4 * i] & 0xff) | (raw[4 * i + 1] & 0xff) << 8 | (raw[4 * i + 2] & 0xff) << 16
                        | (raw[4 * i + 3] & 0xff) << 24;
            };
            if (out[i] < 0 || out[i] > Character.MAX_CODE_POINT) {
                throw new BadObject("code point 0x%x in the str at 0x%x".formatted(out[i], address));
            }
        }
        return out;
    }

    static String unreadable(Exception e) {
        String why = e instanceof MemoryAccessException m ? m.getMessage() : e.getMessage();
        return "<unreadable: " + (why == null ? e.getClass().getSimpleName() : why) + ">";
    }
}
