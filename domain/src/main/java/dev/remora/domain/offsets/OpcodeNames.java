package dev.remora.domain.offsets;

import java.util.List;

/** Reads a version's generated instruction names (see {@code scripts/version-tables/opcodes.py}). */
final class OpcodeNames {

    private static final int OPCODES = 256;

    private OpcodeNames() {}

    /** 256 comma-separated names, empty for unused opcodes. */
    static List<String> parse(String commaSeparated) {
        List<String> names = List.of(commaSeparated.split(",", -1));
        if (names.size() != OPCODES) {
            throw new IllegalArgumentException("an opcode table has " + names.size() + " names, not " + OPCODES);
        }
        return names;
    }
}
