package dev.remora.ports.elf;

/** An ELF string table: names that end in a NUL byte, found by their offset in the table. */
public final class ElfStrings {

    private ElfStrings() {}

    /** Whether the name at {@code offset} in {@code table} is {@code wanted}; false for an offset outside it. */
    public static boolean nameIs(byte[] table, long offset, byte[] wanted) {
        if (offset < 0 || offset + wanted.length >= table.length) {
            return false;
        }
        for (int i = 0; i < wanted.length; i++) {
            if (table[(int) offset + i] != wanted[i]) {
                return false;
            }
        }
        return table[(int) offset + wanted.length] == 0;
    }
}
