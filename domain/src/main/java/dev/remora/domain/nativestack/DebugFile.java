package dev.remora.domain.nativestack;

import java.util.Optional;

/** What a module's separate debug file adds: its full symbol table, and its {@code .debug_frame}. */
record DebugFile(SymbolTable symbols, Optional<FdeTable> debugFrame) {

    static final DebugFile NONE = new DebugFile(SymbolTable.EMPTY, Optional.empty());
}
