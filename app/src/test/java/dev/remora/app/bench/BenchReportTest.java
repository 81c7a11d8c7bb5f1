package dev.remora.app.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The JSON report reads back whatever the names in it hold. */
class BenchReportTest {

    private static final BenchReport.Setup ODD = new BenchReport.Setup("basic", BenchApi.stack, "3.15.2+ \"local\" \\build",
            42, "vm\"readv\n", ThreadScope.all, 4.0, 2, true);

    private static JsonNode json(BenchReport.Setup setup, BenchResult ours, Optional<BenchResult> cpython) throws Exception {
        StringWriter out = new StringWriter();
        BenchReport.json(setup, ours, cpython, new PrintWriter(out));
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void escapesNamesAndKeepsTheKeysInOrder() throws Exception {
        Map<String, Long> stats = new LinkedHashMap<>();
        stats.put("code_hits", 12L);
        stats.put("odd \"counter\"", 3L);
        BenchResult ours = new BenchResult("remora", 1000, 990, 10, 1_617_283_911L, 4_000_000_000L, stats);
        BenchResult theirs = new BenchResult("cpython", 800, 800, 0, 1_300_000_000L, 4_000_000_000L, Map.of());

        JsonNode report = json(ODD, ours, Optional.of(theirs));

        assertThat(report.fieldNames()).toIterable().containsExactly("workload", "api", "python_version", "pid", "backend", "threads",
                "rounds", "frame_marker", "calls", "samples", "failures", "avg_call_us", "work_rate", "sample_rate",
                "success_rate", "stats", "cpython", "ratio");
        assertThat(report.get("python_version").asText()).isEqualTo("3.15.2+ \"local\" \\build");
        assertThat(report.get("backend").asText()).isEqualTo("vm\"readv\n");
        assertThat(report.get("stats").get("odd \"counter\"").asLong()).isEqualTo(3);
        assertThat(report.get("frame_marker").asBoolean()).isTrue();
        assertThat(report.get("avg_call_us").decimalValue()).isEqualByComparingTo("1617.284");
        assertThat(report.get("success_rate").decimalValue()).isEqualByComparingTo("99.00");
        assertThat(report.get("cpython").get("work_rate").decimalValue()).isEqualByComparingTo("615.4");
        assertThat(report.get("ratio").decimalValue()).isEqualByComparingTo("1.0048");
    }

    @Test
    void noRatioWithoutCallsAndNoCpythonWithoutItsRun() throws Exception {
        BenchResult ours = new BenchResult("remora", 10, 10, 0, 1_000, 2_000, Map.of());

        assertThat(json(ODD, ours, Optional.of(BenchResult.empty("cpython"))).get("ratio").isNull()).isTrue();
        assertThat(json(ODD, ours, Optional.empty()).has("cpython")).isFalse();
    }
}
