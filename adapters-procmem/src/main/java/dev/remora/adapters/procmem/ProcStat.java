package dev.remora.adapters.procmem;

import java.util.OptionalLong;

/**
 * The fields of a {@code /proc/PID/stat} (or {@code /proc/PID/task/TID/stat}) line that the adapters use.
 *
 * @param state the one-letter scheduler state (R, S, D, Z, ...)
 * @param parent the parent's pid (field 4; 0 when unreadable)
 * @param startTime when the process started, in clock ticks after boot; tells a pid's reuse apart
 */
record ProcStat(char state, int parent, OptionalLong startTime) {

    /** Field 22 (starttime), counted from the state, which is field 3. */
    private static final int START_TIME_INDEX = 22 - 3;

    /**
     * Parses a stat line. The command name sits in parentheses and may itself contain ") ", so the
     * fields are found after the last ") ".
     */
    static ProcStat parse(String line) {
        int close = line.lastIndexOf(") ");
        if (close < 0 || close + 2 >= line.length()) {
            throw new IllegalArgumentException("not a stat line: " + line);
        }
        String[] fields = line.substring(close + 2).strip().split(" ");
        OptionalLong startTime = OptionalLong.empty();
        if (fields.length > START_TIME_INDEX) {
            try {
                startTime = OptionalLong.of(Long.parseLong(fields[START_TIME_INDEX]));
            } catch (NumberFormatException e) {
                // Leave it unknown; the state alone is still useful.
            }
        }
        int parent;
        try {
            parent = fields.length > 1 ? Integer.parseInt(fields[1]) : 0;
        } catch (NumberFormatException e) {
            parent = 0; // unknown; the state is still useful
        }
        return new ProcStat(fields[0].charAt(0), parent, startTime);
    }

    /** A zombie or a dead task: its memory is gone even though the pid still shows. */
    boolean exited() {
        return state == 'Z' || state == 'X' || state == 'x';
    }
}
