package dev.remora.domain.offsets;

import dev.remora.domain.InspectionException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import dev.remora.domain.testing.DebugOffsetsFixtures;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Decodes the debug offsets the real Debian interpreters ship, and rejects damaged copies of them. */
class DebugOffsetsDecoderTest {

    @ParameterizedTest
    @CsvSource({
            // minor, version, thread size, frame size, frame owner, interpreters_head, has holds_gil
            "3.13, 3.13.18, 312, 80, 70, 632, false",
            "3.14, 3.14.10, 832, 88, 74, 808, false",
            "3.15, 3.15.2, 888, 88, 74, 936, true"})
    void decodesTheShippedOffsets(String minor, String version, long threadSize, long frameSize, long owner,
                                  long interpretersHead, boolean holdsGil) throws Exception {
        DebugOffsets offsets = DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets(minor));

        assertThat(offsets.version()).hasToString(version);
        assertThat(offsets.thread().size()).isEqualTo(threadSize);
        assertThat(offsets.thread().currentFrame()).isEqualTo(0x48);
        assertThat(offsets.frame().size()).isEqualTo(frameSize);
        assertThat(offsets.frame().owner()).hasValue(owner);
        assertThat(offsets.runtime().interpretersHead()).isEqualTo(interpretersHead);
        assertThat(offsets.thread().holdsGil().isPresent()).isEqualTo(holdsGil);
        assertThat(offsets.code().qualname()).isEqualTo(128);
        assertThat(offsets.unicode().compactDataOffset()).isEqualTo(56);
        assertThat(offsets.unicode().asciiDataOffset()).isEqualTo(40);
    }

    @Test
    void rejectsAMissingCookie() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.15");
        raw[0] = 'y';
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw)).isInstanceOf(InspectionException.CorruptTarget.class);
    }

    @Test
    void namesAnUnsupportedVersion() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.15");
        putLong(raw, 8, 0x030710F0L);
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw))
                .isInstanceOf(InspectionException.UnsupportedVersion.class)
                .hasMessageContaining("3.7.16").hasMessageContaining("3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15");
    }

    @Test
    void rejectsDebugOffsetsThatNameAVersionWithoutThem() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.15");
        putLong(raw, 8, 0x030C04F0L);
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("3.12.4");
    }

    @Test
    void rejectsFreeThreadedBuilds() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.14");
        putLong(raw, 16, 1);
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw))
                .isInstanceOf(InspectionException.UnsupportedVersion.class).hasMessageContaining("free-threaded");
    }

    @Test
    void rejectsAnAbsurdStructSize() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.13");
        int at = exported(13).bytePosition("thread_state.size").orElseThrow();
        putLong(raw, at, 1L << 40);
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("thread_state.size");
    }

    @Test
    void rejectsAFieldOutsideItsStruct() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.14");
        int at = exported(14).bytePosition("interpreter_frame.previous").orElseThrow();
        putLong(raw, at, 85);
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("interpreter_frame.previous");
    }

    @ParameterizedTest
    @CsvSource({
            // minor, has the 3.14 records, localsplus, imports_modules
            "3.13, false, 72, 7656",
            "3.14, true, 80, 7688",
            "3.15, true, 80, 7592"})
    void decodesWhatTheAsyncioGraphReads(String minor, boolean since314, long localsPlus, long importsModules)
            throws Exception {
        DebugOffsets offsets = DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets(minor));

        assertThat(offsets.frame().localsPlus()).isEqualTo(localsPlus);
        assertThat(offsets.interpreter().importsModules()).isEqualTo(importsModules);
        assertThat(offsets.longObject()).contains(new DebugOffsets.LongObject(32, 16, 24));
        assertThat(offsets.dict()).isEqualTo(new DebugOffsets.DictObject(48, 32));
        assertThat(offsets.type().tpFlags()).isEqualTo(168);
        // 3.13 does not export PySetObject; its table of what the debug offsets leave out has it.
        assertThat(offsets.set()).contains(new DebugOffsets.SetObject(200, 24, 40, 32));
        if (since314) {
            assertThat(offsets.generator()).contains(new DebugOffsets.Generator(160, 72, 67));
            assertThat(offsets.llistNode()).contains(new DebugOffsets.LlistNode(0));
            assertThat(offsets.frame().stackPointer()).hasValue(64);
        } else {
            assertThat(offsets.generator()).isEmpty();
            assertThat(offsets.llistNode()).isEmpty();
            assertThat(offsets.frame().stackPointer()).isEmpty();
        }
    }

    @Test
    void rejectsAGeneratorTooSmallForItsFrame() {
        byte[] raw = DebugOffsetsFixtures.debugOffsets("3.15");
        int at = exported(15).bytePosition("gen_object.gi_iframe").orElseThrow();
        putLong(raw, at, 80);
        assertThatThrownBy(() -> DebugOffsetsDecoder.decode(raw))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("gen_object.gi_iframe");
    }

    @Test
    void namesTheFirstVersionWithAField() {
        assertThat(DebugOffsetsLayout.firstWith("gen_object.gi_iframe")).contains("3.14");
        assertThat(DebugOffsetsLayout.firstWith("runtime_state.size")).contains("3.13");
        assertThat(DebugOffsetsLayout.firstWith("no.such")).isEmpty();
    }

    @Test
    void layoutSizesMatchTheStructsOfEachVersion() {
        assertThat(exported(13).totalSize()).isEqualTo(584);
        assertThat(exported(14).totalSize()).isEqualTo(760);
        assertThat(exported(15).totalSize()).isEqualTo(888);
    }

    private static void putLong(byte[] raw, int at, long value) {
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putLong(at, value);
    }

    /** The debug offsets' field order of CPython 3.{@code minor}. */
    private static DebugOffsetsLayout exported(int minor) {
        return VersionLayout.forVersion(new PythonVersion(3, minor, 0, 0xF, 0)).orElseThrow().exported().orElseThrow();
    }
}
