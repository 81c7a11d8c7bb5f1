package dev.remora.domain.model;

/**
 * Why a thread's stack could not be read whole. Profiles count each such tick as an error under
 * its {@link Kind}; dumps show the message.
 *
 * @param rereads how many times the stack was read again before giving up
 */
public record StackProblem(Kind kind, String detail, int rereads) {

    public enum Kind {
        /** The stack moved between the reads that must agree, on every re-read. */
        MOVED("stack moved while read"),
        /** Memory the stack needs could not be read: freed meanwhile, or left out of a core. */
        UNREADABLE("unreadable memory"),
        /** What was read is not a stack: a bad frame owner, a loop, a malformed code object. */
        MALFORMED("malformed stack"),
        /** The whole walk failed before reaching the threads. */
        WALK_FAILED("walk failed"),
        /** Counted by another profiler whose capture does not say why (a replayed CPython capture). */
        UNRECORDED("reason not recorded");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** A short name for summaries. */
        public String label() {
            return label;
        }
    }

    public static StackProblem of(Kind kind, String detail) {
        return new StackProblem(kind, detail, 0);
    }

    public StackProblem afterRereads(int count) {
        return new StackProblem(kind, detail, count);
    }

    /** The text a dump shows. */
    public String message() {
        return rereads == 0 ? detail : "%s (after %d re-reads)".formatted(detail, rereads);
    }
}
