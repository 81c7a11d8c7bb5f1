package dev.remora.app.output.profile.binary;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The string and frame tables of a capture, filled as frames are first met. A frame of the format is
 * a location and an opcode, so the same profile frame on two instructions is two entries.
 */
final class TachyonTables {

    private record Key(int profileFrame, int opcode) {}

    private final Map<String, Integer> strings = new LinkedHashMap<>();
    private final Map<Key, Integer> frames = new HashMap<>();
    private final ByteSink frameTable = new ByteSink();

    /** The format's index of {@code frame} (the profile's frame {@code profileFrame}) at {@code opcode} (or 255). */
    int frame(int profileFrame, FrameInfo frame, int opcode) {
        Key key = new Key(profileFrame, opcode);
        Integer known = frames.get(key);
        if (known != null) {
            return known;
        }
        int index = frames.size();
        frames.put(key, index);
        SourceLocation at = frame.location();
        int line = at.line();
        int endLine = at.endLine();
        int column = at.column();
        int endColumn = at.endColumn();
        frameTable.varint(string(frame.file())).varint(string(frame.function()))
                .zigzag(line).zigzag(line < 0 || endLine < 0 ? 0 : endLine - line)
                .zigzag(column).zigzag(column < 0 || endColumn < 0 ? 0 : endColumn - column)
                .u8(opcode);
        return index;
    }

    private int string(String s) {
        return strings.computeIfAbsent(s, k -> strings.size());
    }

    int stringCount() {
        return strings.size();
    }

    int frameCount() {
        return frames.size();
    }

    /** The string table then the frame table, as the file holds them; returns where the frame table starts in {@code out}. */
    int write(ByteSink out) {
        for (String s : strings.keySet()) {
            out.string(s);
        }
        int framesAt = out.size();
        out.bytes(frameTable.toArray());
        return framesAt;
    }
}
