package dev.remora.domain.model;

import java.util.List;
import java.util.Optional;

/**
 * A frame's variables, arguments first, in the order its code object names them; unbound ones are
 * left out, as {@code locals()} leaves them out.
 *
 * @param problem why no variables (or not all) could be listed, when something was unreadable
 */
public record FrameVariables(List<LocalVariable> variables, Optional<String> problem) {

    public static final FrameVariables NONE = new FrameVariables(List.of(), Optional.empty());

    public FrameVariables {
        variables = List.copyOf(variables);
    }

    public static FrameVariables unreadable(String why) {
        return new FrameVariables(List.of(), Optional.of(why));
    }
}
