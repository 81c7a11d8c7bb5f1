package dev.remora.app.output.json;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;

import java.io.IOException;
import java.util.List;

/**
 * Frames as {@code dump --format json} and the asyncio graph's call stacks write them, innermost
 * first: {@code [{function, file, line, end_line, column, end_column}]}, absent positions null.
 */
public final class JsonFrames {

    private JsonFrames() {}

    public static void write(JsonWriter json, List<FrameInfo> frames) throws IOException {
        json.beginArray();
        for (FrameInfo frame : frames) {
            SourceLocation at = frame.location();
            json.beginObject()
                    .name("function").value(frame.function())
                    .name("file").value(frame.file())
                    .name("line").optional(at.line())
                    .name("end_line").optional(at.endLine())
                    .name("column").optional(at.column())
                    .name("end_column").optional(at.endColumn())
                    .endObject();
        }
        json.endArray();
    }
}
