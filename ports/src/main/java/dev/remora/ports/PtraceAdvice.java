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

    /**
     * The advice for {@code pid}, given Yama's {@code ptrace_scope} as read (empty: no Yama here). The
     * scope is named only where it is in the way: absent or 0, lowering it cannot help.
     */
    public static String message(int pid, Optional<String> scope) {
        String base = "permission denied reading process %d: run as root or as its owner, or give the tool CAP_SYS_PTRACE"
                .formatted(pid);
        return switch (scope.orElse("0")) {
            case "0" -> base;
            case "3" -> base + "; but %s is 3, which forbids it to everyone until a reboot".formatted(PTRACE_SCOPE);
            default -> base + ", and set %s to 0 (it is %s)".formatted(PTRACE_SCOPE, scope.get());
        };
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
