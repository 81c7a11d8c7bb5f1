package dev.remora.adapters.coredump;

import dev.remora.ports.FatalSignal;
import dev.remora.ports.ThreadRegisters;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who the core is of: the process id and command from NT_PRPSINFO, and one thread per NT_PRSTATUS.
 * Offsets are those of x86-64's {@code struct elf_prpsinfo} and {@code struct elf_prstatus}.
 *
 * @param threadIds sorted, as a live process's /proc/PID/task lists them
 * @param command the process's comm (its main thread's name), empty when the core has no NT_PRPSINFO
 * @param registers each thread's registers, for those whose NT_PRSTATUS holds them whole
 * @param fatal the signal the dumping thread took, when it took one (a core made by gcore has none)
 */
record ProcessNotes(int pid, List<Long> threadIds, Optional<String> command, Map<Long, ThreadRegisters> registers,
                    Optional<FatalSignal> fatal) {

    private static final int PRSTATUS_CURSIG = 12;
    private static final int PRSTATUS_PID = 32;
    private static final int PRSTATUS_REGS = 112;
    private static final int USER_REGS_WORDS = 27;
    private static final int SIGINFO_SIGNO = 0;
    private static final int SIGINFO_ADDR = 16;
    private static final int SIGSEGV = 11;
    private static final int SIGBUS = 7;
    /** Signals whose default action is to dump core (signal(7)). */
    private static final Set<Integer> DUMPS_CORE = Set.of(3, 4, 5, 6, 7, 8, 11, 24, 25, 31);
    private static final int PRPSINFO_PID = 24;
    private static final int PRPSINFO_FNAME = 40;
    private static final int FNAME_SIZE = 16;

    static ProcessNotes read(CoreBytes core, List<Note> notes) throws CoreFileException {
        TreeSet<Long> threads = new TreeSet<>();
        long firstThread = 0;
        long psinfoPid = 0;
        Optional<String> command = Optional.empty();
        Map<Long, ThreadRegisters> registers = new HashMap<>();
        int firstSignal = 0;
        int siginfoSignal = 0;
        long faultAddress = 0;
        for (Note n : notes) {
            if (n.is(Note.CORE, Note.NT_PRSTATUS)) {
                requireSize(core, n, PRSTATUS_PID + 4, "NT_PRSTATUS");
                long tid = positive(core, core.u32(n.descOffset() + PRSTATUS_PID), "NT_PRSTATUS");
                if (firstThread == 0) {
                    firstThread = tid;
                    firstSignal = (int) (core.u32(n.descOffset() + PRSTATUS_CURSIG) & 0xFFFF);
                }
                threads.add(tid);
                if (n.descSize() >= PRSTATUS_REGS + USER_REGS_WORDS * 8L) {
                    long[] user = new long[USER_REGS_WORDS];
                    for (int i = 0; i < USER_REGS_WORDS; i++) {
                        user[i] = core.u64(n.descOffset() + PRSTATUS_REGS + i * 8L);
                    }
                    registers.putIfAbsent(tid, ThreadRegisters.ofUserRegs(user));
                }
            } else if (n.is(Note.CORE, Note.NT_SIGINFO) && siginfoSignal == 0 && n.descSize() >= SIGINFO_ADDR + 8) {
                siginfoSignal = (int) core.u32(n.descOffset() + SIGINFO_SIGNO);
                faultAddress = core.u64(n.descOffset() + SIGINFO_ADDR);
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
        // gcore's cores name the signal gdb stopped the process with (SIGSTOP): only one whose default
        // action dumps core ended the process.
        int signal = siginfoSignal != 0 ? siginfoSignal : firstSignal;
        Optional<FatalSignal> fatal = DUMPS_CORE.contains(signal) && firstThread != 0
                ? Optional.of(new FatalSignal(firstThread, signal, signal == SIGSEGV || signal == SIGBUS ? faultAddress : 0))
                : Optional.empty();
        return new ProcessNotes((int) pid, List.copyOf(threads), command, Map.copyOf(registers), fatal);
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
