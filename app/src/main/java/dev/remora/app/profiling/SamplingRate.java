package dev.remora.app.profiling;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sampling rate as users of CPython's profiler write it: a number with an optional unit,
 * {@code 250}, {@code 250hz}, {@code 10k}, {@code 1.5khz}.
 */
public record SamplingRate(double hertz) {

    private static final Pattern SYNTAX = Pattern.compile("(\\d+(?:\\.\\d+)?)(hz|khz|k)?");
    /** Faster than this the interval rounds to nothing. */
    private static final double MAX_HERTZ = 1e9;

    public static SamplingRate parse(String text) {
        Matcher m = SYNTAX.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(("invalid sampling rate '%s': expected a number with an optional unit "
                    + "hz, khz or k (e.g. 250, 1khz, 10k)").formatted(text));
        }
        double hertz = Double.parseDouble(m.group(1)) * (m.group(2) == null || m.group(2).equals("hz") ? 1 : 1000);
        if (hertz <= 0) {
            throw new IllegalArgumentException("sampling rate must be positive: " + text);
        }
        if (hertz > MAX_HERTZ) {
            throw new IllegalArgumentException("sampling rate too high: " + text);
        }
        return new SamplingRate(hertz);
    }

    public long intervalNanos() {
        return Math.max(1, Math.round(1e9 / hertz));
    }

    @Override
    public String toString() {
        return hertz >= 1000 ? "%s kHz".formatted(trim(hertz / 1000)) : "%s Hz".formatted(trim(hertz));
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
