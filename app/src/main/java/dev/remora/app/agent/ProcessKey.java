package dev.remora.app.agent;

import java.util.List;

/**
 * A process as the agent tells processes apart: its pid, when it started (pids are reused) and its
 * command line (a process that execs Python keeps both).
 */
record ProcessKey(int pid, long startTicks, List<String> command) {

    ProcessKey {
        command = List.copyOf(command);
    }
}
