package dev.remora.domain.locals;

/**
 * A value's type as far as showing it goes: its name ({@code tp_name}) and, for the builtin types
 * shown by value, which one it is. Subclasses and user classes that borrow a builtin's name are not
 * builtins: their {@code tp_flags} mark them heap types.
 */
record PyType(String name, Builtin builtin) {

    enum Builtin { NONE, BOOL, INT, FLOAT, STR, BYTES, TUPLE, LIST, DICT, SET, FROZENSET, CELL, ELLIPSIS,
        NOT_IMPLEMENTED, OTHER }

    /** {@code Py_TPFLAGS_HEAPTYPE}: set for classes made at run time, never for the builtins. */
    static final long HEAP_TYPE = 1L << 9;

    static PyType of(String name, long flags) {
        Builtin builtin = (flags & HEAP_TYPE) != 0 ? Builtin.OTHER : switch (name) {
            case "NoneType" -> Builtin.NONE;
            case "bool" -> Builtin.BOOL;
            case "int" -> Builtin.INT;
            case "float" -> Builtin.FLOAT;
            case "str" -> Builtin.STR;
            case "bytes" -> Builtin.BYTES;
            case "tuple" -> Builtin.TUPLE;
            case "list" -> Builtin.LIST;
            case "dict" -> Builtin.DICT;
            case "set" -> Builtin.SET;
            case "frozenset" -> Builtin.FROZENSET;
            case "cell" -> Builtin.CELL;
            case "ellipsis" -> Builtin.ELLIPSIS;
            case "NotImplementedType" -> Builtin.NOT_IMPLEMENTED;
            default -> Builtin.OTHER;
        };
        return new PyType(name, builtin);
    }
}
