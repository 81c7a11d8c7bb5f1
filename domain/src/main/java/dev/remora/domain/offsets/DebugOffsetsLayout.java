package dev.remora.domain.offsets;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The order of the fields of {@code _Py_DebugOffsets} in one CPython minor version.
 *
 * <p>The struct carries no layout version or total size, so the reader picks the layout from the
 * target's {@code version}. Every field after the 24-byte head is a {@code uint64_t}; between
 * versions fields were only inserted, which is how the later layouts are written down here.
 */
public enum DebugOffsetsLayout {
    V3_13(3, 13, fields313()),
    V3_14(3, 14, fields314()),
    V3_15(3, 15, fields315());

    /** cookie[8], version, free_threaded. */
    public static final int HEAD_SIZE = 24;

    private final int major;
    private final int minor;
    private final List<String> fields;
    private final Map<String, Integer> positions;

    DebugOffsetsLayout(int major, int minor, List<String> fields) {
        this.major = major;
        this.minor = minor;
        this.fields = List.copyOf(fields);
        this.positions = IntStream.range(0, fields.size()).boxed()
                .collect(Collectors.toUnmodifiableMap(fields::get, Function.identity()));
    }

    public static Optional<DebugOffsetsLayout> forVersion(PythonVersion version) {
        for (DebugOffsetsLayout layout : values()) {
            if (layout.major == version.major() && layout.minor == version.minor()) {
                return Optional.of(layout);
            }
        }
        return Optional.empty();
    }

    /** The oldest supported version whose layout has {@code field}, as "3.14". */
    public static Optional<String> firstWith(String field) {
        for (DebugOffsetsLayout layout : values()) {
            if (layout.positions.containsKey(field)) {
                return Optional.of(layout.major + "." + layout.minor);
            }
        }
        return Optional.empty();
    }

    /** Size in bytes of the whole struct in this layout. */
    public int totalSize() {
        return HEAD_SIZE + 8 * fields.size();
    }

    /** Byte position of a field inside the struct, if this version has it. */
    public Optional<Integer> bytePosition(String field) {
        Integer index = positions.get(field);
        return index == null ? Optional.empty() : Optional.of(HEAD_SIZE + 8 * index);
    }

    private static List<String> fields313() {
        return List.of(
                "runtime_state.size", "runtime_state.finalizing", "runtime_state.interpreters_head",
                "interpreter_state.size", "interpreter_state.id", "interpreter_state.next",
                "interpreter_state.threads_head", "interpreter_state.gc", "interpreter_state.imports_modules",
                "interpreter_state.sysdict", "interpreter_state.builtins", "interpreter_state.ceval_gil",
                "interpreter_state.gil_runtime_state", "interpreter_state.gil_runtime_state_enabled",
                "interpreter_state.gil_runtime_state_locked", "interpreter_state.gil_runtime_state_holder",
                "thread_state.size", "thread_state.prev", "thread_state.next", "thread_state.interp",
                "thread_state.current_frame", "thread_state.thread_id", "thread_state.native_thread_id",
                "thread_state.datastack_chunk", "thread_state.status",
                "interpreter_frame.size", "interpreter_frame.previous", "interpreter_frame.executable",
                "interpreter_frame.instr_ptr", "interpreter_frame.localsplus", "interpreter_frame.owner",
                "code_object.size", "code_object.filename", "code_object.name", "code_object.qualname",
                "code_object.linetable", "code_object.firstlineno", "code_object.argcount",
                "code_object.localsplusnames", "code_object.localspluskinds", "code_object.co_code_adaptive",
                "pyobject.size", "pyobject.ob_type",
                "type_object.size", "type_object.tp_name", "type_object.tp_repr", "type_object.tp_flags",
                "tuple_object.size", "tuple_object.ob_item", "tuple_object.ob_size",
                "list_object.size", "list_object.ob_item", "list_object.ob_size",
                "dict_object.size", "dict_object.ma_keys", "dict_object.ma_values",
                "float_object.size", "float_object.ob_fval",
                "long_object.size", "long_object.lv_tag", "long_object.ob_digit",
                "bytes_object.size", "bytes_object.ob_size", "bytes_object.ob_sval",
                "unicode_object.size", "unicode_object.state", "unicode_object.length",
                "unicode_object.asciiobject_size",
                "gc.size", "gc.collecting");
    }

    private static List<String> fields314() {
        List<String> f = new ArrayList<>(fields313());
        insertAfter(f, "interpreter_state.threads_head", "interpreter_state.threads_main");
        insertAfter(f, "interpreter_state.gil_runtime_state_holder",
                "interpreter_state.code_object_generation", "interpreter_state.tlbc_generation");
        insertAfter(f, "interpreter_frame.owner", "interpreter_frame.stackpointer", "interpreter_frame.tlbc_index");
        insertAfter(f, "code_object.co_code_adaptive", "code_object.co_tlbc");
        insertAfter(f, "list_object.ob_size",
                "set_object.size", "set_object.used", "set_object.table", "set_object.mask");
        f.addAll(List.of("gen_object.size", "gen_object.gi_name", "gen_object.gi_iframe",
                "gen_object.gi_frame_state", "llist_node.next", "llist_node.prev",
                "debugger_support.eval_breaker", "debugger_support.remote_debugger_support",
                "debugger_support.remote_debugging_enabled", "debugger_support.debugger_pending_call",
                "debugger_support.debugger_script_path", "debugger_support.debugger_script_path_size"));
        return f;
    }

    private static List<String> fields315() {
        List<String> f = new ArrayList<>(fields314());
        insertAfter(f, "thread_state.current_frame", "thread_state.base_frame",
                "thread_state.last_profiled_frame", "thread_state.last_profiled_frame_seq");
        insertAfter(f, "thread_state.status", "thread_state.holds_gil", "thread_state.gil_requested",
                "thread_state.current_exception", "thread_state.exc_state", "err_stackitem.exc_value");
        insertAfter(f, "type_object.tp_flags", "type_object.tp_basicsize", "type_object.tp_dictoffset",
                "heap_type_object.size", "heap_type_object.ht_cached_keys");
        insertAfter(f, "unicode_object.asciiobject_size", "unicode_object.compactunicodeobject_size");
        insertAfter(f, "gc.collecting", "gc.frame", "gc.generation_stats_size", "gc.generation_stats");
        return f;
    }

    private static void insertAfter(List<String> fields, String anchor, String... inserted) {
        int at = fields.indexOf(anchor);
        if (at < 0) {
            throw new IllegalStateException("no field " + anchor);
        }
        fields.addAll(at + 1, List.of(inserted));
    }
}
