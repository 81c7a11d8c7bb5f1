package dev.remora.app.output.json;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.nativestack.MixedStack;
import dev.remora.domain.nativestack.NativeFrame;
import dev.remora.domain.nativestack.StackEntry;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A merged stack's frames, innermost first: Python frames as {@link JsonFrames} writes them with
 * {@code "kind": "python"}, C frames as {@code {kind: "native", symbol, offset, library, path, address}}
 * and, where the module's line table gives them, {@code file} and {@code line} (a missing symbol or
 * library null).
 */
public final class JsonMixedFrames {

    private JsonMixedFrames() {}

    /**
     * @param python the thread's Python frames, which the stack's Python entries index
     * @param variables one per Python frame, or empty
     */
    public static void write(JsonWriter json, MixedStack stack, List<FrameInfo> python, List<FrameVariables> variables)
            throws IOException {
        json.beginArray();
        for (StackEntry entry : stack.entries()) {
            json.beginObject();
            switch (entry) {
                case StackEntry.Python p -> {
                    json.name("kind").value("python");
                    JsonFrames.fields(json, python.get(p.index()),
                            variables.isEmpty() ? Optional.empty() : Optional.of(variables.get(p.index())));
                }
                case StackEntry.Native c -> nativeFields(json, c.frame());
            }
            json.endObject();
        }
        json.endArray();
    }

    private static void nativeFields(JsonWriter json, NativeFrame frame) throws IOException {
        json.name("kind").value("native")
                .name("symbol").value(frame.symbol().orElse(null))
                .name("offset").value("0x" + Long.toHexString(frame.offset()))
                .name("library").value(frame.library().orElse(null))
                .name("path").value(frame.path().orElse(null))
                .name("address").value("0x" + Long.toHexString(frame.pc()));
        if (frame.source().isPresent() && frame.source().get().line() > 0) {
            json.name("file").value(frame.source().get().file()).name("line").value(frame.source().get().line());
        }
    }
}
