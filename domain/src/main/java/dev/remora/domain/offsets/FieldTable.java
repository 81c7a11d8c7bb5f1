package dev.remora.domain.offsets;

import java.util.OptionalLong;

/**
 * Named layout values of one CPython build ({@code "thread_state.prev"}, {@code "code_object.size"}):
 * read from the target's own {@code _Py_DebugOffsets} (3.13+), or from a table generated from the
 * headers of versions that export none. Both feed the same validating decoder.
 */
interface FieldTable {

    /** The value, or empty when this version has no such field. */
    OptionalLong value(String name);

    /** Where the values come from, for error messages: "debug offsets", "the CPython 3.12 table". */
    String source();
}
