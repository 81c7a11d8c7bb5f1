package dev.remora.app.testing;

import java.util.List;

/**
 * What targets/parked_threads.py promises: its threads' names and the functions (co_qualname) and
 * files they park in, innermost first. Each thread is blocked acquiring a lock that is never
 * released, so its stack does not change while a test reads it.
 */
public final class ParkedThreads {

    public static final String SCRIPT = "targets/parked_threads.py";

    /** The number of {@link #RECURSE} frames on the deep-recursion thread unless a depth is given. */
    public static final int DEFAULT_DEPTH = 3000;
    /** A depth CPython 3.15's unwinder still reads (it refuses stacks beyond 1536 frames). */
    public static final int CPYTHON_READABLE_DEPTH = 1000;

    public static final String MAIN = "MainThread";
    public static final String DEEP_RECURSION = "deep-recursion";
    public static final String CLOSURE = "closure";
    public static final String GENERATOR = "generator";
    public static final String COROUTINE = "coroutine";
    public static final String NAME_UCS1 = "name-ucs1";
    public static final String NAME_UCS2 = "name-ucs2";
    public static final String NAME_UCS4 = "name-ucs4";
    public static final String FILE_UCS1 = "file-ucs1";
    public static final String FILE_UCS2 = "file-ucs2";
    public static final String EXEC_UCS4 = "exec-ucs4";

    public static final List<String> THREAD_NAMES = List.of(MAIN, DEEP_RECURSION, CLOSURE, GENERATOR, COROUTINE,
            NAME_UCS1, NAME_UCS2, NAME_UCS4, FILE_UCS1, FILE_UCS2, EXEC_UCS4);

    /** The shared park function of the deep-recursion, closure, generator and coroutine threads. */
    public static final String PARK = "park";
    public static final String RECURSE = "recurse";

    /** Innermost frames of each thread (below them: threading's Thread.run and bootstrap frames). */
    public static final List<String> MAIN_STACK = List.of("main_park", "main", "<module>");
    public static final List<String> CLOSURE_STACK =
            List.of(PARK, "Outer.Inner.method.<locals>.closure", "Outer.Inner.method", "run_closure");
    public static final List<String> GENERATOR_STACK = List.of(PARK, "parking_generator", "iterate_generator");
    public static final List<String> COROUTINE_STACK = List.of(PARK, "inner", "outer", "drive_coroutine");
    /**
     * The functions as {@code python} names its frames: 3.10 has no qualified names, only the last part
     * ({@code Outer.Inner.method.<locals>.closure} is {@code closure}).
     */
    public static List<String> named(TargetInterpreter python, List<String> qualnames) {
        return python.isAtLeast(3, 11) ? qualnames
                : qualnames.stream().map(q -> q.substring(q.lastIndexOf('.') + 1)).toList();
    }

    /** Then DEPTH x {@link #RECURSE}, then run_deep_recursion. */
    public static final String DEEP_RECURSION_BOTTOM = "run_deep_recursion";

    /** Park functions whose names are one-, two- and four-byte compact strings. */
    public static final String PARK_UCS1 = "park_é";
    public static final String PARK_UCS2 = "停车";
    public static final String PARK_UCS4 = "f_𐐀";

    /** Modules written at runtime next to OUT.json; a thread parks in each one's park_in_module. */
    public static final String MODULE_FILE_UCS1 = "módulo_é.py";
    public static final String MODULE_FILE_UCS2 = "模块.py";
    public static final List<String> MODULE_STACK = List.of("park_in_module", "run_in_module");

    /** exec'd code: exec_park inside the code's module frame, both with this pseudo file name. */
    public static final String EXEC_FILE = "<exec 𐐀>";
    public static final List<String> EXEC_STACK = List.of("exec_park", "<module>", "run_exec");

    private ParkedThreads() {}

    public static ParkedTarget start(TargetInterpreter interpreter) {
        return ParkedTarget.start(interpreter, SCRIPT);
    }

    public static ParkedTarget start(TargetInterpreter interpreter, int depth) {
        return ParkedTarget.start(interpreter, SCRIPT, List.of(Integer.toString(depth)));
    }
}
