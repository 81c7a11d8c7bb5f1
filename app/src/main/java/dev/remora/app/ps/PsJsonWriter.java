package dev.remora.app.ps;

import dev.remora.app.output.json.JsonWriter;

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
        out.println(JsonWriter.text(json -> {
            json.beginArray();
            for (PythonProcessRow row : rows) {
                json.beginObject()
                        .name("pid").value(row.pid())
                        .name("ppid").value(row.parent())
                        .name("python_version").value(row.pythonVersion().orElse(null))
                        .name("threads");
                if (row.threads().isPresent()) {
                    json.value(row.threads().getAsInt());
                } else {
                    json.nullValue();
                }
                json.name("command").value(row.commandLine());
                if (row.error().isPresent()) {
                    json.name("error").value(row.error().get());
                }
                json.endObject();
            }
            json.endArray();
        }));
        out.flush();
    }
}
