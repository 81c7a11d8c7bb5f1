package dev.remora.app.agent;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which processes the agent samples: every Python process by default; with pids, only those; a
 * match narrows to command lines it finds a match in, an exclusion leaves out those it matches.
 */
public record ProcessSelection(Set<Integer> pids, Optional<Pattern> match, Optional<Pattern> exclude) {

    public static final ProcessSelection EVERY_PROCESS = new ProcessSelection(Set.of(), Optional.empty(), Optional.empty());

    public ProcessSelection {
        pids = Set.copyOf(pids);
    }

    boolean selects(int pid, String commandLine) {
        return (pids.isEmpty() || pids.contains(pid))
                && match.map(p -> p.matcher(commandLine).find()).orElse(true)
                && !exclude.map(p -> p.matcher(commandLine).find()).orElse(false);
    }
}
