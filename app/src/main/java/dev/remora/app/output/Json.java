package dev.remora.app.output;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;

import java.util.List;

/** The few pieces of JSON syntax the writers need; keeps the app free of a JSON library. */
public final class Json {

    private Json() {}

    /**
     * A JSON string. Names come from the target and can hold anything a Python str can, lone
     * surrogates included: those are escaped, so the document stays valid in any encoding.
     */
    public static String string(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        appendString(b, s);
        return b.toString();
    }

    public static void appendString(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
                    if (paired) {
                        b.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c)) {
                        b.append("\\u%04x".formatted((int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /** A JSON array of frames, each {@code {function, file, line, end_line, column, end_column}}. */
    public static void appendFrames(StringBuilder b, List<FrameInfo> frames) {
        b.append('[');
        String sep = "";
        for (FrameInfo f : frames) {
            SourceLocation l = f.location();
            b.append(sep).append("{\"function\": ");
            appendString(b, f.function());
            b.append(", \"file\": ");
            appendString(b, f.file());
            b.append(", \"line\": ").append(optionalNumber(l.line()))
                    .append(", \"end_line\": ").append(optionalNumber(l.endLine()))
                    .append(", \"column\": ").append(optionalNumber(l.column()))
                    .append(", \"end_column\": ").append(optionalNumber(l.endColumn()))
                    .append('}');
            sep = ", ";
        }
        b.append(']');
    }

    /** A number, or null where the value is absent (negative). */
    public static String optionalNumber(int value) {
        return value < 0 ? "null" : Integer.toString(value);
    }
}
