package dev.remora.app.agent;

import java.util.Map;
import java.util.SequencedMap;
import java.util.TreeMap;

/**
 * What one process's profiles are labelled with in every sink: the service they belong to and the
 * labels beside it (host, pid, Python version, the user's tags), sorted by name so that the same
 * process always gives the same series.
 */
public record ProcessLabels(String serviceName, SequencedMap<String, String> labels) {

    public ProcessLabels {
        labels = java.util.Collections.unmodifiableSequencedMap(new TreeMap<>(labels));
    }

    /** The labels with {@code service_name} among them, as OpenTelemetry and the directory sink name them. */
    public Map<String, String> withServiceName() {
        TreeMap<String, String> all = new TreeMap<>(labels);
        all.put(LabelSettings.SERVICE_NAME, serviceName);
        return all;
    }
}
