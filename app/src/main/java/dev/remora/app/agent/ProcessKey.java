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

    /** The process whatever its command line says now: a program may rewrite it (setproctitle) as it runs. */
    Identity identity() {
        return new Identity(pid, startTicks);
    }

    /** One process for as long as it lives. */
    record Identity(int pid, long startTicks) {}
}
