package dev.remora.domain.nativestack;

import dev.remora.ports.ZstdDecoder;
import java.util.Optional;

/**
 * The CPython 3.12.1 shared library the test machines provide, built with DWARF 5 debug info in the
 * library itself: its line table sections and its symbols. Missing, it fails the test that needs it.
 */
final class HostLibpython {

    static final String PATH = "/root/.pyenv/versions/3.12.1/lib/libpython3.12.so.1.0";

    final byte[] debugLine;
    final byte[] debugLineStr;
    final byte[] debugStr;
    final SymbolTable symbols;

    private HostLibpython(ElfImage image) throws NativeDataException {
        debugLine = contents(image, ".debug_line").orElseThrow(() -> new AssertionError(PATH + " has no .debug_line"));
        debugLineStr = contents(image, ".debug_line_str").orElse(new byte[0]);
        debugStr = contents(image, ".debug_str").orElse(new byte[0]);
        symbols = SymbolTable.read(image, image.sectionOfType(ElfImage.SHT_SYMTAB)
                .orElseThrow(() -> new AssertionError(PATH + " has no symbol table")));
    }

    static HostLibpython load() {
        if (!HostFiles.exists(PATH)) {
            throw new AssertionError(PATH + " is missing: the tests of DWARF line tables read this CPython build "
                    + "(pyenv 3.12.1, debug info in the library), which the test machines provide");
        }
        try {
            return new HostLibpython(ElfImage.read(new FileImage(HostFiles.open(PATH).orElseThrow()), ZstdDecoder.NONE));
        } catch (NativeDataException e) {
            throw new AssertionError("cannot read " + PATH + ": " + e.getMessage(), e);
        }
    }

    LineTable lineTable() throws NativeDataException {
        return LineTable.of(debugLine, debugLineStr, debugStr);
    }

    private static Optional<byte[]> contents(ElfImage image, String name) throws NativeDataException {
        var section = image.section(name);
        return section.isPresent() ? Optional.of(image.contents(section.get())) : Optional.empty();
    }
}
