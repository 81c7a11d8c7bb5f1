package dev.remora.domain.offsets;

import java.util.OptionalInt;

/**
 * The values of a generator's or coroutine's {@code gi_frame_state} ({@code PyFrameState} in
 * {@code Include/internal/pycore_frame.h}), which CPython renumbered in 3.15. The field is an
 * {@code int8_t}: read it signed.
 *
 * @param suspendedYieldFromLocked 3.15's transient variant of "suspended in yield from / await",
 *     held while another thread inspects the awaited object; absent before 3.15
 * @param completed absent in 3.15, where a finished generator goes straight to cleared
 */
public record GeneratorStates(int created, int suspended, int suspendedYieldFrom,
                              OptionalInt suspendedYieldFromLocked, int executing, OptionalInt completed,
                              int cleared) {

    /** Suspended in {@code await} or {@code yield from}: the awaited object sits on its value stack. */
    public boolean awaiting(int state) {
        return state == suspendedYieldFrom
                || suspendedYieldFromLocked.isPresent() && state == suspendedYieldFromLocked.getAsInt();
    }

    /** The frame was cleared: there is nothing left to show. */
    public boolean cleared(int state) {
        return state == cleared;
    }

    /** Whether the value is one of the states at all; anything else means the object is not a generator. */
    public boolean isValid(int state) {
        return state == created || state == suspended || state == executing || state == cleared || awaiting(state)
                || completed.isPresent() && state == completed.getAsInt();
    }
}
