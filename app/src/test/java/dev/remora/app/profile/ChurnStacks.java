package dev.remora.app.profile;

import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The churn target (targets/churn.py) and its call graph: which stacks of its main thread can exist.
 * Stacks are the main thread's functions, root first, joined by "|".
 */
final class ChurnStacks {

    private static final Set<String> CALLS = Set.of("dispatch|a", "dispatch|b", "dispatch|c", "dispatch|d",
            "a|b", "a|c", "b|leaf", "c|d", "d|leaf");

    private final int depth;
    private final Set<String> calls = new HashSet<>(CALLS);

    /** @param depth the levels of descend() under dispatch, 0 for none */
    ChurnStacks(int depth) {
        this.depth = depth;
        calls.addAll(depth == 0 ? List.of("<module>|dispatch")
                : List.of("<module>|descend", "descend|descend", "descend|dispatch"));
    }

    /** A started target; closing it kills it. */
    record Running(Process process) implements AutoCloseable {
        int pid() {
            return (int) process.pid();
        }

        @Override
        public void close() {
            ParkedTarget.kill(process);
        }
    }

    /** Starts a target (a script from targets/, with arguments) and waits for its READY line. */
    static Running start(TargetInterpreter python, ScratchDir dir, String script, String... args) throws Exception {
        Running target = new Running(new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/" + script),
                List.of(args))).start());
        try {
            assertThat(new BufferedReader(new InputStreamReader(target.process().getInputStream(), StandardCharsets.UTF_8))
                    .readLine()).isEqualTo("READY");
        } catch (Exception | AssertionError e) {
            target.close();
            throw e;
        }
        return target;
    }

    /** This churn target, at this depth. */
    Running start(TargetInterpreter python, ScratchDir dir) throws Exception {
        return depth == 0 ? start(python, dir, "churn.py") : start(python, dir, "churn.py", String.valueOf(depth));
    }

    /** The main thread's stack in one snapshot, or empty when the walk was rejected. */
    static Optional<String> mainStack(PythonProcess process, SnapshotOptions options) throws InspectionException {
        ThreadStack main = process.snapshot(options).interpreters().getFirst().threads().getFirst();
        if (main.problem().isPresent()) {
            return Optional.empty();
        }
        List<String> functions = new ArrayList<>();
        for (FrameInfo f : main.frames().reversed()) {
            functions.add(f.function());
        }
        return Optional.of(String.join("|", functions));
    }

    /**
     * The main thread's stacks over at least {@code walks} walks, and on (up to ten times as many) until
     * it showed more than three distinct stacks and {@code alsoWanted} holds: a target starved of CPU
     * for a moment shows one stack throughout.
     */
    static List<String> mainStacks(PythonProcess process, SnapshotOptions options, int walks,
                                   java.util.function.BooleanSupplier alsoWanted) throws InspectionException {
        List<String> stacks = new ArrayList<>();
        Set<String> distinct = new HashSet<>();
        for (int i = 0; i < walks || i < 10 * walks && (distinct.size() <= 3 || !alsoWanted.getAsBoolean()); i++) {
            Optional<String> stack = mainStack(process, options);
            if (stack.isPresent()) {
                stacks.add(stack.get());
                distinct.add(stack.get());
            }
        }
        return stacks;
    }

    /** The stacks that break the call graph or have another number of descend() levels. */
    List<String> impossible(Collection<String> stacks) {
        List<String> bad = new ArrayList<>();
        for (String stack : stacks) {
            String[] f = stack.split("\\|");
            boolean ok = Arrays.stream(f).filter("descend"::equals).count() == depth;
            for (int i = 0; ok && i + 1 < f.length; i++) {
                ok = calls.contains(f[i] + "|" + f[i + 1]);
            }
            if (!ok) {
                bad.add(stack);
            }
        }
        return bad;
    }
}
