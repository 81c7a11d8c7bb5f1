/*
 * Prints the layout facts Remora needs of one CPython 3.8-3.12 build: struct sizes, field offsets
 * and enum values, taken from the interpreter's own headers (these versions export no
 * _Py_DebugOffsets). The names are those of _Py_DebugOffsets where 3.13 has the field, so that
 * both sources feed the same decoder. Built and run by generate.sh, once per interpreter.
 */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <stddef.h>
#include <stdio.h>
#if PY_MINOR_VERSION >= 9
#include "internal/pycore_runtime.h"
#include "internal/pycore_interp.h"
#else
#include "internal/pycore_pystate.h"
#endif
#if PY_MINOR_VERSION >= 11
#include "internal/pycore_code.h"
#include "internal/pycore_dict.h"
#include "internal/pycore_frame.h"
#else
#include "frameobject.h"
#endif

#define FIELD(name, type, member) printf("%-44s %#lx\n", name, (unsigned long) offsetof(type, member))
#define SIZE(name, type) printf("%-44s %#lx\n", name, (unsigned long) sizeof(type))
#define VALUE(name, value) printf("%-44s %ld\n", name, (long) (value))

int main(void) {
    SIZE("runtime_state.size", _PyRuntimeState);
    FIELD("runtime_state.interpreters_head", _PyRuntimeState, interpreters.head);
    FIELD("runtime_state.main_thread", _PyRuntimeState, main_thread);
#if PY_MINOR_VERSION < 12
    /* One GIL for the whole runtime until 3.12. */
    FIELD("runtime_state.gil_runtime_state_locked", _PyRuntimeState, ceval.gil.locked);
    FIELD("runtime_state.gil_runtime_state_holder", _PyRuntimeState, ceval.gil.last_holder);
#endif

    SIZE("interpreter_state.size", PyInterpreterState);
    FIELD("interpreter_state.id", PyInterpreterState, id);
    FIELD("interpreter_state.next", PyInterpreterState, next);
#if PY_MINOR_VERSION <= 10
    FIELD("interpreter_state.threads_head", PyInterpreterState, tstate_head);
#else
    FIELD("interpreter_state.threads_head", PyInterpreterState, threads.head);
#endif
#if PY_MINOR_VERSION >= 12
    FIELD("interpreter_state.imports_modules", PyInterpreterState, imports.modules);
    FIELD("interpreter_state.gil_runtime_state_locked", PyInterpreterState, _gil.locked);
    FIELD("interpreter_state.gil_runtime_state_holder", PyInterpreterState, _gil.last_holder);
#else
    FIELD("interpreter_state.imports_modules", PyInterpreterState, modules);
#endif

    SIZE("thread_state.size", PyThreadState);
    FIELD("thread_state.prev", PyThreadState, prev);
    FIELD("thread_state.next", PyThreadState, next);
    FIELD("thread_state.interp", PyThreadState, interp);
    FIELD("thread_state.thread_id", PyThreadState, thread_id);
#if PY_MINOR_VERSION <= 10
    FIELD("thread_state.frame", PyThreadState, frame);
#else
    FIELD("thread_state.native_thread_id", PyThreadState, native_thread_id);
    FIELD("thread_state.cframe", PyThreadState, cframe);
    FIELD("thread_state.root_cframe", PyThreadState, root_cframe);
    FIELD("thread_state.datastack_chunk", PyThreadState, datastack_chunk);
    FIELD("thread_state.datastack_top", PyThreadState, datastack_top);
    FIELD("thread_state.datastack_limit", PyThreadState, datastack_limit);
    SIZE("cframe.size", _PyCFrame);
    FIELD("cframe.current_frame", _PyCFrame, current_frame);
    FIELD("cframe.previous", _PyCFrame, previous);
#endif

#if PY_MINOR_VERSION <= 10
    SIZE("frame_object.size", PyFrameObject);
    FIELD("frame_object.back", PyFrameObject, f_back);
    FIELD("frame_object.code", PyFrameObject, f_code);
    FIELD("frame_object.lasti", PyFrameObject, f_lasti);
#if PY_MINOR_VERSION <= 9
    /* No frame state before 3.10: a flag, set while the eval loop runs the frame; f_lasti counts bytes. */
    FIELD("frame_object.executing", PyFrameObject, f_executing);
#else
    FIELD("frame_object.state", PyFrameObject, f_state);
    VALUE("frame_state.executing", FRAME_EXECUTING);
    VALUE("frame_state.unwinding", FRAME_UNWINDING);
    VALUE("frame_state.returned", FRAME_RETURNED);
    VALUE("frame_state.raised", FRAME_RAISED);
    VALUE("frame_state.cleared", FRAME_CLEARED);
#endif
#else
    SIZE("interpreter_frame.size", _PyInterpreterFrame);
    FIELD("interpreter_frame.previous", _PyInterpreterFrame, previous);
    FIELD("interpreter_frame.executable", _PyInterpreterFrame, f_code);
    FIELD("interpreter_frame.instr_ptr", _PyInterpreterFrame, prev_instr);
    FIELD("interpreter_frame.localsplus", _PyInterpreterFrame, localsplus);
    FIELD("interpreter_frame.owner", _PyInterpreterFrame, owner);
#if PY_MINOR_VERSION == 11
    FIELD("interpreter_frame.is_entry", _PyInterpreterFrame, is_entry);
#endif
    VALUE("frame_owner.thread", FRAME_OWNED_BY_THREAD);
    VALUE("frame_owner.generator", FRAME_OWNED_BY_GENERATOR);
    VALUE("frame_owner.frame_object", FRAME_OWNED_BY_FRAME_OBJECT);
#if PY_MINOR_VERSION >= 12
    VALUE("frame_owner.cstack", FRAME_OWNED_BY_CSTACK);
#endif
#endif

    SIZE("code_object.size", PyCodeObject);
    FIELD("code_object.filename", PyCodeObject, co_filename);
    FIELD("code_object.name", PyCodeObject, co_name);
#if PY_MINOR_VERSION >= 10
    FIELD("code_object.linetable", PyCodeObject, co_linetable);
#else
    FIELD("code_object.linetable", PyCodeObject, co_lnotab);
#endif
    FIELD("code_object.firstlineno", PyCodeObject, co_firstlineno);
    FIELD("code_object.argcount", PyCodeObject, co_argcount);
    /* Which leading variables are arguments: co_argcount + co_kwonlyargcount, and *args and **kwargs. */
    FIELD("code_object.kwonlyargcount", PyCodeObject, co_kwonlyargcount);
    FIELD("code_object.flags", PyCodeObject, co_flags);
    VALUE("code_flags.varargs", CO_VARARGS);
    VALUE("code_flags.varkeywords", CO_VARKEYWORDS);
#if PY_MINOR_VERSION <= 10
    FIELD("code_object.code", PyCodeObject, co_code);
    /* f_localsplus holds co_nlocals locals (co_varnames), then cells (co_cellvars), then frees (co_freevars). */
    FIELD("code_object.varnames", PyCodeObject, co_varnames);
    FIELD("code_object.cellvars", PyCodeObject, co_cellvars);
    FIELD("code_object.freevars", PyCodeObject, co_freevars);
    FIELD("frame_object.localsplus", PyFrameObject, f_localsplus);
#else
    FIELD("code_object.qualname", PyCodeObject, co_qualname);
    FIELD("code_object.co_code_adaptive", PyCodeObject, co_code_adaptive);
    FIELD("code_object.firsttraceable", PyCodeObject, _co_firsttraceable);
    /* A frame takes co_nlocalsplus + co_stacksize + FRAME_SPECIALS_SIZE pointers on the data stack. */
    FIELD("code_object.nlocalsplus", PyCodeObject, co_nlocalsplus);
    FIELD("code_object.stacksize", PyCodeObject, co_stacksize);
    VALUE("interpreter_frame.specials_slots", FRAME_SPECIALS_SIZE);
    FIELD("code_object.localsplusnames", PyCodeObject, co_localsplusnames);
    FIELD("code_object.localspluskinds", PyCodeObject, co_localspluskinds);
    VALUE("local_kind.local", CO_FAST_LOCAL);
    VALUE("local_kind.cell", CO_FAST_CELL);
    VALUE("local_kind.free", CO_FAST_FREE);
#if PY_MINOR_VERSION >= 12
    VALUE("local_kind.hidden", CO_FAST_HIDDEN);
#endif
#endif

    SIZE("pyobject.size", PyObject);
    FIELD("pyobject.ob_type", PyObject, ob_type);
    SIZE("type_object.size", PyTypeObject);
    FIELD("type_object.tp_name", PyTypeObject, tp_name);
    FIELD("type_object.tp_flags", PyTypeObject, tp_flags);
    FIELD("type_object.tp_basicsize", PyTypeObject, tp_basicsize);
    FIELD("type_object.tp_dictoffset", PyTypeObject, tp_dictoffset);
    SIZE("heap_type_object.size", PyHeapTypeObject);
    FIELD("heap_type_object.ht_cached_keys", PyHeapTypeObject, ht_cached_keys);
    SIZE("bytes_object.size", PyBytesObject);
    FIELD("bytes_object.ob_size", PyVarObject, ob_size);
    FIELD("bytes_object.ob_sval", PyBytesObject, ob_sval);
    SIZE("unicode_object.size", PyUnicodeObject);
    FIELD("unicode_object.state", PyASCIIObject, state);
    FIELD("unicode_object.length", PyASCIIObject, length);
    SIZE("unicode_object.asciiobject_size", PyASCIIObject);
    SIZE("unicode_object.compactunicodeobject_size", PyCompactUnicodeObject);
    SIZE("long_object.size", PyLongObject);
#if PY_MINOR_VERSION >= 12
    FIELD("long_object.lv_tag", PyLongObject, long_value.lv_tag);
    FIELD("long_object.ob_digit", PyLongObject, long_value.ob_digit);
#else
    FIELD("long_object.ob_size", PyVarObject, ob_size);
    FIELD("long_object.ob_digit", PyLongObject, ob_digit);
#endif
    SIZE("dict_object.size", PyDictObject);
    FIELD("dict_object.ma_keys", PyDictObject, ma_keys);
    FIELD("dict_object.ma_values", PyDictObject, ma_values);
    FIELD("dict_object.ma_used", PyDictObject, ma_used);
    SIZE("tuple_object.size", PyTupleObject);
    FIELD("tuple_object.ob_item", PyTupleObject, ob_item);
    FIELD("tuple_object.ob_size", PyVarObject, ob_size);
    SIZE("list_object.size", PyListObject);
    FIELD("list_object.ob_item", PyListObject, ob_item);
    FIELD("list_object.ob_size", PyVarObject, ob_size);
    SIZE("float_object.size", PyFloatObject);
    FIELD("float_object.ob_fval", PyFloatObject, ob_fval);
    SIZE("set_object.size", PySetObject);
    FIELD("set_object.used", PySetObject, used);
    FIELD("set_object.table", PySetObject, table);
    FIELD("set_object.mask", PySetObject, mask);
    SIZE("cell_object.size", PyCellObject);
    FIELD("cell_object.ob_ref", PyCellObject, ob_ref);
#if PY_MINOR_VERSION >= 11
    /* 3.10 keeps PyDictKeysObject in a header it does not install. */
    FIELD("dict_keys.log2_index_bytes", PyDictKeysObject, dk_log2_index_bytes);
    FIELD("dict_keys.kind", PyDictKeysObject, dk_kind);
    FIELD("dict_keys.nentries", PyDictKeysObject, dk_nentries);
    FIELD("dict_keys.indices", PyDictKeysObject, dk_indices);
    VALUE("dict_keys.general_kind", DICT_KEYS_GENERAL);
#endif
    return 0;
}
