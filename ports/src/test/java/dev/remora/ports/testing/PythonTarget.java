package dev.remora.ports.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A real python3 child (see remora_target.py) that reports where its known bytes live. */
public final class PythonTarget implements AutoCloseable {

    private static final String PYTHON = System.getProperty("remora.test.python", "python3");

    private final Process process;
    private final Map<String, String> facts;

    private PythonTarget(Process process, Map<String, String> facts) {
        this.process = process;
        this.facts = facts;
    }

    public static PythonTarget start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(PYTHON, "-c", script()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Map<String, String> facts = new HashMap<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); !"ready".equals(line); line = out.readLine()) {
            if (line == null) {
                process.destroyForcibly();
                throw new IOException("target exited before it was ready");
            }
            int eq = line.indexOf('=');
            facts.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return new PythonTarget(process, facts);
    }

    private static String script() throws IOException {
        try (InputStream in = PythonTarget.class.getResourceAsStream("/remora_target.py")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    public int pid() {
        return Math.toIntExact(process.pid());
    }

    public long number(String key) {
        return Long.parseLong(text(key));
    }

    public String text(String key) {
        String value = facts.get(key);
        if (value == null) {
            throw new IllegalStateException("target did not report " + key + ": " + facts);
        }
        return value;
    }

    /** Lets the target finish normally and reaps it, so its pid no longer names a process. */
    public void exitAndReap() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("target did not exit");
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's interrupt stays for it to see
        }
    }
}
