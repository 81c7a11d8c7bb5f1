package dev.remora.app.agent;

import dev.remora.app.output.profile.otlp.OtlpProfiles.Attribute;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A process's labels as OpenTelemetry's resource attributes, under the semantic conventions' names:
 * the service as {@code service.name}, the host as {@code host.name}, the pid as {@code process.pid},
 * the interpreter as {@code process.runtime.name} and {@code process.runtime.version}; the user's
 * tags as they were given.
 */
final class OtlpResource {

    private OtlpResource() {}

    static List<Attribute> of(ProcessLabels labels) {
        List<Attribute> attributes = new ArrayList<>();
        attributes.add(new Attribute("service.name", labels.serviceName()));
        attributes.add(new Attribute("process.runtime.name", "CPython"));
        for (Map.Entry<String, String> label : labels.labels().entrySet()) {
            attributes.add(switch (label.getKey()) {
                case LabelSettings.HOSTNAME -> new Attribute("host.name", label.getValue());
                case LabelSettings.PID -> new Attribute("process.pid", Long.parseLong(label.getValue()));
                case LabelSettings.PYTHON_VERSION -> new Attribute("process.runtime.version", label.getValue());
                default -> new Attribute(label.getKey(), label.getValue());
            });
        }
        return attributes;
    }
}
