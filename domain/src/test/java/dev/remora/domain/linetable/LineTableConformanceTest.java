package dev.remora.domain.linetable;

import dev.remora.domain.offsets.LineTableFormat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.ports.testing.ProvisionedTargets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * For every provisioned interpreter, and pyenv's 3.9 and 3.8 (whose co_lnotab the next versions to
 * support keep): compiles its whole standard library there and checks the parser against
 * co_positions() (or the lines the version gives) on every instruction of every code object. A missing targets
 * file, an empty one or a target that does not run fails the test.
 */
@Tag("targets")
class LineTableConformanceTest {

    /** Far below any 3.13+ standard library, far above an accidental partial run. */
    private static final long MIN_CODE_OBJECTS = 10_000;
    private static final long MIN_INSTRUCTIONS = 500_000;
    private static final int MAX_SHARDS = 8;

    @TempDir
    Path work;

    @TestFactory
    Stream<DynamicTest> parserAgreesWithCoPositionsOnTheWholeStandardLibrary() throws IOException {
        List<InterpreterTarget> targets = ProvisionedTargets.all().stream()
                .map(entry -> new InterpreterTarget(entry.name(), entry.root().toString(), entry.executable()))
                .toList();
        return targets.stream().map(target -> DynamicTest.dynamicTest(target.name(), () -> verify(target)));
    }

    private void verify(InterpreterTarget target) throws IOException, InterruptedException {
        long start = System.nanoTime();
        int shards = Math.clamp(Runtime.getRuntime().availableProcessors(), 1, MAX_SHARDS);
        List<Path> dumps = PositionsOracle.dump(target, work, shards);
        long dumped = System.nanoTime();

        LineTableFormat format = target.lineTableFormat();
        List<ShardOutcome> outcomes = dumps.parallelStream().map(dump -> checkShard(dump, format)).toList();
        PositionsCheck check = new PositionsCheck(format);
        outcomes.forEach(outcome -> check.add(outcome.check()));
        long checked = System.nanoTime();
        for (Path dump : dumps) {
            Files.deleteIfExists(dump);
        }

        DumpTotals first = outcomes.getFirst().totals();
        System.out.printf("%s (Python %s): %d files compiled, %d skipped, %d code objects, %d instructions;"
                        + " interpreter %d ms, check %d ms%n",
                target.name(), first.pythonVersion(),
                outcomes.stream().mapToInt(o -> o.totals().filesCompiled()).sum(),
                outcomes.stream().mapToInt(o -> o.totals().filesSkipped()).sum(),
                check.codeObjects(), check.instructions(),
                (dumped - start) / 1_000_000, (checked - dumped) / 1_000_000);

        assertThat(check.firstMismatches())
                .as("%s: %d mismatches between LineTable and co_positions()", target.name(), check.mismatches())
                .isEmpty();
        assertThat(check.codeObjects()).as("%s: code objects checked", target.name()).isGreaterThan(MIN_CODE_OBJECTS);
        assertThat(check.instructions()).as("%s: instructions checked", target.name()).isGreaterThan(MIN_INSTRUCTIONS);
    }

    private static ShardOutcome checkShard(Path dump, LineTableFormat format) {
        PositionsCheck check = new PositionsCheck(format);
        try {
            DumpTotals totals = PositionDumpReader.read(dump, check::check);
            return new ShardOutcome(totals, check);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record ShardOutcome(DumpTotals totals, PositionsCheck check) {
    }
}
