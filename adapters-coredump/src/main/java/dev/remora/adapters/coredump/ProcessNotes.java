package dev.remora.adapters.coredump;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Who the core is of: the process id and command from NT_PRPSINFO, and one thread per NT_PRSTATUS.
 * Offsets are those of x86-64's {@code struct elf_prpsinfo} and {@code struct elf_prstatus}.
 *
 * @param threadIds sorted, as a live process's /proc/PID/task lists them
 * @param command the process's comm (its main thread's name), empty when the core has no NT_PRPSINFO
 */
record ProcessNotes(int pid, List<Long> threadIds, Optional<String> command) {

    private static final int PRSTATUS_PID = 32;
    private static final int PRPSINFO_PID = 24;
    private static final int PRPSINFO_FNAME = 40;
    private static final int FNAME_SIZE = 16;

    static ProcessNotes read(CoreBytes core, List<Note> notes) throws CoreFileException {
        TreeSet<Long> threads = new TreeSet<>();
        long firstThread = 0;
        long psinfoPid = 0;
        Optional<String> command = Optional.empty();
        for (Note n : notes) {
            if (n.is(Note.CORE, Note.NT_PRSTATUS)) {
                requireSize(core, n, PRSTATUS_PID + 4, "NT_PRSTATUS");
                long tid = positive(core, core.u32(n.descOffset() + PRSTATUS_PID), "NT_PRSTATUS");
                firstThread = firstThread == 0 ? tid : firstThread;
                threads.add(tid);
            } else if (n.is(Note.CORE, Note.NT_PRPSINFO) && psinfoPid == 0) {
                requireSize(core, n, PRPSINFO_FNAME + FNAME_SIZE, "NT_PRPSINFO");
                psinfoPid = positive(core, core.u32(n.descOffset() + PRPSINFO_PID), "NT_PRPSINFO");
                command = comm(core, n.descOffset() + PRPSINFO_FNAME);
            }
        }
        // The kernel writes the dumping thread's NT_PRSTATUS first, which need not be the main thread.
        long pid = psinfoPid != 0 ? psinfoPid : firstThread;
        if (pid == 0) {
            throw new CoreFileException.Corrupt(core.name()
                    + " is corrupt: it has neither an NT_PRPSINFO nor an NT_PRSTATUS note, so it names no process");
        }
        return new ProcessNotes((int) pid, List.copyOf(threads), command);
    }

    private static void requireSize(CoreBytes core, Note n, int needed, String what) throws CoreFileException {
        if (n.descSize() < needed) {
            throw new CoreFileException.Corrupt("%s is corrupt: an %s note has %d bytes, fewer than the %d it needs"
                    .formatted(core.name(), what, n.descSize(), needed));
        }
    }

    /** Process and thread ids are positive ints (pid_t); anything else is not a real process. */
    private static long positive(CoreBytes core, long id, String what) throws CoreFileException {
        if (id <= 0 || id > Integer.MAX_VALUE) {
            throw new CoreFileException.Corrupt("%s is corrupt: an %s note names process id %d".formatted(core.name(), what, id));
        }
        return id;
    }

    private static Optional<String> comm(CoreBytes core, long at) {
        byte[] bytes = new byte[FNAME_SIZE];
        core.copy(at, bytes, 0, FNAME_SIZE);
        int end = 0;
        while (end < FNAME_SIZE && bytes[end] != 0) {
            end++;
        }
        return end == 0 ? Optional.empty() : Optional.of(new String(bytes, 0, end, StandardCharsets.UTF_8));
    }
}
