package dev.remora.app.agent;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** The agent's log: one line per event, each with its time, on standard error (a service's journal). */
public final class AgentLog {

    private final PrintWriter err;

    public AgentLog(PrintWriter err) {
        this.err = err;
    }

    public void line(String text) {
        String stamped = Instant.now().truncatedTo(ChronoUnit.MILLIS) + " remora agent: " + text;
        synchronized (err) {
            err.println(stamped);
            err.flush();
        }
    }
}
