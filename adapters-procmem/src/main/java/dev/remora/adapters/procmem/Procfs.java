package dev.remora.adapters.procmem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where things live under /proc, and the few small reads both adapters need. */
final class Procfs {

    static final Path ROOT = Path.of("/proc");

    private Procfs() {}

    static Path dir(int pid) {
        return ROOT.resolve(Integer.toString(pid));
    }

    static Path taskDir(int pid) {
        return dir(pid).resolve("task");
    }

    static Optional<ProcStat> stat(int pid) {
        return readStat(dir(pid).resolve("stat"));
    }

    static Optional<ProcStat> threadStat(int pid, long tid) {
        return readStat(taskDir(pid).resolve(Long.toString(tid)).resolve("stat"));
    }

    /**
     * True when {@code pid} names a process that has not exited. /proc also answers for thread ids
     * that are not process ids, so the thread group id must match.
     */
    static boolean isLiveProcess(int pid) {
        if (pid <= 0) {
            return false;
        }
        try {
            boolean leader = false;
            for (String line : Files.readAllLines(dir(pid).resolve("status"), StandardCharsets.ISO_8859_1)) {
                if (line.startsWith("Tgid:")) {
                    leader = line.substring(5).strip().equals(Integer.toString(pid));
                } else if (line.startsWith("State:")) {
                    char state = line.substring(6).strip().charAt(0);
                    if (state == 'Z' || state == 'X') {
                        return false;
                    }
                }
            }
            return leader;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Optional<ProcStat> readStat(Path file) {
        try {
            // Latin-1: the command name may hold any bytes, and only ASCII fields matter here.
            return Optional.of(ProcStat.parse(Files.readString(file, StandardCharsets.ISO_8859_1)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
