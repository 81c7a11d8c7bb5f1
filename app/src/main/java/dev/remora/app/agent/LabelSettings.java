package dev.remora.app.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the agent labels each process: the service name's template, the user's static tags, and the
 * labels left out. Every label but the tags has a bounded number of values per host except
 * {@code pid}, which grows with every restart: a user who watches many short-lived processes drops it.
 */
public record LabelSettings(String serviceTemplate, Map<String, String> tags, Set<String> dropped, String hostname) {

    public static final String SERVICE_NAME = "service_name";
    public static final String HOSTNAME = "hostname";
    public static final String PID = "pid";
    public static final String PYTHON_VERSION = "python_version";
    /** The labels the agent sets by itself, which {@code --drop-label} may leave out. */
    public static final List<String> OWN = List.of(HOSTNAME, PID, PYTHON_VERSION);

    /** A label name as Pyroscope and Prometheus take them. */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    public LabelSettings {
        tags = Map.copyOf(tags);
        dropped = Set.copyOf(dropped);
        for (String key : tags.keySet()) {
            if (!validName(key) || key.startsWith("__") || key.equals(SERVICE_NAME) || OWN.contains(key)) {
                throw new IllegalArgumentException("--tag " + key + ": a tag's name is letters, digits and _, not starting"
                        + " with a digit or __, and not one the agent sets itself (" + SERVICE_NAME + ", "
                        + String.join(", ", OWN) + ")");
            }
        }
        for (String name : dropped) {
            if (!OWN.contains(name)) {
                throw new IllegalArgumentException("--drop-label " + name + ": only " + String.join(", ", OWN)
                        + " can be left out");
            }
        }
    }

    static boolean validName(String name) {
        return NAME.matcher(name).matches();
    }

    /** The labels of process {@code pid}, started as {@code command}, running CPython {@code version}. */
    public ProcessLabels of(int pid, List<String> command, String version) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(HOSTNAME, hostname);
        labels.put(PID, Integer.toString(pid));
        labels.put(PYTHON_VERSION, version);
        labels.keySet().removeAll(dropped);
        labels.putAll(tags);
        return new ProcessLabels(ServiceNames.expand(serviceTemplate, pid, command, hostname),
                new java.util.TreeMap<>(labels));
    }
}
