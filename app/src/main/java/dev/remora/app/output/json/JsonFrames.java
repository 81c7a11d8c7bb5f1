package dev.remora.app.output.json;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.model.LocalVariable;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Frames as {@code dump --format json} and the asyncio graph's call stacks write them, innermost
 * first: {@code [{function, file, line, end_line, column, end_column}]}, absent positions null.
 */
public final class JsonFrames {

    private JsonFrames() {}

    public static void write(JsonWriter json, List<FrameInfo> frames) throws IOException {
        write(json, frames, List.of());
    }

    /**
     * Frames with, when {@code variables} is not empty (one per frame), each frame's {@code locals}:
     * {@code [{name, kind, type, repr, address}]}, and {@code locals_problem} where they could not all
     * be read.
     */
    public static void write(JsonWriter json, List<FrameInfo> frames, List<FrameVariables> variables) throws IOException {
        json.beginArray();
        for (int f = 0; f < frames.size(); f++) {
            json.beginObject();
            fields(json, frames.get(f), variables.isEmpty() ? Optional.empty() : Optional.of(variables.get(f)));
            json.endObject();
        }
        json.endArray();
    }

    /** One frame's fields, inside an object the caller opened. */
    static void fields(JsonWriter json, FrameInfo frame, Optional<FrameVariables> variables) throws IOException {
        SourceLocation at = frame.location();
        json.name("function").value(frame.function())
                .name("file").value(frame.file())
                .name("line").optional(at.line())
                .name("end_line").optional(at.endLine())
                .name("column").optional(at.column())
                .name("end_column").optional(at.endColumn());
        if (variables.isPresent()) {
            locals(json, variables.get());
        }
    }

    private static void locals(JsonWriter json, FrameVariables variables) throws IOException {
        json.name("locals").beginArray();
        for (LocalVariable v : variables.variables()) {
            json.beginObject().name("name").value(v.name()).name("kind").value(v.kind().label())
                    .name("type").value(v.type()).name("repr").value(v.repr())
                    .name("address").value("0x" + Long.toHexString(v.address())).endObject();
        }
        json.endArray();
        if (variables.problem().isPresent()) {
            json.name("locals_problem").value(variables.problem().get());
        }
    }
}
