package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.PyText;
import dev.remora.domain.model.FrameInfo;

/**
 * How pstats names a function: {@code (filename, lineno, funcname)}. By function ({@link PstatsRows}),
 * the line is the one its code starts on, as in cProfile; by executing line, the one being executed
 * when sampled, as in CPython 3.15's sampling profiler, where one function at several lines is
 * several keys.
 */
record PstatsKey(String file, int line, String function) {

    /**
     * The key of a frame; frames without a line (pseudo frames) get line 0, as CPython writes them. A
     * C frame is keyed as cProfile keys builtins, {@code ("~", 0, "<function (library)>")}, which pstats
     * shows as {@code {function (library)}}.
     */
    static PstatsKey of(FrameInfo frame, PstatsRows rows) {
        if (frame.isNative()) {
            return new PstatsKey("~", 0, "<" + frame.function() + " (" + PyText.basename(frame.file()) + ")>");
        }
        if (rows == PstatsRows.FUNCTIONS && frame.firstLine() > 0) {
            return new PstatsKey(frame.file(), frame.firstLine(), frame.function());
        }
        return new PstatsKey(frame.file(), frame.location().hasLine() ? frame.location().line() : 0, frame.function());
    }

    /** The key with the file's directories removed, as {@code pstats.Stats.strip_dirs()} does. */
    PstatsKey stripDirs() {
        return new PstatsKey(PyText.basename(file), line, function);
    }

    /** {@code str(key)} in Python: what the "name" order compares. */
    String pythonStr() {
        return "(" + PyText.repr(file) + ", " + line + ", " + PyText.repr(function) + ")";
    }

    /** {@code file:line(function)}, how the table shows a key. */
    String label() {
        return file + ":" + line + "(" + function + ")";
    }
}
