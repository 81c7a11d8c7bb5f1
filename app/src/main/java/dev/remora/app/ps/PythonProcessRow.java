package dev.remora.app.ps;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One Python process of {@code remora ps}.
 *
 * @param pythonVersion the CPython release, when it could be read
 * @param threads its Python threads (thread states, every interpreter), when they could be read
 * @param error why the process could not be read, when it could not
 */
public record PythonProcessRow(int pid, int parent, Optional<String> pythonVersion, OptionalInt threads,
                               List<String> command, Optional<String> error) {

    static PythonProcessRow read(int pid, int parent, String pythonVersion, int threads, List<String> command) {
        return new PythonProcessRow(pid, parent, Optional.of(pythonVersion), OptionalInt.of(threads), command, Optional.empty());
    }

    static PythonProcessRow unreadable(int pid, int parent, List<String> command, String why) {
        return new PythonProcessRow(pid, parent, Optional.empty(), OptionalInt.empty(), command, Optional.of(why));
    }

    /** The command line as one string, as ps shows it. */
    public String commandLine() {
        return String.join(" ", command);
    }
}
