package dev.remora.domain.profile;

import dev.remora.domain.model.StackProblem;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Thread ticks that gave no complete stack, counted by why. */
public record StackErrors(long[] byKind) {

    public static final StackErrors NONE = new StackErrors(new long[StackProblem.Kind.values().length]);

    public StackErrors {
        if (byKind.length != StackProblem.Kind.values().length) {
            throw new IllegalArgumentException("one count per kind of problem");
        }
        byKind = byKind.clone();
    }

    /** {@code count} errors of one kind, none of the others. */
    public static StackErrors of(StackProblem.Kind kind, long count) {
        long[] counts = new long[StackProblem.Kind.values().length];
        counts[kind.ordinal()] = count;
        return new StackErrors(counts);
    }

    public long count(StackProblem.Kind kind) {
        return byKind[kind.ordinal()];
    }

    public long total() {
        long total = 0;
        for (long n : byKind) {
            total += n;
        }
        return total;
    }

    /** The kinds that occurred, with their counts, most first. */
    public List<StackProblem.Kind> kinds() {
        List<StackProblem.Kind> kinds = new ArrayList<>();
        for (StackProblem.Kind kind : StackProblem.Kind.values()) {
            if (count(kind) > 0) {
                kinds.add(kind);
            }
        }
        kinds.sort((a, b) -> Long.compare(count(b), count(a)));
        return kinds;
    }

    /** E.g. {@code "12 stack moved while read, 3 unreadable memory"}, or {@code "none"}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        for (StackProblem.Kind kind : kinds()) {
            parts.add(String.format(Locale.ROOT, "%d %s", count(kind), kind.label()));
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StackErrors e && java.util.Arrays.equals(byKind, e.byKind);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(byKind);
    }

    @Override
    public String toString() {
        return describe();
    }
}
