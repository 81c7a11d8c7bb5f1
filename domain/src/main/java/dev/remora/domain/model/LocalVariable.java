package dev.remora.domain.model;

/**
 * One variable of a frame, as read from the target's memory: never by running code in it.
 *
 * @param type the value's type name ({@code tp_name}), or {@code ?} when it could not be read
 * @param repr the value as Python's {@code repr()} would show it (exactly so for None, bool, int,
 *     float, short str and bytes), bounded for long and nested values; {@code <unreadable: why>}
 *     when the value could not be read
 * @param address where the value's object lives in the target
 */
public record LocalVariable(String name, VariableKind kind, String type, String repr, long address) {}
