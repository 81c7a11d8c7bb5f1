package dev.remora.app.output.profile.binary;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.app.output.profile.collapsed.CollapsedWriter;
import dev.remora.app.output.profile.flamegraph.FlamegraphWriter;
import dev.remora.app.output.profile.pprof.PprofWriter;
import dev.remora.app.output.profile.pstats.PstatsWriter;
import dev.remora.app.output.profile.speedscope.SpeedscopeWriter;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A profile written in the binary capture format and read back gives every other format byte for
 * byte as the profile itself did: stacks that grow, shrink and repeat, threads taking turns, native
 * marks, and Remora's own facts (errors by reason, thread names) in their block.
 */
class BinaryRoundTripTest {

    private static final FrameInfo MAIN = frame("main", "/a/app.py", 10);
    private static final FrameInfo WORK = frame("work", "/a/app.py", 20);
    private static final FrameInfo LEAF = frame("leaf_é", "/a/módulo.py", 3, 7);
    private static final FrameInfo SERVE = frame("Server.serve", "/a/srv.py", 40);

    @TempDir
    Path dir;

    static Profile sample() {
        ProfileFixture f = new ProfileFixture(4242, ProfileMode.WALL, 1_000_000);
        for (int i = 0; i < 50; i++) {
            f.sample(4242, LEAF, WORK, MAIN);
            f.sample(4243, SERVE);
            f.repeat(3, 4242, WORK, MAIN);
            f.sample(4242, PseudoFrames.NATIVE, LEAF, PseudoFrames.NATIVE, WORK, MAIN);
            f.sample(4243, LEAF, SERVE);
        }
        Profile p = f.profile();
        p.threads().name(1, "server");
        return f.finish();
    }

    @ParameterizedTest(name = "zstd {0}")
    @ValueSource(booleans = {true, false})
    void everyFormatOfTheReplayIsThatOfTheProfile(boolean zstd) throws Exception {
        Profile original = sample();
        Profile replayed = TachyonReader.read(bytes(new BinaryWriter(zstd), original), 0);
        for (ProfileWriter writer : List.of(new CollapsedWriter(), new PstatsWriter(), new FlamegraphWriter(),
                new SpeedscopeWriter(), new PprofWriter())) {
            assertThat(bytes(writer, replayed)).as(writer.getClass().getSimpleName()).isEqualTo(bytes(writer, original));
        }
        assertThat(replayed.stats()).usingRecursiveComparison().isEqualTo(original.stats());
        assertThat(replayed.threads().get(1).name()).contains("server");
        assertThat(replayed.info()).isEqualTo(original.info());
    }

    @Test
    void aCaptureWrittenWindowByWindowIsWholeAfterEachWindow() throws Exception {
        Profile original = sample();
        Path file = dir.resolve("capture.bin");
        int samples = original.samples().size();
        try (BinaryCapture capture = new BinaryCapture(file, true, BinaryCapture.features(true, true, true, false))) {
            for (int from = 0; from < samples; from += 97) {
                int to = Math.min(samples, from + 97);
                capture.window(original, from, to);
                Profile sofar = TachyonReader.read(Files.readAllBytes(file), 0);
                assertThat(sofar.samples().size()).as("samples after the window up to %d", to).isEqualTo(to);
            }
            capture.finish(original);
        }
        Profile replayed = TachyonReader.read(Files.readAllBytes(file), 0);
        assertThat(bytes(new CollapsedWriter(), replayed)).isEqualTo(bytes(new CollapsedWriter(), original));
        assertThat(replayed.stats()).usingRecursiveComparison().isEqualTo(original.stats());
    }

    @Test
    void stacksDeeperThanTheFormatKeepTheirInnermostFrames() throws Exception {
        ProfileFixture f = new ProfileFixture();
        FrameInfo[] deep = new FrameInfo[300];
        for (int i = 0; i < deep.length; i++) {
            deep[i] = frame("f" + i, "/a/deep.py", i + 1);
        }
        Profile replayed = TachyonReader.read(bytes(new BinaryWriter(false), f.sample(1, deep).finish()), 0);
        int node = replayed.samples().node(0);
        assertThat(replayed.tree().path(node)).hasSize(256);
        assertThat(replayed.frames().get(replayed.tree().frame(node)).function()).isEqualTo("f0");
    }

    @Test
    void whatIsNotACaptureIsSaidInOneLine() throws Exception {
        assertThatThrownBy(() -> TachyonReader.read(new byte[200], 0)).isInstanceOf(TachyonFormatException.class)
                .hasMessage("not a binary profile (no HCAT magic)");
        byte[] capture = bytes(new BinaryWriter(false), sample());
        capture[0x1c] ^= 1; // the sample count
        assertThatThrownBy(() -> TachyonReader.read(capture, 0)).isInstanceOf(TachyonFormatException.class)
                .hasMessageContaining("the header declares");
        byte[] cut = java.util.Arrays.copyOf(bytes(new BinaryWriter(false), sample()), 500);
        assertThatThrownBy(() -> TachyonReader.read(cut, 0)).isInstanceOf(TachyonFormatException.class);
    }

    /** Any byte of a capture changed: it reads, or it fails as a capture that is not one; nothing else. */
    @ParameterizedTest(name = "zstd {0}")
    @ValueSource(booleans = {true, false})
    void mutatedCapturesReadOrFailInOneLine(boolean zstd) throws Exception {
        byte[] capture = bytes(new BinaryWriter(zstd), sample());
        java.util.Random random = new java.util.Random(zstd ? 1 : 2);
        int failed = 0;
        for (int round = 0; round < 3000; round++) {
            byte[] mutated = capture.clone();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
            }
            try {
                TachyonReader.read(mutated, 0);
            } catch (TachyonFormatException e) {
                failed++;
                assertThat(e.getMessage()).doesNotContain("\n");
            }
        }
        assertThat(failed).as("most mutations break the capture").isPositive();
    }

    @Test
    void aCollapsedBaselineWhoseCountsAreDurationsIsRefused() {
        assertThatThrownBy(() -> dev.remora.app.output.profile.collapsed.CollapsedReader.read(
                List.of("tid:1;app.py:main:1 12", "tid:1;app.py:main:1;app.py:work:5 123456789012"), "base.txt"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("base.txt line 2 brings the samples past 100000000"
                        + " (are its counts durations?)");
    }

    private static byte[] bytes(ProfileWriter writer, Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(profile, out);
        return out.toByteArray();
    }
}
