package dev.remora.domain.model;

import java.util.Locale;

/** What a frame's variable is to its function. */
public enum VariableKind {
    /** A parameter, {@code *args} and {@code **kwargs} included. */
    ARGUMENT,
    /** Any other local variable. */
    LOCAL,
    /** A local that inner functions close over. */
    CELL,
    /** A variable of an enclosing function this one closes over. */
    FREE;

    /** As dumps name it: {@code argument}, {@code local}, {@code cell}, {@code free}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
