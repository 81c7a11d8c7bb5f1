package dev.remora.app.agent;

import java.util.List;
import java.util.Set;

/**
 * A process's service name, from {@code --service-name}'s template: {@code {name}} is what the
 * command line runs (the script without {@code .py}, the {@code -m} module, else the executable),
 * {@code {exe}} the executable, {@code {pid}} and {@code {hostname}} as they say.
 */
public final class ServiceNames {

    public static final String DEFAULT_TEMPLATE = "{name}";
    private static final Set<String> PLACEHOLDERS = Set.of("{name}", "{exe}", "{pid}", "{hostname}");
    /** Python's options that take the next argument as their value. */
    private static final Set<String> WITH_VALUE = Set.of("-X", "-W", "--check-hash-based-pycs");

    private ServiceNames() {}

    /** Rejects a template with an unknown placeholder, before the agent starts. */
    public static void check(String template) {
        int open = template.indexOf('{');
        while (open >= 0) {
            int close = template.indexOf('}', open);
            if (close < 0 || !PLACEHOLDERS.contains(template.substring(open, close + 1))) {
                throw new IllegalArgumentException("--service-name " + template + ": the placeholders are "
                        + String.join(" ", PLACEHOLDERS.stream().sorted().toList()));
            }
            open = template.indexOf('{', close);
        }
        if (template.isBlank()) {
            throw new IllegalArgumentException("--service-name: empty");
        }
    }

    static String expand(String template, int pid, List<String> command, String hostname) {
        String exe = command.isEmpty() ? "python" : baseName(command.getFirst());
        String name = template.replace("{name}", derive(command)).replace("{exe}", exe)
                .replace("{pid}", Integer.toString(pid)).replace("{hostname}", hostname);
        return clean(name);
    }

    /** What the command line runs: a script's name without .py, a -m module, else the executable's name. */
    static String derive(List<String> command) {
        if (command.isEmpty()) {
            return "python";
        }
        String exe = baseName(command.getFirst());
        if (!exe.startsWith("python")) {
            return exe; // an embedding program (uwsgi, a C++ server): its own name says most
        }
        for (int i = 1; i < command.size(); i++) {
            String arg = command.get(i);
            if (arg.equals("-m") && i + 1 < command.size()) {
                return command.get(i + 1);
            }
            if (arg.startsWith("-m") && arg.length() > 2) {
                return arg.substring(2);
            }
            if (arg.equals("-c") || arg.startsWith("-c") || arg.equals("-")) {
                return exe;
            }
            if (WITH_VALUE.contains(arg)) {
                i++;
                continue;
            }
            if (!arg.startsWith("-")) {
                String script = baseName(arg);
                return script.endsWith(".py") && script.length() > 3 ? script.substring(0, script.length() - 3) : script;
            }
        }
        return exe;
    }

    private static String baseName(String path) {
        int slash = path.lastIndexOf('/');
        return slash >= 0 ? path.substring(slash + 1) : path;
    }

    /** Only what every back end takes in a service name: letters, digits, and {@code . _ -}. */
    static String clean(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean kept = c < 128 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-');
            out.append(kept ? c : '_');
        }
        return out.isEmpty() ? "python" : out.toString();
    }
}
