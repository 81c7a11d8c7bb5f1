package dev.remora.app.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How the agent labels each process: the service name's template, the user's static tags, the labels
 * taken from each process's own environment (variable to label name), and the labels left out. Every
 * label but the tags has a bounded number of values per host except {@code pid}, which grows with
 * every restart: a user who watches many short-lived processes drops it.
 */
public record LabelSettings(String serviceTemplate, Map<String, String> tags, Map<String, String> fromEnvironment,
                            Set<String> dropped, String hostname) {

    public static final String SERVICE_NAME = "service_name";
    public static final String HOSTNAME = "hostname";
    public static final String PID = "pid";
    public static final String PYTHON_VERSION = "python_version";
    /** The labels the agent sets by itself, which {@code --drop-label} may leave out. */
    public static final List<String> OWN = List.of(HOSTNAME, PID, PYTHON_VERSION);

    /** A label name as Pyroscope and Prometheus take them. */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    /** The longest value a label takes from an environment: longer ones are cut, as they would flood a back end. */
    static final int MAX_ENVIRONMENT_VALUE = 256;

    public LabelSettings {
        tags = Map.copyOf(tags);
        fromEnvironment = Map.copyOf(fromEnvironment);
        dropped = Set.copyOf(dropped);
        for (String key : tags.keySet()) {
            if (!ownable(key)) {
                throw new IllegalArgumentException("--tag " + key + ": " + NAME_RULE);
            }
        }
        Set<String> fromVariables = new java.util.HashSet<>();
        for (Map.Entry<String, String> variable : fromEnvironment.entrySet()) {
            if (!ownable(variable.getValue()) || tags.containsKey(variable.getValue())) {
                throw new IllegalArgumentException("--env-label " + variable.getKey() + "=" + variable.getValue() + ": "
                        + NAME_RULE + ", nor a --tag's");
            }
            if (!fromVariables.add(variable.getValue())) {
                throw new IllegalArgumentException("--env-label: two variables give the label " + variable.getValue());
            }
        }
        for (String name : dropped) {
            if (!OWN.contains(name)) {
                throw new IllegalArgumentException("--drop-label " + name + ": only " + String.join(", ", OWN)
                        + " can be left out");
            }
        }
    }

    private static final String NAME_RULE = "a label's name is letters, digits and _, not starting with a digit or __,"
            + " and not one the agent sets itself (" + SERVICE_NAME + ", " + String.join(", ", OWN) + ")";

    static boolean validName(String name) {
        return NAME.matcher(name).matches();
    }

    /** {@code value} cut to {@link #MAX_ENVIRONMENT_VALUE} characters, never between the two of a surrogate pair. */
    private static String cut(String value) {
        if (value.length() <= MAX_ENVIRONMENT_VALUE) {
            return value;
        }
        int end = MAX_ENVIRONMENT_VALUE;
        return value.substring(0, Character.isHighSurrogate(value.charAt(end - 1)) ? end - 1 : end);
    }

    /** Whether the user may name a label so. */
    private static boolean ownable(String name) {
        return validName(name) && !name.startsWith("__") && !name.equals(SERVICE_NAME) && !OWN.contains(name);
    }

    /** The label an environment variable gives by default: its name in lower case. */
    public static String labelOf(String variable) {
        return variable.toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether {@link #labelOf} gives a name the user may give a label. */
    public static boolean labelsItself(String variable) {
        return ownable(labelOf(variable));
    }

    /**
     * The labels of process {@code pid}, started as {@code command}, running CPython {@code version},
     * whose environment holds {@code environment}: a variable it lacks (or holds empty) gives no label.
     */
    public ProcessLabels of(int pid, List<String> command, String version, Map<String, String> environment) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(HOSTNAME, hostname);
        labels.put(PID, Integer.toString(pid));
        labels.put(PYTHON_VERSION, version);
        labels.keySet().removeAll(dropped);
        labels.putAll(tags);
        for (Map.Entry<String, String> variable : fromEnvironment.entrySet()) {
            String value = environment.getOrDefault(variable.getKey(), "");
            if (!value.isEmpty()) {
                labels.put(variable.getValue(), cut(value));
            }
        }
        return new ProcessLabels(ServiceNames.expand(serviceTemplate, pid, command, hostname),
                new java.util.TreeMap<>(labels));
    }
}
