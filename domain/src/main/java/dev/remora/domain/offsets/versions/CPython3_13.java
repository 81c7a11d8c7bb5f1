// Everything Remora knows of CPython 3.13. Below the GENERATED line the file is written by
// scripts/version-tables/generate.sh from the version's interpreter: run it, do not edit that part.
package dev.remora.domain.offsets.versions;

import dev.remora.domain.offsets.DebugOffsetsLayout;
import dev.remora.domain.offsets.DictKeysLayout;
import dev.remora.domain.offsets.FrameOwners;
import dev.remora.domain.offsets.GeneratorStates;
import dev.remora.domain.offsets.HeaderTable;
import dev.remora.domain.offsets.InstanceDicts;
import dev.remora.domain.offsets.LineTableFormat;
import dev.remora.domain.offsets.SplitDictValues;
import dev.remora.domain.offsets.UnstartedThreads;
import dev.remora.domain.offsets.VersionLayout;

import java.util.List;
import java.util.OptionalInt;

/** CPython 3.13: the first to export its layout, as {@code _Py_DebugOffsets}. */
public final class CPython3_13 {

    private CPython3_13() {}

    public static VersionLayout layout() {
        return VersionLayout.builder(3, 13)
                .exported(EXPORTED)
                .unexported(HeaderTable.parse("3.13", "3.13.0", UNEXPORTED + SET + EXCEPTIONS + TYPES))
                .splitDictValues(SplitDictValues.INSERTION_ORDER)
                // FRAME_OWNED_BY_CSTACK = 3
                .owners(new FrameOwners(0, 1, new int[] {3}, new int[] {3}, 3))
                .compactUnicodeExtra(16)
                .generatorStates(STATES)
                .lineTable(LineTableFormat.LOCATIONS)
                .dictKeys(DICT_KEYS)
                .unstartedThreads(UnstartedThreads.ZERO_NATIVE_ID)
                .instanceDicts(InstanceDicts.INLINE_VALUES)
                .opcodes(OPCODES)
                .build();
    }

    /** The fields of 3.13's {@code _Py_DebugOffsets}, in order. */
    static final DebugOffsetsLayout EXPORTED = DebugOffsetsLayout.of("3.13", List.of(
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
            "gc.size", "gc.collecting"));

    /** 3.13 and 3.14: CREATED=-3, SUSPENDED=-2, SUSPENDED_YIELD_FROM=-1, EXECUTING=0, COMPLETED=1, CLEARED=4. */
    static final GeneratorStates STATES =
            new GeneratorStates(-3, -2, -1, OptionalInt.empty(), 0, OptionalInt.of(1), 4);
    /** The head of {@code PyDictKeysObject}, the same in 3.13, 3.14 and 3.15 GIL builds. */
    static final DictKeysLayout DICT_KEYS = new DictKeysLayout(9, 10, 24, 32, 0, OptionalInt.empty());

    /**
     * What 3.13-3.15's debug offsets leave out and frames' variables need, from their headers
     * ({@code Include/cpython/code.h}: {@code co_flags} just before {@code co_argcount},
     * {@code co_kwonlyargcount} two ints after; {@code pycore_code.h}'s {@code CO_FAST_*};
     * {@code PyDictObject.ma_used} and {@code PyCellObject.ob_ref} right after the object head).
     */
    static final String UNEXPORTED = """
            code_object.flags             0x30
            code_object.kwonlyargcount    0x3c
            code_flags.varargs            4
            code_flags.varkeywords        8
            local_kind.hidden             0x10
            local_kind.local              0x20
            local_kind.cell               0x40
            local_kind.free               0x80
            dict_object.ma_used           0x10
            cell_object.size              0x18
            cell_object.ob_ref            0x10
            """;
    /**
     * Where 3.13 and 3.14 keep a thread's exceptions, which 3.15 exports ({@code Include/cpython/pystate.h}):
     * {@code current_exception} just before {@code exc_info}, the thread's own {@code exc_state} item, and
     * that item's {@code exc_value} first. The same in both, as 3.13.0's headers and the thread states of
     * live 3.13 and 3.14 interpreters show.
     */
    static final String EXCEPTIONS = """
            thread_state.current_exception 0x70
            thread_state.exc_state        0x100
            err_stackitem.exc_value       0x0
            """;
    /**
     * Where 3.13 and 3.14 keep an instance's size, dict offset and a class's cached keys, which 3.15
     * exports ({@code Include/cpython/object.h}): {@code ht_cached_keys} follows the type object and
     * the five method tables and three names of {@code PyHeapTypeObject}, as 3.13.0's headers give.
     */
    static final String TYPES = """
            type_object.tp_basicsize      0x20
            type_object.tp_dictoffset     0x120
            heap_type_object.size         0x3a0
            heap_type_object.ht_cached_keys 0x370
            """;
    /** 3.13's {@code PySetObject}, which 3.14 exports: {@code fill, used, mask, table} after the head. */
    private static final String SET = """
            set_object.size               0xc8
            set_object.used               0x18
            set_object.mask               0x20
            set_object.table              0x28
            """;

    // GENERATED by scripts/version-tables/generate.sh: everything below, to the end of the class.

    /** Instruction names by opcode, comma-separated (specialised forms named after their instruction). */
    public static final String OPCODES = ""
            + "CACHE,BEFORE_ASYNC_WITH,BEFORE_WITH,BINARY_OP,BINARY_SLICE,BINARY_SUBSCR,CHECK_EG_MATCH,CHECK_EX"
            + "C_MATCH,CLEANUP_THROW,DELETE_SUBSCR,END_ASYNC_FOR,END_FOR,END_SEND,EXIT_INIT_CHECK,FORMAT_SIMPLE"
            + ",FORMAT_WITH_SPEC,GET_AITER,RESERVED,GET_ANEXT,GET_ITER,GET_LEN,GET_YIELD_FROM_ITER,INTERPRETER_"
            + "EXIT,LOAD_ASSERTION_ERROR,LOAD_BUILD_CLASS,LOAD_LOCALS,MAKE_FUNCTION,MATCH_KEYS,MATCH_MAPPING,MA"
            + "TCH_SEQUENCE,NOP,POP_EXCEPT,POP_TOP,PUSH_EXC_INFO,PUSH_NULL,RETURN_GENERATOR,RETURN_VALUE,SETUP_"
            + "ANNOTATIONS,STORE_SLICE,STORE_SUBSCR,TO_BOOL,UNARY_INVERT,UNARY_NEGATIVE,UNARY_NOT,WITH_EXCEPT_S"
            + "TART,BINARY_OP,BUILD_CONST_KEY_MAP,BUILD_LIST,BUILD_MAP,BUILD_SET,BUILD_SLICE,BUILD_STRING,BUILD"
            + "_TUPLE,CALL,CALL_FUNCTION_EX,CALL_INTRINSIC_1,CALL_INTRINSIC_2,CALL_KW,COMPARE_OP,CONTAINS_OP,CO"
            + "NVERT_VALUE,COPY,COPY_FREE_VARS,DELETE_ATTR,DELETE_DEREF,DELETE_FAST,DELETE_GLOBAL,DELETE_NAME,D"
            + "ICT_MERGE,DICT_UPDATE,ENTER_EXECUTOR,EXTENDED_ARG,FOR_ITER,GET_AWAITABLE,IMPORT_FROM,IMPORT_NAME"
            + ",IS_OP,JUMP_BACKWARD,JUMP_BACKWARD_NO_INTERRUPT,JUMP_FORWARD,LIST_APPEND,LIST_EXTEND,LOAD_ATTR,L"
            + "OAD_CONST,LOAD_DEREF,LOAD_FAST,LOAD_FAST_AND_CLEAR,LOAD_FAST_CHECK,LOAD_FAST_LOAD_FAST,LOAD_FROM"
            + "_DICT_OR_DEREF,LOAD_FROM_DICT_OR_GLOBALS,LOAD_GLOBAL,LOAD_NAME,LOAD_SUPER_ATTR,MAKE_CELL,MAP_ADD"
            + ",MATCH_CLASS,POP_JUMP_IF_FALSE,POP_JUMP_IF_NONE,POP_JUMP_IF_NOT_NONE,POP_JUMP_IF_TRUE,RAISE_VARA"
            + "RGS,RERAISE,RETURN_CONST,SEND,SET_ADD,SET_FUNCTION_ATTRIBUTE,SET_UPDATE,STORE_ATTR,STORE_DEREF,S"
            + "TORE_FAST,STORE_FAST_LOAD_FAST,STORE_FAST_STORE_FAST,STORE_GLOBAL,STORE_NAME,SWAP,UNPACK_EX,UNPA"
            + "CK_SEQUENCE,YIELD_VALUE,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,RESUME,BINARY_OP,BINARY_OP,BINARY_OP,BINAR"
            + "Y_OP,BINARY_OP,BINARY_OP,BINARY_OP,BINARY_SUBSCR,BINARY_SUBSCR,BINARY_SUBSCR,BINARY_SUBSCR,BINAR"
            + "Y_SUBSCR,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CALL,CA"
            + "LL,CALL,CALL,COMPARE_OP,COMPARE_OP,COMPARE_OP,CONTAINS_OP,CONTAINS_OP,FOR_ITER,FOR_ITER,FOR_ITER"
            + ",FOR_ITER,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_A"
            + "TTR,LOAD_ATTR,LOAD_ATTR,LOAD_ATTR,LOAD_GLOBAL,LOAD_GLOBAL,LOAD_SUPER_ATTR,LOAD_SUPER_ATTR,RESUME"
            + ",SEND,STORE_ATTR,STORE_ATTR,STORE_ATTR,STORE_SUBSCR,STORE_SUBSCR,TO_BOOL,TO_BOOL,TO_BOOL,TO_BOOL"
            + ",TO_BOOL,TO_BOOL,UNPACK_SEQUENCE,UNPACK_SEQUENCE,UNPACK_SEQUENCE,,,,,,,,,,,,,,RESUME,END_FOR,END"
            + "_SEND,RETURN_VALUE,RETURN_CONST,YIELD_VALUE,LOAD_SUPER_ATTR,FOR_ITER,CALL,CALL_KW,CALL_FUNCTION_"
            + "EX,INSTRUCTION,JUMP_FORWARD,JUMP_BACKWARD,POP_JUMP_IF_TRUE,POP_JUMP_IF_FALSE,POP_JUMP_IF_NONE,PO"
            + "P_JUMP_IF_NOT_NONE,LINE,";
}
