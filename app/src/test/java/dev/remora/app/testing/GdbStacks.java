package dev.remora.app.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference for C frames: gdb's frames of every thread of a live process or a core, as the pc
 * of each frame per thread. Only the frames the unwind tables hold count: gdb also shows inlined
 * functions (frames that share a pc with their caller, counted once) and tail calls it rebuilds from
 * debug info (which it says are, and which are left out). Separate debug files are not loaded.
 */
public final class GdbStacks {

    private static final Pattern THREAD = Pattern.compile("^Thread \\d+ \\(.*?LWP (\\d+)");
    private static final Pattern LEVEL = Pattern.compile("^Stack level \\d+, frame at 0x([0-9a-f]+)");
    private static final Pattern PC = Pattern.compile("^ rip = 0x([0-9a-f]+)");
    private static final Pattern BT_THREAD = Pattern.compile("^Thread \\d+ \\((?:.*?LWP |process )(\\d+)");
    /** {@code #3  0x00007f... in name (args) from lib}, or {@code #0  name (args) at file:line}. */
    private static final Pattern BT_FRAME = Pattern.compile("^#\\d+\\s+(?:0x[0-9a-f]+ in )?(.+?) \\(");
    private static final String TAIL_CALL = " tail call frame";

    private GdbStacks() {}

    /** Each thread's frame pcs, innermost first, by thread id, of the running process {@code pid}. */
    public static Map<Long, List<Long>> live(long pid, TargetInterpreter python) {
        return run(python, List.of(python.hostPath(python.exe()).toString(), "-p", Long.toString(pid)));
    }

    /** The same of a core file, with the interpreter it ran. */
    public static Map<Long, List<Long>> core(java.nio.file.Path core, TargetInterpreter python) {
        return run(python, List.of(python.hostPath(python.exe()).toString(), core.toString()));
    }

    /**
     * Each thread's frames as {@code thread apply all bt} names them, innermost first: the function
     * ({@code ??} where gdb has no name), without its arguments or where it is.
     */
    public static Map<Long, List<String>> liveNames(long pid, TargetInterpreter python) {
        Map<Long, List<String>> threads = new LinkedHashMap<>();
        List<String> current = null;
        String out = output(python, List.of(python.hostPath(python.exe()).toString(), "-p", Long.toString(pid)),
                "thread apply all bt");
        for (String line : out.lines().toList()) {
            // A process gdb cannot read the thread library of shows its one thread as a process.
            Matcher thread = BT_THREAD.matcher(line);
            Matcher frame = BT_FRAME.matcher(line);
            if (thread.find()) {
                current = new ArrayList<>();
                threads.put(Long.parseLong(thread.group(1)), current);
            } else if (current != null && frame.find()) {
                current.add(frame.group(1));
            }
        }
        if (threads.isEmpty()) {
            throw new IllegalStateException("gdb showed no thread:\n" + out);
        }
        return threads;
    }

    private static Map<Long, List<Long>> run(TargetInterpreter python, List<String> target) {
        String out = output(python, target, "thread apply all frame apply all -q info frame");
        Map<Long, List<Long>> threads = parse(out);
        if (threads.isEmpty()) {
            throw new IllegalStateException("gdb showed no thread:\n" + out);
        }
        return threads;
    }

    private static String output(TargetInterpreter python, List<String> target, String gdbCommand) {
        List<String> command = new ArrayList<>(List.of("gdb", "-nx", "-batch", "-iex", "set debug-file-directory /nonexistent"));
        if (python.chrooted()) {
            command.addAll(List.of("-iex", "set sysroot " + python.root()));
        }
        command.addAll(List.of("-ex", gdbCommand));
        command.addAll(target);
        try {
            Process gdb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String out = new String(gdb.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!gdb.waitFor(2, TimeUnit.MINUTES)) {
                gdb.destroyForcibly();
                throw new IllegalStateException("gdb timed out");
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run gdb (scripts/provision-gdb.sh installs it)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Map<Long, List<Long>> parse(String out) {
        Map<Long, List<Long>> threads = new LinkedHashMap<>();
        List<Long> current = null;
        // Frames inlined into one another share both the pc and the frame's address.
        String lastFrame = "";
        String frame = "";
        long pc = -1;
        for (String line : out.lines().toList()) {
            Matcher thread = THREAD.matcher(line);
            Matcher level = LEVEL.matcher(line);
            Matcher rip = PC.matcher(line);
            if (thread.find() || level.find()) {
                if (current != null && pc != -1 && !(frame + pc).equals(lastFrame)) {
                    current.add(pc);
                    lastFrame = frame + pc;
                }
                pc = -1;
                if (level.find(0)) {
                    frame = level.group(1) + "/";
                } else {
                    current = new ArrayList<>();
                    lastFrame = "";
                    threads.put(Long.parseLong(thread.group(1)), current);
                }
            } else if (rip.find()) {
                pc = Long.parseUnsignedLong(rip.group(1), 16);
            } else if (line.startsWith(TAIL_CALL)) {
                pc = -1;
            }
        }
        if (current != null && pc != -1 && !(frame + pc).equals(lastFrame)) {
            current.add(pc);
        }
        return threads;
    }
}
