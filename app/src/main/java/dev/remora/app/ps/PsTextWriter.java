package dev.remora.app.ps;

import java.io.PrintWriter;
import java.util.List;

/** {@code remora ps} as a table; a process that could not be read says why on its own line. */
public final class PsTextWriter {

    private PsTextWriter() {}

    public static void write(List<PythonProcessRow> rows, PrintWriter out) {
        out.printf("%-8s %-8s %-10s %-8s %s%n", "PID", "PPID", "PYTHON", "THREADS", "COMMAND");
        for (PythonProcessRow row : rows) {
            out.printf("%-8d %-8d %-10s %-8s %s%n", row.pid(), row.parent(), row.pythonVersion().orElse("?"),
                    row.threads().isPresent() ? Integer.toString(row.threads().getAsInt()) : "?", row.commandLine());
            row.error().ifPresent(why -> out.printf("         (not read: %s)%n", why));
        }
        if (rows.isEmpty()) {
            out.println("(no Python processes)");
        }
        out.flush();
    }
}
