package dev.remora.app.testing;

import java.time.Duration;
import java.util.List;

/**
 * CPython's own view of a process's stacks, from {@code _remote_debugging.RemoteUnwinder} run by
 * the target's interpreter in the target's root (the unwinder reads only its own version).
 *
 * <p>Known limits (CPython 3.15.2): the unwinder refuses any stack deeper than its frame limit
 * (1536 interpreter frames, counting CPython's internal entry frames), and then the whole
 * call fails with "RuntimeError: Too many stack frames" instead of cutting that one stack; start
 * the target with a smaller depth ({@link ParkedThreads#CPYTHON_READABLE_DEPTH}) to compare.
 * Thread names are unknown to it: {@link ExpectedThread#name()} is null.
 */
public final class CpythonReference {

    public static final String SCRIPT = "targets/cpython_reference.py";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private CpythonReference() {}

    /** Whether this interpreter has the RemoteUnwinder API cpython_reference.py reads (3.15's). */
    public static boolean supports(TargetInterpreter interpreter) {
        return interpreter.isAtLeast(3, 15);
    }

    /** The stacks of every thread of process {@code pid}; throws with CPython's error if the unwinder fails. */
    public static ExpectedProcess stacks(TargetInterpreter interpreter, long pid) {
        if (!supports(interpreter)) {
            throw new IllegalArgumentException(interpreter + " is older than 3.15: its RemoteUnwinder returns other structures");
        }
        try (ScratchDir dir = ScratchDir.create(interpreter, "remora-ref-")) {
            String script = dir.copyResource(SCRIPT);
            ShortProcess.Result result =
                    ShortProcess.run(interpreter.scriptCommand(script, List.of(Long.toString(pid))), TIMEOUT);
            String json = result.requireSuccess("CPython's unwinder (" + interpreter + ") reading pid " + pid);
            return StackJson.parse(json, "cpython_reference.py on " + interpreter);
        }
    }
}
