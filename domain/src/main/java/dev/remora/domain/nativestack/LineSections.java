package dev.remora.domain.nativestack;

import dev.remora.ports.elf.ElfSectionHeader;

import java.util.Optional;

/**
 * The sections a module's line table is read from ({@code .debug_line} and the string sections it
 * names), kept as read until the table is first asked for: dumps ask, profiles do not.
 */
record LineSections(byte[] debugLine, byte[] debugLineStr, byte[] debugStr) {

    static final LineSections NONE = new LineSections(new byte[0], new byte[0], new byte[0]);

    static LineSections of(ElfImage image) {
        return new LineSections(section(image, ".debug_line"), section(image, ".debug_line_str"), section(image, ".debug_str"));
    }

    /** Whether the image had a line table to read. */
    boolean present() {
        return debugLine.length > 0;
    }

    /** The line table, or empty when there is none or it does not decode: frames then go without lines. */
    Optional<LineTable> table() {
        if (!present()) {
            return Optional.empty();
        }
        try {
            return Optional.of(LineTable.of(debugLine, debugLineStr, debugStr));
        } catch (NativeDataException e) {
            return Optional.empty();
        }
    }

    private static byte[] section(ElfImage image, String name) {
        Optional<ElfSectionHeader> header = image.section(name);
        if (header.isEmpty()) {
            return new byte[0];
        }
        try {
            return image.contents(header.get());
        } catch (NativeDataException e) {
            return new byte[0];
        }
    }
}
