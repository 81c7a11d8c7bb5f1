package dev.remora.app.dump;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.domain.walk.WalkStats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Repeated snapshots reuse decoded code objects and frames, and give the same stacks as the first. */
@Tag("targets")
class SnapshotCacheTest {

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aSecondSnapshotIsServedFromTheCaches(TargetInterpreter python) throws Exception {
        try (ParkedTarget target = ParkedThreads.start(python);
             VmReadvMemory memory = VmReadvMemory.open((int) target.pid())) {
            PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of((int) target.pid()), memory);
            ProcessStacks first = process.snapshot(SnapshotOptions.threads(true));
            WalkStats afterFirst = process.stats();
            ProcessStacks second = process.snapshot(SnapshotOptions.threads(true));
            WalkStats afterSecond = process.stats();

            assertThat(second.interpreters()).isEqualTo(first.interpreters());
            long frames = second.interpreters().stream().flatMap(i -> i.threads().stream())
                    .mapToLong(t -> t.frames().size()).sum();
            assertThat(frames).isGreaterThan(ParkedThreads.DEFAULT_DEPTH);
            assertThat(afterFirst.codeObjectMisses()).as("distinct code objects decoded once").isLessThan(frames);
            assertThat(afterSecond.codeObjectMisses()).as("no code object decoded again").isEqualTo(afterFirst.codeObjectMisses());
            assertThat(afterSecond.frameCacheHits() - afterFirst.frameCacheHits()).as("every frame reused").isEqualTo(frames);
            assertThat(afterSecond.frameCacheMisses()).isEqualTo(afterFirst.frameCacheMisses());
        }
    }
}
