package dev.remora.domain.profile;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.ThreadStatus;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What the walk's CPU check says of a thread after its walk decides how many samples its stack gives. */
class ProfileBuilderTest {

    private static final int ON_CPU = ThreadStatus.ON_CPU.bit();

    private static ProfileBuilder builder(ProfileMode mode) {
        return new ProfileBuilder(new ProfileInfo(1, "3.15.0", "vmreadv", mode, 1_000_000, 0));
    }

    /** One thread's walk: begun on a CPU, then settled as the check said (or not at all, for -1). */
    private static void walk(ProfileBuilder builder, int settledStatus, int cpuSamples, Optional<StackProblem> problem) {
        builder.beginSample(0);
        assertThat(builder.beginThread(1, 7, ON_CPU)).isTrue();
        if (cpuSamples >= 0) {
            builder.statusAfterWalk(settledStatus, cpuSamples);
        }
        builder.frame(new FrameInfo("work", "/app/work.py", SourceLocation.NONE));
        builder.endThread(problem);
    }

    @Test
    void inCpuModeAStackGivesAsManySamplesAsTheCheckSays() {
        ProfileBuilder cpu = builder(ProfileMode.CPU);
        walk(cpu, ON_CPU, 2, Optional.empty());
        walk(cpu, ON_CPU, 1, Optional.empty());
        walk(cpu, ON_CPU, 0, Optional.empty());
        walk(cpu, 0, 0, Optional.empty());
        assertThat(cpu.profile().samples().size()).isEqualTo(3);
    }

    @Test
    void withoutACheckCpuModeKeepsAThreadTheOsCallsRunning() {
        ProfileBuilder cpu = builder(ProfileMode.CPU);
        walk(cpu, 0, -1, Optional.empty());
        assertThat(cpu.profile().samples().size()).isEqualTo(1);
    }

    @Test
    void aThreadFoundOffACpuIsNoTickOfCpuModeSoItsFailedWalkIsNoError() {
        ProfileBuilder cpu = builder(ProfileMode.CPU);
        walk(cpu, 0, 0, Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "moved")));
        walk(cpu, ON_CPU, 1, Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "moved")));
        assertThat(cpu.errorCount()).isEqualTo(1);
        assertThat(cpu.profile().samples().size()).isZero();
    }

    @Test
    void wallModeKeepsOneSampleATickWithTheStatusTheCheckSettled() {
        ProfileBuilder wall = builder(ProfileMode.WALL);
        walk(wall, 0, 0, Optional.empty());
        walk(wall, ON_CPU, 2, Optional.empty());
        assertThat(wall.profile().samples().size()).isEqualTo(2);
        assertThat(wall.profile().samples().status(0) & ON_CPU).isZero();
        assertThat(wall.profile().samples().status(1) & ON_CPU).isEqualTo(ON_CPU);
    }
}
