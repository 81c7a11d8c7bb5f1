package dev.remora.app.testing;

import dev.remora.app.output.profile.pprof.GoPprof;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Each function's share of a pprof file's samples (its cum over the total), as {@code go tool pprof -top -cum} lists them. */
public final class PprofShares {

    private static final Pattern TOTAL = Pattern.compile("Total samples = (\\d+)");
    /** A row of pprof's -top: flat, flat%, sum%, cum, cum%, name. */
    private static final Pattern ROW = Pattern.compile(" *\\d+ +[\\d.]+% +[\\d.]+% +(\\d+) +[\\d.]+% +(.+)");

    private PprofShares() {}

    public static Map<String, Double> of(Path scratch, Path file) {
        String top = GoPprof.provision(scratch).pprof("-top", "-cum", "-nodecount=100000", "-nodefraction=0",
                "-sample_index=samples", file.toString());
        Matcher total = TOTAL.matcher(top);
        if (!total.find()) {
            throw new AssertionError("go tool pprof gave no total for " + file + ":\n" + top);
        }
        double samples = Long.parseLong(total.group(1));
        Map<String, Double> out = new HashMap<>();
        for (String line : top.lines().toList()) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                out.merge(row.group(2).strip(), Long.parseLong(row.group(1)) / samples, Double::sum);
            }
        }
        return out;
    }
}
