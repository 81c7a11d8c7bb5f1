package dev.remora.domain.offsets;

import dev.remora.domain.InspectionException;
import dev.remora.domain.InspectionException.CorruptTarget;
import dev.remora.domain.InspectionException.UnsupportedVersion;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.LongStream;

/** Turns the raw bytes of a target's {@code _Py_DebugOffsets} into validated {@link DebugOffsets}. */
public final class DebugOffsetsDecoder {

    public static final byte[] COOKIE = "xdebugpy".getBytes(StandardCharsets.US_ASCII);
    /** Enough for the largest supported layout; read this much, then decode what the version needs. */
    public static final int MAX_STRUCT_SIZE = 1024;

    private static final long MIB = 1 << 20;

    private DebugOffsetsDecoder() {}

    public static boolean hasCookie(byte[] raw) {
        return raw.length >= COOKIE.length && Arrays.equals(raw, 0, COOKIE.length, COOKIE, 0, COOKIE.length);
    }

    /** The version field, without validating anything else. */
    public static PythonVersion version(byte[] raw) {
        return PythonVersion.fromHex(ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getLong(8));
    }

    public static DebugOffsets decode(byte[] raw) throws InspectionException {
        if (!hasCookie(raw)) {
            throw new CorruptTarget("the CPython runtime has no debug cookie");
        }
        ByteBuffer head = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        long versionHex = head.getLong(8);
        if (versionHex == 0) {
            throw new UnsupportedVersion("the target's CPython reports no version in its debug offsets");
        }
        PythonVersion version = PythonVersion.fromHex(versionHex);
        VersionLayout layout = VersionLayout.forVersion(version).orElseThrow(() -> unsupported(version));
        if (layout.exported().isEmpty()) {
            throw new CorruptTarget("CPython %s exports no debug offsets, yet the runtime has the cookie".formatted(version));
        }
        if (head.getLong(16) != 0) {
            throw new UnsupportedVersion("CPython %s free-threaded builds are not supported yet".formatted(version));
        }
        DebugOffsetsLayout exported = layout.exported().get();
        if (raw.length < exported.totalSize()) {
            throw new CorruptTarget("debug offsets: read %d bytes, CPython %s needs %d"
                    .formatted(raw.length, version, exported.totalSize()));
        }
        return build(version, layout, new StructFields(new ExportedFields(exported, raw, layout.unexported())));
    }

    /**
     * The offsets of a version that exports none (3.10, 3.11, 3.12), from the table generated from its
     * headers. The caller checks them against the live target before trusting them.
     *
     * @throws UnsupportedVersion when no table serves {@code version}
     */
    public static DebugOffsets fromHeaders(PythonVersion version) throws InspectionException {
        VersionLayout layout = VersionLayout.forVersion(version).orElseThrow(() -> unsupported(version));
        if (layout.headers().isEmpty()) {
            throw new CorruptTarget("CPython %s exports its debug offsets, yet the runtime has no cookie".formatted(version));
        }
        return build(version, layout, new StructFields(layout.headers().get()));
    }

    private static UnsupportedVersion unsupported(PythonVersion version) {
        return new UnsupportedVersion("CPython %s is not supported (supported: %s)"
                .formatted(version, VersionLayout.supportedVersions()));
    }

    private static DebugOffsets build(PythonVersion version, VersionLayout layout, StructFields f) throws CorruptTarget {
        DebugOffsets.Frame frame = frame(f);
        return new DebugOffsets(version, layout, runtime(f), interpreter(f), thread(f), frame, code(f),
                new DebugOffsets.PyObject(f.field("pyobject.ob_type", f.size("pyobject", 4096), 8)),
                type(f), bytes(f), unicode(f, layout), longObject(f), dict(f), generator(f, frame),
                llistNode(f), set(f), variables(f, layout));
    }

    /** Empty where the layout lacks any of it: dumps then show no variables, and nothing else changes. */
    private static Optional<VariableLayout> variables(StructFields f, VersionLayout layout) throws CorruptTarget {
        String[] needed = {"code_object.argcount", "code_object.kwonlyargcount", "code_object.flags",
                "tuple_object.ob_item", "list_object.ob_item", "float_object.ob_fval", "dict_object.ma_used",
                "dict_object.ma_values", "cell_object.ob_ref", "long_object.ob_digit"};
        for (String field : needed) {
            if (!f.has(field)) {
                return Optional.empty();
            }
        }
        long code = f.size("code_object", 64 * 1024);
        Optional<VariableLayout.LocalsPlusNames> localsPlus = Optional.empty();
        Optional<VariableLayout.SeparateNames> separate = Optional.empty();
        long frameLocalsPlus;
        if (f.has("code_object.localsplusnames")) {
            localsPlus = Optional.of(new VariableLayout.LocalsPlusNames(f.field("code_object.localsplusnames", code, 8),
                    f.field("code_object.localspluskinds", code, 8), kindBit(f, "local_kind.local"),
                    kindBit(f, "local_kind.cell"), kindBit(f, "local_kind.free"),
                    f.has("local_kind.hidden") ? kindBit(f, "local_kind.hidden") : 0));
            frameLocalsPlus = f.field("interpreter_frame.localsplus", f.size("interpreter_frame", 4096), 8);
        } else {
            separate = Optional.of(new VariableLayout.SeparateNames(f.field("code_object.varnames", code, 8),
                    f.field("code_object.cellvars", code, 8), f.field("code_object.freevars", code, 8)));
            // f_localsplus, a flexible array, is the frame object's last member: sizeof counts its first slot.
            frameLocalsPlus = f.field("frame_object.localsplus", f.size("frame_object", 4096), 8);
        }
        VariableLayout.CodeVariables variables = new VariableLayout.CodeVariables(f.field("code_object.argcount", code, 4),
                f.field("code_object.kwonlyargcount", code, 4), f.field("code_object.flags", code, 4),
                (int) f.bounded("code_flags.varargs", 1, 1 << 30), (int) f.bounded("code_flags.varkeywords", 1, 1 << 30),
                localsPlus, separate);
        long tuple = f.size("tuple_object", 4096);
        long list = f.size("list_object", 4096);
        long dict = f.size("dict_object", 4096);
        long cell = f.size("cell_object", 4096);
        long ints = f.size("long_object", 4096);
        boolean tagged = f.has("long_object.lv_tag");
        Optional<VariableLayout.SetFields> set = Optional.empty();
        if (f.has("set_object.size")) {
            long size = f.size("set_object", 4096);
            set = Optional.of(new VariableLayout.SetFields(f.field("set_object.used", size, 8),
                    f.field("set_object.mask", size, 8), f.field("set_object.table", size, 8)));
        }
        Optional<VariableLayout.InstanceFields> instances = Optional.empty();
        if (f.has("heap_type_object.ht_cached_keys") && f.has("type_object.tp_dictoffset")) {
            long type = f.size("type_object", 4096);
            instances = Optional.of(new VariableLayout.InstanceFields(f.field("type_object.tp_basicsize", type, 8),
                    f.field("type_object.tp_dictoffset", type, 8), f.field("type_object.tp_flags", type, 8),
                    f.field("heap_type_object.ht_cached_keys", f.size("heap_type_object", 4096), 8), layout.instanceDicts()));
        }
        VariableLayout.ObjectFields objects = new VariableLayout.ObjectFields(
                new VariableLayout.Sequence(f.field("tuple_object.ob_size", tuple, 8),
                        f.bounded("tuple_object.ob_item", 16, tuple), true),
                new VariableLayout.Sequence(f.field("list_object.ob_size", list, 8), f.field("list_object.ob_item", list, 8),
                        false),
                f.field("float_object.ob_fval", f.size("float_object", 4096), 8),
                new VariableLayout.DictFields(f.field("dict_object.ma_used", dict, 8), f.field("dict_object.ma_keys", dict, 8),
                        f.field("dict_object.ma_values", dict, 8)),
                set, f.field("cell_object.ob_ref", cell, 8),
                new VariableLayout.IntFields(f.field(tagged ? "long_object.lv_tag" : "long_object.ob_size", ints, 8),
                        f.bounded("long_object.ob_digit", 16, ints), tagged), instances);
        return Optional.of(new VariableLayout(frameLocalsPlus, variables, objects));
    }

    /** A {@code CO_FAST_*} kind: one bit of a byte. */
    private static int kindBit(StructFields f, String name) throws CorruptTarget {
        int bit = (int) f.bounded(name, 1, 0x80);
        if (Integer.bitCount(bit) != 1) {
            throw new CorruptTarget("%s is not a single bit: %d".formatted(name, bit));
        }
        return bit;
    }

    private static DebugOffsets.Runtime runtime(StructFields f) throws CorruptTarget {
        long size = f.size("runtime_state", 64 * MIB);
        return new DebugOffsets.Runtime(size, f.field("runtime_state.interpreters_head", size, 8),
                f.optionalField("runtime_state.gil_runtime_state_locked", size, 4),
                f.optionalField("runtime_state.gil_runtime_state_holder", size, 8));
    }

    private static DebugOffsets.Interpreter interpreter(StructFields f) throws CorruptTarget {
        long size = f.size("interpreter_state", 64 * MIB);
        long id = f.field("interpreter_state.id", size, 8);
        long next = f.field("interpreter_state.next", size, 8);
        long threadsHead = f.field("interpreter_state.threads_head", size, 8);
        OptionalLong threadsMain = f.optionalField("interpreter_state.threads_main", size, 8);
        OptionalLong gilLocked = f.optionalField("interpreter_state.gil_runtime_state_locked", size, 4);
        OptionalLong gilHolder = f.optionalField("interpreter_state.gil_runtime_state_holder", size, 8);
        OptionalLong generation = f.optionalField("interpreter_state.code_object_generation", size, 8);
        OptionalLong gcFrame = gcFrame(f, size);
        int readLength = coveringLength(size, id, next, threadsHead, threadsMain.orElse(0), gilLocked.orElse(0),
                gilHolder.orElse(0),
                generation.orElse(0), gcFrame.orElse(0));
        return new DebugOffsets.Interpreter(size, id, next, threadsHead, threadsMain, gilLocked, gilHolder,
                generation, gcFrame, readLength, f.field("interpreter_state.imports_modules", size, 8));
    }

    /** How many leading bytes of a struct cover 8-byte fields at all these offsets. */
    private static int coveringLength(long size, long... offsets) {
        return (int) Math.min(LongStream.of(offsets).max().orElseThrow() + 8, size);
    }

    /** {@code interp->gc.frame}, as one offset into the interpreter state. */
    private static OptionalLong gcFrame(StructFields f, long interpreterSize) throws CorruptTarget {
        if (!f.has("gc.frame")) {
            return OptionalLong.empty();
        }
        long gcSize = f.size("gc", interpreterSize);
        OptionalLong inGc = f.optionalField("gc.frame", gcSize, 8);
        // The whole gc struct must lie inside the interpreter state.
        long gc = f.field("interpreter_state.gc", interpreterSize - gcSize + 1, 1);
        return OptionalLong.of(gc + inGc.getAsLong());
    }

    private static DebugOffsets.Thread thread(StructFields f) throws CorruptTarget {
        long size = f.size("thread_state", MIB);
        OptionalLong excState = f.optionalField("thread_state.exc_state", size, 8);
        OptionalLong excValue = OptionalLong.empty();
        if (excState.isPresent()) {
            long inItem = f.field("err_stackitem.exc_value", size - excState.getAsLong(), 8);
            excValue = OptionalLong.of(excState.getAsLong() + inItem);
        }
        long prev = f.field("thread_state.prev", size, 8);
        long next = f.field("thread_state.next", size, 8);
        long interp = f.field("thread_state.interp", size, 8);
        // 3.11 and 3.12 reach the current frame through the eval loop's _PyCFrame.
        Optional<DebugOffsets.CFrame> cframe = cframe(f, size);
        long currentFrame = cframe.isPresent() ? f.field("cframe.current_frame", cframe.get().size(), 8)
                : f.has("thread_state.frame") ? f.field("thread_state.frame", size, 8) // 3.10's PyFrameObject
                : f.field("thread_state.current_frame", size, 8);
        OptionalLong nativeId = f.optionalField("thread_state.native_thread_id", size, 8);
        long threadId = f.field("thread_state.thread_id", size, 8);
        OptionalLong baseFrame = f.optionalField("thread_state.base_frame", size, 8);
        OptionalLong holdsGil = f.optionalField("thread_state.holds_gil", size, 4);
        OptionalLong gilRequested = f.optionalField("thread_state.gil_requested", size, 4);
        OptionalLong exception = f.optionalField("thread_state.current_exception", size, 8);
        // The marker is offered only where its sequence counter exists: the interpreters that also
        // fixed its moves against reused frame addresses.
        OptionalLong marker = f.optionalField("thread_state.last_profiled_frame_seq", size, 8).isPresent()
                ? f.optionalField("thread_state.last_profiled_frame", size, 8) : OptionalLong.empty();
        // The chunk is followed by datastack_top and datastack_limit: all three must lie inside.
        OptionalLong datastackChunk = f.optionalField("thread_state.datastack_chunk", size - 16, 8);
        if (datastackChunk.isPresent()) {
            long chunk = datastackChunk.getAsLong();
            if (f.optionalField("thread_state.datastack_top", size, 8).orElse(chunk + 8) != chunk + 8
                    || f.optionalField("thread_state.datastack_limit", size, 8).orElse(chunk + 16) != chunk + 16) {
                throw new CorruptTarget("thread_state: datastack_top and datastack_limit do not follow datastack_chunk");
            }
        }
        // exc_info follows current_exception in every thread state that has both (3.12+); only 3.15 exports
        // the exception fields, and a walk checks the pointer against the thread's own exc_state.
        // An item is {exc_value, previous_item}: followed only where exc_value comes first, as it does.
        OptionalLong excInfo = exception.isPresent() && excValue.isPresent() && excValue.getAsLong() == excState.getAsLong()
                ? OptionalLong.of(f.field("thread_state.current_exception", size - 8, 8) + 8) : OptionalLong.empty();
        int readLength = coveringLength(size, prev, next, interp,
                cframe.map(DebugOffsets.CFrame::pointer).orElse(currentFrame), baseFrame.orElse(0), nativeId.orElse(0), threadId,
                // The thread state's own record, named when no eval loop runs, is read with it.
                cframe.isPresent() ? f.field("thread_state.root_cframe", size - cframe.get().size() + 1, 1)
                        + cframe.get().size() - 8 : 0,
                holdsGil.orElse(0), gilRequested.orElse(0), exception.orElse(0), excValue.orElse(0), excInfo.orElse(0),
                marker.orElse(0), datastackChunk.orElse(-16) + 16);
        return new DebugOffsets.Thread(size, prev, next, interp, currentFrame, cframe, baseFrame, threadId, nativeId,
                datastackChunk, holdsGil, gilRequested, exception, excValue, excInfo, marker, readLength);
    }

    private static Optional<DebugOffsets.CFrame> cframe(StructFields f, long threadSize) throws CorruptTarget {
        if (!f.has("thread_state.cframe")) {
            return Optional.empty();
        }
        long size = f.size("cframe", 4096);
        return Optional.of(new DebugOffsets.CFrame(f.field("thread_state.cframe", threadSize, 8),
                f.field("cframe.previous", size, 8), size));
    }

    private static DebugOffsets.Frame frame(StructFields f) throws CorruptTarget {
        if (f.has("frame_object.back")) {
            return frameObject(f);
        }
        long size = f.size("interpreter_frame", 4096);
        return new DebugOffsets.Frame(size,
                f.field("interpreter_frame.previous", size, 8),
                f.field("interpreter_frame.executable", size, 8),
                f.field("interpreter_frame.instr_ptr", size, 8),
                OptionalLong.of(f.field("interpreter_frame.owner", size, 1)),
                f.bounded("interpreter_frame.localsplus", 0, size),
                f.optionalField("interpreter_frame.stackpointer", size, 8),
                f.optionalField("interpreter_frame.is_entry", size, 1),
                Optional.empty(),
                f.optionalField("interpreter_frame.return_offset", size, 2));
    }

    /** 3.8 to 3.10: a heap {@code PyFrameObject}; only its head is read, up to its state. */
    private static DebugOffsets.Frame frameObject(StructFields f) throws CorruptTarget {
        long size = f.size("frame_object", 4096);
        long back = f.field("frame_object.back", size, 8);
        long code = f.field("frame_object.code", size, 8);
        long lasti = f.field("frame_object.lasti", size, 4);
        DebugOffsets.FrameObject states = f.has("frame_object.executing") ? executingFlag(f, size) : frameState(f, size);
        long head = (Math.max(Math.max(back, code) + 8, Math.max(lasti + 4, states.state() + 1)) + 7) & ~7L;
        return new DebugOffsets.Frame(head, back, code, lasti, OptionalLong.empty(), size, OptionalLong.empty(),
                OptionalLong.empty(), Optional.of(states), OptionalLong.empty());
    }

    /** 3.10's {@code f_state}. */
    private static DebugOffsets.FrameObject frameState(StructFields f, long size) throws CorruptTarget {
        return new DebugOffsets.FrameObject(f.field("frame_object.state", size, 1),
                (int) f.bounded("frame_state.executing", -128, 127),
                (int) f.bounded("frame_state.unwinding", -128, 127),
                (int) f.bounded("frame_state.returned", -128, 127),
                (int) f.bounded("frame_state.raised", -128, 127),
                (int) f.bounded("frame_state.cleared", -128, 127));
    }

    /**
     * 3.8's and 3.9's {@code f_executing}: 1 while the eval loop runs the frame (unwinding too), 0 once
     * it returned, raised or was freed, and while a generator's frame is suspended (its link to its
     * caller cleared, which tells the two apart) or a new frame not yet entered.
     */
    private static DebugOffsets.FrameObject executingFlag(StructFields f, long size) throws CorruptTarget {
        return new DebugOffsets.FrameObject(f.field("frame_object.executing", size, 1), 1, 1, 0, 0, 0);
    }

    private static DebugOffsets.Code code(StructFields f) throws CorruptTarget {
        long size = f.size("code_object", 64 * 1024);
        // 3.10 has no qualified name (its frames show co_name) and keeps its bytecode in a separate bytes
        // object: its frames give an instruction index, not a pointer into the code object.
        return new DebugOffsets.Code(size,
                f.field("code_object.filename", size, 8),
                f.has("code_object.qualname") ? f.field("code_object.qualname", size, 8) : f.field("code_object.name", size, 8),
                f.field("code_object.linetable", size, 8),
                f.field("code_object.firstlineno", size, 4),
                f.has("code_object.co_code_adaptive") ? f.bounded("code_object.co_code_adaptive", 1, size) : 0,
                f.optionalField("code_object.code", size, 8),
                f.has("interpreter_frame.specials_slots") ? Optional.of(new DebugOffsets.FrameSize(
                        f.field("code_object.nlocalsplus", size, 4), f.field("code_object.stacksize", size, 4),
                        (int) f.bounded("interpreter_frame.specials_slots", 1, 64))) : Optional.empty());
    }

    private static DebugOffsets.TypeObject type(StructFields f) throws CorruptTarget {
        long size = f.size("type_object", 64 * 1024);
        return new DebugOffsets.TypeObject(size, f.field("type_object.tp_name", size, 8),
                f.field("type_object.tp_flags", size, 8));
    }

    private static DebugOffsets.Bytes bytes(StructFields f) throws CorruptTarget {
        long size = f.size("bytes_object", 4096);
        return new DebugOffsets.Bytes(size, f.field("bytes_object.ob_size", size, 8),
                f.bounded("bytes_object.ob_sval", 1, size));
    }

    /** 3.12+: older ints keep their sign and size in ob_size, read by nothing here. */
    private static Optional<DebugOffsets.LongObject> longObject(StructFields f) throws CorruptTarget {
        if (!f.has("long_object.lv_tag")) {
            return Optional.empty();
        }
        long size = f.size("long_object", 4096);
        return Optional.of(new DebugOffsets.LongObject(size, f.field("long_object.lv_tag", size, 8),
                f.field("long_object.ob_digit", size, 4)));
    }

    private static DebugOffsets.DictObject dict(StructFields f) throws CorruptTarget {
        long size = f.size("dict_object", 4096);
        return new DebugOffsets.DictObject(size, f.field("dict_object.ma_keys", size, 8));
    }

    /** 3.14+; the frame is embedded in the generator, so all of it must fit inside. */
    private static Optional<DebugOffsets.Generator> generator(StructFields f, DebugOffsets.Frame frame)
            throws CorruptTarget {
        if (!f.has("gen_object.size")) {
            return Optional.empty();
        }
        long size = f.size("gen_object", 64 * 1024);
        if (size < frame.size()) {
            throw new CorruptTarget("debug offsets: gen_object.size = %d cannot hold a %d-byte frame"
                    .formatted(size, frame.size()));
        }
        return Optional.of(new DebugOffsets.Generator(size,
                f.field("gen_object.gi_iframe", size - frame.size() + 1, 1),
                f.field("gen_object.gi_frame_state", size, 1)));
    }

    private static Optional<DebugOffsets.LlistNode> llistNode(StructFields f) throws CorruptTarget {
        if (!f.has("llist_node.next")) {
            return Optional.empty();
        }
        return Optional.of(new DebugOffsets.LlistNode(f.field("llist_node.next", DebugOffsets.LlistNode.SIZE, 8)));
    }

    private static Optional<DebugOffsets.SetObject> set(StructFields f) throws CorruptTarget {
        if (!f.has("set_object.size")) {
            return Optional.empty();
        }
        long size = f.size("set_object", 4096);
        return Optional.of(new DebugOffsets.SetObject(size, f.field("set_object.used", size, 8),
                f.field("set_object.table", size, 8), f.field("set_object.mask", size, 8)));
    }

    private static DebugOffsets.Unicode unicode(StructFields f, VersionLayout layout) throws CorruptTarget {
        long size = f.size("unicode_object", 4096);
        long asciiSize = f.bounded("unicode_object.asciiobject_size", 1, size);
        long compactSize = f.optionalBounded("unicode_object.compactunicodeobject_size", 1, size)
                .orElse(asciiSize + layout.compactUnicodeExtra());
        return new DebugOffsets.Unicode(size, f.field("unicode_object.state", size, 4),
                f.field("unicode_object.length", size, 8), asciiSize, compactSize);
    }
}
