package dev.remora.ports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Explains a ptrace permission refusal in terms a user can act on; what every live backend says. */
public final class PtraceAdvice {

    public static final Path PTRACE_SCOPE = Path.of("/proc/sys/kernel/yama/ptrace_scope");

    private PtraceAdvice() {}

    public static String message(int pid) {
        return message(pid, currentScope(PTRACE_SCOPE));
    }

    public static String message(int pid, Optional<String> scope) {
        String base = ("permission denied reading process %d: run as root, or give the tool CAP_SYS_PTRACE, "
                + "or set %s to 0").formatted(pid, PTRACE_SCOPE);
        return scope.map(s -> base + (s.equals("3")
                        ? " (it is 3, which only a reboot can lower)"
                        : " (it is " + s + ")"))
                .orElse(base);
    }

    public static Optional<String> currentScope(Path file) {
        try {
            return Optional.of(Files.readString(file).strip()).filter(s -> !s.isEmpty());
        } catch (IOException | SecurityException e) {
            // Yama absent or unreadable: the advice is still right, just without the current value.
            return Optional.empty();
        }
    }
}
