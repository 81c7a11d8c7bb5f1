package dev.remora.app.cli;

import dev.remora.app.agent.Agent;
import dev.remora.app.agent.AgentLog;
import dev.remora.app.agent.AgentSinks;
import dev.remora.app.agent.LabelSettings;
import dev.remora.app.agent.ProcessSelection;
import dev.remora.app.agent.ServiceNames;
import dev.remora.app.agent.Sink;
import dev.remora.app.profiling.RealtimeWakeups;
import dev.remora.app.profiling.SamplerPriority;
import dev.remora.app.profiling.SamplingRate;
import dev.remora.domain.profile.ProfileMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** {@code remora agent}: every Python process on the host, sampled continuously, into Pyroscope, OTLP or a directory. */
@Command(name = "agent", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Profile every Python process on this host (or those selected), continuously, in one sampling loop,"
                + " and send one profile per process per window to Pyroscope, to an OpenTelemetry endpoint (OTLP/HTTP),"
                + " and/or into a directory as pprof files.",
                "Runs until SIGTERM or Ctrl-C, then delivers what it has; SIGUSR1 logs its health line at once."})
public final class AgentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    BackendOption backend;

    @Option(names = "--pid", paramLabel = "PID", description = "Only this process (repeatable).")
    List<Integer> pids = new ArrayList<>();

    @Option(names = "--match", paramLabel = "REGEX", description = "Only processes whose command line this matches.")
    String match;

    @Option(names = "--exclude", paramLabel = "REGEX", description = "Leave out processes whose command line this matches.")
    String exclude;

    @Option(names = {"-r", "--sampling-rate"}, paramLabel = "RATE", defaultValue = "100hz",
            converter = ProfileOptions.RateConverter.class, description = "Samples per second of each process (default: 100hz).")
    SamplingRate rate;

    @Option(names = "--mode", paramLabel = "wall|cpu", defaultValue = "wall", converter = ProfileOptions.ModeConverter.class,
            description = "wall: every thread at every tick (default); cpu: threads on a CPU.")
    ProfileMode mode;

    @Option(names = "--upload-interval", paramLabel = "SECONDS", defaultValue = "10",
            description = "The window each profile covers (default: 10 s).")
    double uploadSeconds;

    @Option(names = "--scan-interval", paramLabel = "SECONDS", defaultValue = "2",
            description = "How often the host's processes are looked through for new ones (default: 2 s).")
    double scanSeconds;

    @Option(names = {"-d", "--duration"}, paramLabel = "SECONDS", description = "Stop after this many seconds (default: run until stopped).")
    Double durationSeconds;

    @Option(names = "--service-name", paramLabel = "TEMPLATE", defaultValue = ServiceNames.DEFAULT_TEMPLATE,
            description = "Each process's service name: {name} (its script or -m module, default), {exe}, {pid}, {hostname}.")
    String serviceName;

    @Option(names = "--tag", paramLabel = "KEY=VALUE", description = "A label on every profile (repeatable).")
    Map<String, String> tags = new LinkedHashMap<>();

    @Option(names = "--env-label", paramLabel = "VARIABLE[=LABEL]", description = "A label from each process's own environment:"
            + " the variable's value, as LABEL (default: the variable's name in lower case); a process without it goes"
            + " without the label (repeatable).")
    List<String> envLabels = new ArrayList<>();

    @Option(names = "--drop-label", paramLabel = "NAME", description = "Leave out one of the agent's own labels: hostname, pid"
            + " or python_version (repeatable).")
    List<String> dropped = new ArrayList<>();

    @Option(names = "--pyroscope", paramLabel = "URL", description = "Send each window to this Pyroscope server's /ingest.")
    URI pyroscope;

    @Option(names = "--tenant-id", paramLabel = "ID", description = "With --pyroscope: the X-Scope-OrgID header.")
    String tenantId;

    @Option(names = "--basic-auth-file", paramLabel = "FILE", description = "With --pyroscope: a file holding USER:PASSWORD.")
    Path basicAuthFile;

    @Option(names = "--token-file", paramLabel = "FILE", description = "With --pyroscope: a file holding a bearer token.")
    Path tokenFile;

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "With --pyroscope: a header on every request (repeatable).")
    List<String> headers = new ArrayList<>();

    @Option(names = "--otlp", paramLabel = "URL", description = "Send each window to this OpenTelemetry endpoint over OTLP/HTTP"
            + " (its /v1development/profiles; protobuf, profiles as opentelemetry-proto 1.11.0-alpha defines them).")
    URI otlp;

    @Option(names = "--otlp-header", paramLabel = "'NAME: VALUE'", description = "With --otlp: a header on every request (repeatable).")
    List<String> otlpHeaders = new ArrayList<>();

    @Option(names = "--directory", paramLabel = "DIR", description = "Write each window as a pprof file into DIR.")
    Path directory;

    @Option(names = "--directory-max-age", paramLabel = "HOURS", defaultValue = "24",
            description = "With --directory: delete files older than this (default: 24 hours).")
    double directoryMaxHours;

    @Option(names = "--directory-max-size", paramLabel = "MIB", defaultValue = "1024",
            description = "With --directory: delete the oldest files past this total (default: 1024 MiB).")
    long directoryMaxMebibytes;

    @Option(names = "--queue-size", paramLabel = "MIB", defaultValue = "8",
            description = "Windows each sink may hold while it cannot deliver; past it the oldest are dropped (default: 8 MiB; more needs JAVA_OPTS=-Xmx beyond the launcher's 48m).")
    long queueMebibytes;

    @Option(names = "--flush-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "On SIGTERM, how long to go on delivering what is queued (default: 10 s).")
    double flushSeconds;

    @Option(names = "--normal-priority", description = "Wait for each tick at normal priority. By default the loop waits"
            + " at the lowest real-time priority where allowed (root or CAP_SYS_NICE), so that busy CPUs do not make its"
            + " ticks late (late ticks over-count what the targets do as they give a CPU up, such as short sleeps).")
    boolean normalPriority;

    @Option(names = "--status-file", paramLabel = "FILE", description = "Write the health line into FILE every minute and on SIGUSR1.")
    Path statusFile;

    @Override
    public Integer call() throws Exception {
        backend.validate();
        Agent.Settings settings = settings();
        List<Sink> sinks = sinks();
        AgentLog log = new AgentLog(spec.commandLine().getErr());
        Agent agent = new Agent(settings, sinks, pid -> backend.open(pid), log);
        AgentSignals.install(agent);
        return agent.run();
    }

    private Agent.Settings settings() {
        ProcessSelection selection = new ProcessSelection(Set.copyOf(pids), Optional.ofNullable(match).map(r -> regex("--match", r)),
                Optional.ofNullable(exclude).map(r -> regex("--exclude", r)));
        if (mode != ProfileMode.WALL && mode != ProfileMode.CPU) {
            throw usage("--mode: the agent samples in wall or cpu mode");
        }
        LabelSettings labels;
        try {
            ServiceNames.check(serviceName);
            labels = new LabelSettings(serviceName, tags, fromEnvironment(), Set.copyOf(dropped), hostname());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        long window = seconds("--upload-interval", uploadSeconds);
        if (window < rate.intervalNanos()) {
            throw usage("--upload-interval must be longer than one sampling interval");
        }
        return new Agent.Settings(selection, labels, mode, rate.intervalNanos(), window, seconds("--scan-interval", scanSeconds),
                durationSeconds == null ? 0 : seconds("--duration", durationSeconds), mebibytes("--queue-size", queueMebibytes),
                seconds("--flush-timeout", flushSeconds), Optional.ofNullable(statusFile),
                normalPriority ? SamplerPriority.UNCHANGED : new RealtimeWakeups(), BuildVersion.version());
    }

    /** --env-label's variables, each with the label it gives. */
    private Map<String, String> fromEnvironment() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String option : envLabels) {
            int equals = option.indexOf('=');
            String variable = equals < 0 ? option : option.substring(0, equals);
            if (variable.isEmpty()) {
                throw usage("--env-label " + option + ": name an environment variable, as VARIABLE or VARIABLE=LABEL");
            }
            if (equals < 0 && !LabelSettings.labelsItself(variable)) {
                throw usage("--env-label " + option + ": its name in lower case is no label's name; give one, as "
                        + option + "=LABEL");
            }
            labels.put(variable, equals < 0 ? LabelSettings.labelOf(variable) : option.substring(equals + 1));
        }
        return labels;
    }

    private List<Sink> sinks() {
        if (pyroscope == null && otlp == null && directory == null) {
            throw usage("name where the profiles go: --pyroscope URL, --otlp URL and/or --directory DIR");
        }
        if (otlp == null && !otlpHeaders.isEmpty()) {
            throw usage("--otlp-header goes with --otlp");
        }
        if (pyroscope == null && (tenantId != null || basicAuthFile != null || tokenFile != null || !headers.isEmpty())) {
            throw usage("--tenant-id, --basic-auth-file, --token-file and --header go with --pyroscope");
        }
        List<Sink> sinks = new ArrayList<>();
        if (directory != null) {
            if (!(directoryMaxHours > 0)) {
                throw usage("--directory-max-age must be positive: " + directoryMaxHours);
            }
            try {
                sinks.add(AgentSinks.directory(directory, Math.round(directoryMaxHours * 3_600_000),
                        mebibytes("--directory-max-size", directoryMaxMebibytes)));
            } catch (IOException e) {
                throw new UserError("--directory " + directory + ": " + e.getMessage(), UserErrorHandler.EXIT_USAGE);
            }
        }
        if (pyroscope != null) {
            sinks.add(AgentSinks.pyroscope(httpUrl("--pyroscope", pyroscope), tenantId, secret("--basic-auth-file", basicAuthFile),
                    secret("--token-file", tokenFile), headers("--header", headers)));
        }
        if (otlp != null) {
            sinks.add(AgentSinks.otlp(httpUrl("--otlp", otlp), headers("--otlp-header", otlpHeaders)));
        }
        return sinks;
    }

    private static URI httpUrl(String option, URI url) {
        String scheme = url.getScheme();
        if (!"http".equals(scheme) && !"https".equals(scheme) || url.getHost() == null) {
            throw usage(option + " " + url + ": an http:// or https:// URL");
        }
        return url;
    }

    private static List<Map.Entry<String, String>> headers(String option, List<String> given) {
        List<Map.Entry<String, String>> parsed = new ArrayList<>();
        for (String header : given) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw usage(option + " " + header + ": NAME: VALUE");
            }
            parsed.add(Map.entry(header.substring(0, colon).strip(), header.substring(colon + 1).strip()));
        }
        return parsed;
    }

    private static String secret(String option, Path file) {
        if (file == null) {
            return null;
        }
        try {
            String text = Files.readString(file).strip();
            if (text.isEmpty()) {
                throw usage(option + " " + file + ": empty");
            }
            return text;
        } catch (IOException e) {
            throw usage(option + " " + file + ": cannot read it (" + e.getMessage() + ")");
        }
    }

    private static Pattern regex(String option, String text) {
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw usage(option + ": not a regular expression: " + e.getDescription());
        }
    }

    private static long seconds(String option, double seconds) {
        if (!(seconds > 0)) {
            throw usage(option + " must be positive: " + seconds);
        }
        return Math.round(seconds * 1e9);
    }

    private static long mebibytes(String option, long mebibytes) {
        if (mebibytes <= 0) {
            throw usage(option + " must be positive: " + mebibytes);
        }
        return mebibytes << 20;
    }

    private static String hostname() {
        String name = System.getenv("HOSTNAME");
        if (name != null && !name.isBlank()) {
            return name;
        }
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException unknown) {
                return "localhost";
            }
        }
    }

    private static UserError usage(String message) {
        return new UserError(message, UserErrorHandler.EXIT_USAGE);
    }
}
