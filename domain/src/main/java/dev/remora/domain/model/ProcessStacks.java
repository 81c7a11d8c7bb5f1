package dev.remora.domain.model;

import dev.remora.domain.offsets.PythonVersion;

import java.util.List;

/** A snapshot of every requested stack of one Python process. */
public record ProcessStacks(int pid, PythonVersion pythonVersion, String backend,
                           List<InterpreterStacks> interpreters) {
    public ProcessStacks {
        interpreters = List.copyOf(interpreters);
    }
}
