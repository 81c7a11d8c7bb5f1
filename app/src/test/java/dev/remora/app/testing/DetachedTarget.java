package dev.remora.app.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A target started through a shell so that it is not this JVM's child: a JVM waits on its children
 * and would take their ptrace stops (--blocking, --native-frames) for their exit.
 */
public record DetachedTarget(Process shell, int pid, BufferedReader output) implements AutoCloseable {

    /**
     * Starts {@code script} (a resource under {@code targets/}) and waits for the line it prints when
     * ready ({@code ready}, or any line if null).
     */
    public static DetachedTarget start(TargetInterpreter python, ScratchDir dir, String script, List<String> args, String ready)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "\"$@\" & echo $!; wait", "sh"));
        command.addAll(python.scriptCommand(dir.copyResource("targets/" + script), args));
        Process shell = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
        DetachedTarget target = new DetachedTarget(shell, Integer.parseInt(out.readLine().strip()), out);
        try {
            String line = out.readLine();
            if (ready != null) {
                assertThat(line).isEqualTo(ready);
            }
        } catch (Throwable notReady) {
            target.close();
            throw notReady;
        }
        return target;
    }

    /** Each thread's state letter, from /proc; '?' for one that ended while the list was read. */
    public List<Character> threadStates() throws Exception {
        List<Character> states = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc", Integer.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    states.add(stat.charAt(stat.lastIndexOf(')') + 2));
                } catch (NoSuchFileException ended) {
                    states.add('?');
                }
            }
        }
        return states;
    }

    public boolean alive() {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public void close() {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        shell.destroyForcibly();
    }
}
