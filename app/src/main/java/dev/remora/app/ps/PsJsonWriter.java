package dev.remora.app.ps;

import dev.remora.app.output.Json;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code remora ps --format json}: an array of objects with {@code pid}, {@code ppid},
 * {@code python_version}, {@code threads}, {@code command}, and {@code error} where a process could
 * not be read (its version and threads are then null); the key names are a stable interface.
 */
public final class PsJsonWriter {

    private PsJsonWriter() {}

    public static void write(List<PythonProcessRow> rows, PrintWriter out) {
        StringBuilder b = new StringBuilder("[");
        String sep = "";
        for (PythonProcessRow row : rows) {
            b.append(sep).append("{\"pid\": ").append(row.pid())
                    .append(", \"ppid\": ").append(row.parent())
                    .append(", \"python_version\": ").append(row.pythonVersion().map(Json::string).orElse("null"))
                    .append(", \"threads\": ").append(row.threads().isPresent() ? Integer.toString(row.threads().getAsInt()) : "null")
                    .append(", \"command\": ").append(Json.string(row.commandLine()));
            row.error().ifPresent(why -> b.append(", \"error\": ").append(Json.string(why)));
            b.append('}');
            sep = ", ";
        }
        out.println(b.append(']'));
        out.flush();
    }
}
