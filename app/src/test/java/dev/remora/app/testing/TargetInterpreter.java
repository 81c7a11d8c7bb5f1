package dev.remora.app.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One CPython interpreter the integration tests inspect: its executable {@code exe}, as seen from
 * inside {@code root}. A root of "/" means the host itself; any other root is entered with
 * chroot(1), which execs the interpreter, so a started process's pid is the interpreter's pid.
 */
public record TargetInterpreter(String name, Path root, String exe, int major, int minor) {

    private static final Path HOST_ROOT = Path.of("/");
    private static final Pattern VERSION_IN_NAME = Pattern.compile("(\\d+)\\.(\\d+)");
    private static final Duration VERSION_QUERY_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Python flags for every script the harness runs: {@code -I} so that PYTHON* variables and the
     * user site of the test JVM's environment cannot change what the target does, {@code -X utf8}
     * so that non-ASCII file names and the JSON output do not depend on the locale inside the root.
     */
    private static final List<String> SCRIPT_FLAGS = List.of("-I", "-X", "utf8");

    /** Takes the version from the name (e.g. "debian-3.15"), or asks the interpreter when it has none. */
    public static TargetInterpreter of(String name, Path root, String exe) {
        Matcher m = VERSION_IN_NAME.matcher(name);
        if (m.find()) {
            return new TargetInterpreter(name, root, exe, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
        }
        return askVersion(name, root, exe);
    }

    private static TargetInterpreter askVersion(String name, Path root, String exe) {
        TargetInterpreter unversioned = new TargetInterpreter(name, root, exe, 0, 0);
        ShortProcess.Result result = ShortProcess.run(
                unversioned.command("-c", "import sys; print(*sys.version_info[:2])"), VERSION_QUERY_TIMEOUT);
        String[] parts = result.requireSuccess("asking " + name + " for its version").strip().split(" ");
        return new TargetInterpreter(name, root, exe, Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
    }

    public boolean chrooted() {
        return !root.equals(HOST_ROOT);
    }

    public boolean isAtLeast(int major, int minor) {
        return this.major > major || (this.major == major && this.minor >= minor);
    }

    /** The command line running the interpreter with these arguments (inside the root). */
    public List<String> command(String... pythonArgs) {
        List<String> command = new ArrayList<>();
        if (chrooted()) {
            command.addAll(List.of("chroot", root.toString()));
        }
        command.add(exe);
        command.addAll(List.of(pythonArgs));
        return command;
    }

    /** The command line running a script (a path inside the root) with arguments, isolated from the test's environment. */
    public List<String> scriptCommand(String scriptInRoot, List<String> scriptArgs) {
        List<String> args = new ArrayList<>(SCRIPT_FLAGS);
        args.add(scriptInRoot);
        args.addAll(scriptArgs);
        return command(args.toArray(String[]::new));
    }

    /** Where a path inside the root lives on the host. */
    public Path hostPath(String pathInRoot) {
        return root.resolve(HOST_ROOT.relativize(Path.of(pathInRoot)));
    }

    /** Shown as the parameter of parameterized tests. */
    @Override
    public String toString() {
        return name;
    }
}
