package dev.remora.app.output.dump;

import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.model.LocalVariable;
import dev.remora.domain.model.VariableKind;

import java.util.ArrayList;
import java.util.List;

/**
 * A frame's variables as text dumps show them under the frame: arguments first, then the other
 * variables, each {@code name = repr}; cells and frees say so.
 */
public final class VariableLines {

    private VariableLines() {}

    public static List<String> of(FrameVariables variables) {
        List<String> lines = new ArrayList<>();
        List<LocalVariable> arguments = variables.variables().stream().filter(v -> v.kind() == VariableKind.ARGUMENT).toList();
        List<LocalVariable> others = variables.variables().stream().filter(v -> v.kind() != VariableKind.ARGUMENT).toList();
        if (!arguments.isEmpty()) {
            lines.add("    Arguments:");
            arguments.forEach(v -> lines.add(line(v)));
        }
        if (!others.isEmpty()) {
            lines.add("    Locals:");
            others.forEach(v -> lines.add(line(v)));
        }
        variables.problem().ifPresent(p -> lines.add("    [" + p + "]"));
        return lines;
    }

    private static String line(LocalVariable v) {
        String kind = v.kind() == VariableKind.CELL || v.kind() == VariableKind.FREE ? " (" + v.kind().label() + ")" : "";
        return "      %s%s = %s".formatted(v.name(), kind, v.repr());
    }
}
