package dev.remora.adapters.procmem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** The processes of this host (of this pid namespace), as /proc lists them. */
public final class ProcessList {

    /** A command line longer than this is cut: it is shown, not interpreted. */
    private static final int MAX_COMMAND_BYTES = 64 * 1024;

    /** What /proc counts times in: USER_HZ, 100 on Linux whatever the kernel's own tick. */
    public static final long TICKS_PER_SECOND = 100;

    /**
     * One process.
     *
     * @param command its arguments; empty for kernel threads and processes that exited meanwhile
     * @param startTicks when it started, in {@link #TICKS_PER_SECOND} since boot
     */
    public record Entry(int pid, int parent, List<String> command, long startTicks) {}

    private ProcessList() {}

    /** Every process whose entry could be read, by pid; those that exit while listed are left out. */
    public static List<Entry> all() throws IOException {
        return all(Path.of("/proc"));
    }

    static List<Entry> all(Path proc) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(proc, ProcessList::isPidDirectory)) {
            for (Path dir : dirs) {
                read(dir).ifPresent(entries::add);
            }
        }
        entries.sort(Comparator.comparingInt(Entry::pid));
        return entries;
    }

    private static boolean isPidDirectory(Path path) {
        String name = path.getFileName().toString();
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit) && name.length() < 10;
    }

    private static Optional<Entry> read(Path dir) {
        try {
            int pid = Integer.parseInt(dir.getFileName().toString());
            ProcStat stat = ProcStat.parse(Files.readString(dir.resolve("stat")));
            return Optional.of(new Entry(pid, stat.parent(), command(Files.readAllBytes(dir.resolve("cmdline"))),
                    stat.startTime().orElse(0)));
        } catch (IOException | IllegalArgumentException gone) {
            return Optional.empty(); // it exited while the list was read, or is not a process at all
        }
    }

    /**
     * The time since boot, in {@link #TICKS_PER_SECOND}: a process's age is this less its start, both
     * counted by the kernel (a wall-clock start time is only as good as the boot time's whole seconds).
     */
    public static long uptimeTicks() throws IOException {
        String uptime = Files.readString(Path.of("/proc/uptime")).strip();
        int space = uptime.indexOf(' ');
        return Math.round(Double.parseDouble(space < 0 ? uptime : uptime.substring(0, space)) * TICKS_PER_SECOND);
    }

    /** The NUL-separated arguments of /proc/PID/cmdline. */
    static List<String> command(byte[] cmdline) {
        int length = Math.min(cmdline.length, MAX_COMMAND_BYTES);
        if (length > 0 && cmdline[length - 1] == 0) {
            length--;
        }
        if (length == 0) {
            return List.of();
        }
        String text = new String(cmdline, 0, length, StandardCharsets.UTF_8);
        return List.copyOf(Arrays.asList(text.split("\0", -1)));
    }
}
