package dev.remora.app.agent;

/** What a sink sends: each window is encoded once in every format some sink asked for. */
public enum WireFormat {
    /** pprof's gzipped profile.proto: Pyroscope, the directory. */
    PPROF,
    /** OpenTelemetry's ExportProfilesServiceRequest. */
    OTLP
}
