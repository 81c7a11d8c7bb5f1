package dev.remora.domain.nativestack;

import java.util.Objects;
import java.util.Optional;

/**
 * One C frame of a thread.
 *
 * @param pc the frame's instruction address: the interrupted instruction for the innermost frame (and
 *     for a frame a signal interrupted), the return address for the others
 * @param sp the stack pointer in this frame; with {@code cfa} it bounds the frame's stack area
 *     {@code [sp, cfa)}
 * @param cfa the canonical frame address (the caller's stack pointer before the call); equal to
 *     {@code sp} when the walk could not tell where the frame ends
 * @param symbol the function containing the pc, when the module's symbols name one
 * @param offset {@code pc - symbol start} when there is a symbol; without one, the pc in the module
 *     file's own (link-time) addresses, what addr2line takes; 0 outside any module
 * @param library the base name of {@code path}
 * @param path the mapped file as the target names it ({@code [vdso]} for the kernel's helper)
 * @param source the file and line of the code, where the module's line table gives them (dumps only)
 * @param linkAddress the function's start, or the pc where no symbol names one, in the module file's
 *     own (link-time) addresses: the same in every process that maps the file; 0 outside any module
 */
public record NativeFrame(long pc, long sp, long cfa, Optional<String> symbol, long offset,
                          Optional<String> library, Optional<String> path, Optional<SourceLine> source, long linkAddress) {

    public NativeFrame {
        Objects.requireNonNull(symbol);
        Objects.requireNonNull(library);
        Objects.requireNonNull(path);
        Objects.requireNonNull(source);
    }

    /** A frame without a source position. */
    public NativeFrame(long pc, long sp, long cfa, Optional<String> symbol, long offset, Optional<String> library,
                       Optional<String> path, long linkAddress) {
        this(pc, sp, cfa, symbol, offset, library, path, Optional.empty(), linkAddress);
    }

    /** The same frame at {@code line} of its source. */
    public NativeFrame at(Optional<SourceLine> line) {
        return new NativeFrame(pc, sp, cfa, symbol, offset, library, path, line, linkAddress);
    }

    @Override
    public String toString() {
        return "0x%x %s+0x%x (%s) sp=0x%x cfa=0x%x".formatted(pc, symbol.orElse("??"), offset,
                library.orElse("?"), sp, cfa);
    }
}
