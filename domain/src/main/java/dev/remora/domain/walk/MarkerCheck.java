package dev.remora.domain.walk;

/**
 * What a read-back of a walked stack must also see of the thread's frame marker (CPython 3.15+).
 *
 * @param field where the thread state keeps the marker; it follows the current-frame field
 * @param value the marker value that must still stand
 * @param held the marker was proven on a frame of the last proven stack and has not moved since:
 *     a marked current frame was then not popped while it was read (the target would have moved the
 *     marker), and its links need no second read (its instruction moves on anyway)
 */
record MarkerCheck(long field, long value, boolean held) {

    /** The marker is not looked at. */
    static final MarkerCheck NONE = new MarkerCheck(0, 0, false);

    /** The marker must still read {@code value}. */
    static MarkerCheck stands(long field, long value) {
        return new MarkerCheck(field, value, false);
    }

    /** The marker must still read {@code value}, which was proven on the last stack and has not moved. */
    static MarkerCheck held(long field, long value) {
        return new MarkerCheck(field, value, true);
    }

    boolean checked() {
        return this != NONE;
    }
}
