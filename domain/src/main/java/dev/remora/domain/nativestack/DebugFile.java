package dev.remora.domain.nativestack;

import java.util.Optional;

/**
 * What a module's separate debug file adds: its full symbol table, its {@code .debug_frame}, and its
 * line table, read from the file again when first asked for (a dump's C frames; profiles never ask).
 */
record DebugFile(SymbolTable symbols, Optional<FdeTable> debugFrame, LineSource lines) {

    static final DebugFile NONE = new DebugFile(SymbolTable.EMPTY, Optional.empty(), LineSource.NONE);

    /** Reads the debug file's line table when asked. */
    interface LineSource {
        LineSource NONE = Optional::empty;

        Optional<LineTable> read();
    }
}
