package dev.remora.domain.locals;

import dev.remora.domain.locals.ObjectMemory.BadObject;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.InstanceDicts;
import dev.remora.domain.offsets.VariableLayout;
import dev.remora.domain.offsets.VariableLayout.InstanceFields;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The names of an interpreter's Python threads as its {@code threading} module knows them: the
 * module's {@code _active} dict maps each thread's ident (the {@code thread_id} of its thread state)
 * to its {@code Thread}, whose {@code _name} attribute is the name {@code threading} shows. Read from
 * memory alone, every count bounded; a thread that {@code threading} did not start or adopt has none.
 */
public final class ThreadNamesReader {

    /** Modules looked at to find {@code threading}: more than any real program imports. */
    static final int MAX_MODULES = 1 << 15;
    /** Globals of {@code threading} looked at to find {@code _active}. */
    static final int MAX_GLOBALS = 4096;
    static final int MAX_THREADS = 1 << 14;
    /** Attributes of a {@code Thread} looked at to find {@code _name}. */
    static final int MAX_ATTRIBUTES = 256;
    /** {@code PyModuleObject.md_dict} follows the object head, in every version. */
    static final long MODULE_DICT = 16;

    private final ObjectMemory memory;
    private final ValueFormatter values;
    private final VariableLayout.ObjectFields fields;
    private final Optional<InstanceFields> instances;
    private final Optional<DictEntries> entries;
    private final long modulesField;
    private final long obType;
    /** Each interpreter's {@code threading._active}, once found: checked, not searched, on later reads. */
    private final Map<Long, Long> activeByInterpreter = new HashMap<>();

    public ThreadNamesReader(RemoteMemory memory, DebugOffsets offsets, VariableLayout layout) {
        this.memory = new ObjectMemory(memory);
        this.values = new ValueFormatter(this.memory, offsets, layout);
        this.fields = layout.objects();
        this.instances = fields.instances();
        this.entries = offsets.layout().dictKeys()
                .map(keys -> new DictEntries(this.memory, keys, offsets.layout().splitDictValues()));
        this.modulesField = offsets.interpreter().importsModules();
        this.obType = offsets.object().obType();
    }

    /** Why an interpreter's thread names could not be read. */
    public static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Each named thread's name by its ident; empty when the interpreter has not imported
     * {@code threading}.
     *
     * @throws Unreadable when the layout lacks what it takes, or what memory holds is no such registry
     */
    public Map<Long, String> read(long interpreter) throws Unreadable {
        if (entries.isEmpty() || instances.isEmpty()) {
            throw new Unreadable("this version's layout does not say where instances keep their attributes");
        }
        try {
            Long known = activeByInterpreter.get(interpreter);
            long active = known != null && isDict(known) ? known : findActive(interpreter);
            if (active == 0) {
                return Map.of();
            }
            activeByInterpreter.put(interpreter, active);
            return namesIn(active);
        } catch (MemoryAccessException | BadObject e) {
            activeByInterpreter.remove(interpreter);
            throw new Unreadable("thread names unreadable: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    /** The names of the threads in {@code threading._active}, by ident. */
    Map<Long, String> namesIn(long active) throws MemoryAccessException, BadObject, Unreadable {
        Map<Long, String> names = new HashMap<>();
        for (DictEntries.Entry entry : dictEntries(active, MAX_THREADS)) {
            if (values.typeOf(entry.key()).builtin() != PyType.Builtin.INT) {
                throw new Unreadable("threading._active has a key that is no int");
            }
            long name = attribute(entry.value(), "_name");
            if (name != 0 && values.typeOf(name).builtin() == PyType.Builtin.STR) {
                names.put(values.integer(entry.key()).longValue(), values.text(name));
            }
        }
        return names;
    }

    /** {@code sys.modules["threading"]._active}, or 0 when threading is not imported. */
    private long findActive(long interpreter) throws MemoryAccessException, BadObject, Unreadable {
        long modules = memory.word(interpreter + modulesField);
        if (modules == 0) {
            return 0;
        }
        long threading = lookup(modules, "threading", MAX_MODULES);
        if (threading == 0) {
            return 0;
        }
        long active = lookup(memory.word(threading + MODULE_DICT), "_active", MAX_GLOBALS);
        if (active == 0 || !isDict(active)) {
            throw new Unreadable("the threading module has no _active dict");
        }
        return active;
    }

    private boolean isDict(long address) throws MemoryAccessException, BadObject {
        return values.typeOf(address).builtin() == PyType.Builtin.DICT;
    }

    /** The value of a dict's str key {@code name}, or 0. */
    private long lookup(long dict, String name, int maxSlots) throws MemoryAccessException, BadObject, Unreadable {
        if (!isDict(dict)) {
            throw new Unreadable("a dict expected at 0x%x is a %s".formatted(dict, values.typeOf(dict).name()));
        }
        return find(dictEntries(dict, maxSlots), name);
    }

    private List<DictEntries.Entry> dictEntries(long dict, int maxSlots) throws MemoryAccessException, BadObject {
        return entries.orElseThrow().read(memory.word(dict + fields.dict().keys()), memory.word(dict + fields.dict().values()),
                maxSlots, maxSlots);
    }

    private long find(List<DictEntries.Entry> found, String name) throws MemoryAccessException, BadObject {
        for (DictEntries.Entry entry : found) {
            if (values.isText(entry.key(), name)) {
                return entry.value();
            }
        }
        return 0;
    }

    /** An instance's attribute {@code name} from its dict or its values; 0 when it has none. */
    long attribute(long object, String name) throws MemoryAccessException, BadObject, Unreadable {
        InstanceFields at = instances.orElseThrow();
        long type = memory.word(object + obType);
        long flags = memory.word(type + at.flags());
        if (at.where() == InstanceDicts.AT_DICT_OFFSET || (flags & InstanceDicts.MANAGED_DICT) == 0) {
            long offset = memory.word(type + at.dictOffset());
            if (offset <= 0 || offset > ObjectMemory.MAX_READ) {
                return 0; // no dict, or one at the end of a variable-size object: not a Thread
            }
            long dict = memory.word(object + offset);
            return dict == 0 ? 0 : lookup(dict, name, MAX_ATTRIBUTES);
        }
        long before = memory.word(object + InstanceDicts.MANAGED_DICT_OFFSET);
        long split = switch (at.where()) {
            case DICT_OR_VALUES_BEFORE -> before != 0 ? 0 : memory.word(object + InstanceDicts.VALUES_POINTER_OFFSET);
            case TAGGED_BEFORE -> (before & 1) != 0 ? before + 1 : 0;
            case INLINE_VALUES -> before == 0 && (flags & InstanceDicts.INLINE_VALUES_FLAG) != 0
                    ? inlineValues(object, type, at) : 0;
            case AT_DICT_OFFSET -> 0;
        };
        if (split != 0) {
            long keys = memory.word(type + at.cachedKeys());
            return keys == 0 ? 0 : find(entries.orElseThrow().read(keys, split, MAX_ATTRIBUTES, MAX_ATTRIBUTES), name);
        }
        return before == 0 || (before & 1) != 0 ? 0 : lookup(before, name, MAX_ATTRIBUTES);
    }

    /** 3.13+'s values after the object's basic size, or 0 once a dict took them over. */
    private long inlineValues(long object, long type, InstanceFields at) throws MemoryAccessException, BadObject {
        long size = memory.word(type + at.basicSize());
        if (size <= 0 || size > ObjectMemory.MAX_READ) {
            throw new BadObject("a type of basic size %d at 0x%x".formatted(size, type));
        }
        long inline = object + size;
        return memory.u8(inline + InstanceDicts.VALID_BYTE) != 0 ? inline : 0;
    }
}
