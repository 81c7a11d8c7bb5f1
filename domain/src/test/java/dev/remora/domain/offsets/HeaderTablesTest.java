package dev.remora.domain.offsets;

import dev.remora.domain.InspectionException;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The layouts of the versions that export no debug offsets, decoded from their generated tables.
 * The figures were measured apart from the generator, on live 3.11.7 and 3.12.1 processes.
 */
class HeaderTablesTest {

    private static DebugOffsets offsets(int minor, int micro) throws InspectionException {
        return DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, minor, micro, 0xF, 0));
    }

    @Test
    void decodes311() throws Exception {
        DebugOffsets o = offsets(11, 7);
        assertThat(o.runtime().interpretersHead()).isEqualTo(0x28);
        assertThat(o.runtime().gilLocked()).hasValue(0x178);
        assertThat(o.runtime().gilHolder()).hasValue(0x170);
        assertThat(o.interpreter().gilLocked()).isEmpty();
        assertThat(o.interpreter().threadsHead()).isEqualTo(0x10);
        assertThat(o.thread().cframe()).contains(new DebugOffsets.CFrame(0x38, 0x10, 24));
        assertThat(o.thread().currentFrame()).isEqualTo(8);
        assertThat(o.thread().nativeThreadId()).hasValue(0xa0);
        assertThat(o.thread().datastackChunk()).hasValue(0x128);
        assertThat(o.frame()).isEqualTo(new DebugOffsets.Frame(80, 0x30, 0x20, 0x38, OptionalLong.of(0x45), 0x48,
                OptionalLong.empty(), OptionalLong.of(0x44), Optional.empty(), OptionalLong.empty()));
        assertThat(o.code().codeAdaptive()).isEqualTo(0xb8);
        assertThat(o.unicode().asciiDataOffset()).isEqualTo(48);
        assertThat(o.unicode().compactDataOffset()).isEqualTo(72);
        assertThat(o.longObject()).isEmpty();
        assertThat(o.layout().owners().isBottom(0)).isTrue();
        assertThat(o.layout().owners().isEntry(3)).isFalse();
    }

    @Test
    void decodes312() throws Exception {
        DebugOffsets o = offsets(12, 1);
        assertThat(o.runtime().gilLocked()).isEmpty();
        assertThat(o.interpreter().gilLocked()).hasValue(0x420);
        assertThat(o.interpreter().gilHolder()).hasValue(0x418);
        assertThat(o.interpreter().threadsHead()).isEqualTo(0x48);
        assertThat(o.thread().cframe()).contains(new DebugOffsets.CFrame(0x38, 0x8, 16));
        assertThat(o.thread().currentFrame()).isZero();
        assertThat(o.thread().nativeThreadId()).hasValue(0x90);
        assertThat(o.thread().datastackChunk()).hasValue(0xe8);
        assertThat(o.frame()).isEqualTo(new DebugOffsets.Frame(80, 0x8, 0, 0x38, OptionalLong.of(0x46), 0x48,
                OptionalLong.empty(), OptionalLong.empty(), Optional.empty(), OptionalLong.empty()));
        assertThat(o.code().codeAdaptive()).isEqualTo(0xc0);
        assertThat(o.unicode().asciiDataOffset()).isEqualTo(40);
        assertThat(o.unicode().compactDataOffset()).isEqualTo(56);
        assertThat(o.layout().owners().isEntry(3)).isTrue();
        assertThat(o.layout().owners().isBottom(3)).isTrue();
        assertThat(o.layout().owners().isBottom(0)).isFalse();
    }

    @Test
    void everyPatchReleaseOfAMinorVersionSharesItsTable() throws Exception {
        assertThat(offsets(12, 9).thread()).isEqualTo(offsets(12, 1).thread());
        assertThat(offsets(11, 2).frame()).isEqualTo(offsets(11, 7).frame());
    }

    @Test
    void aVersionThatExportsDebugOffsetsHasNoTable() {
        assertThatThrownBy(() -> offsets(13, 0)).isInstanceOf(InspectionException.CorruptTarget.class);
    }

    @Test
    void namesTheSupportedVersions() {
        assertThat(VersionLayout.supportedVersions()).isEqualTo("3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15");
        assertThatThrownBy(() -> offsets(7, 16)).isInstanceOf(InspectionException.UnsupportedVersion.class)
                .hasMessageContaining("3.7.16").hasMessageContaining("3.8, 3.9, 3.10");
    }

    @Test
    void decodes310() throws Exception {
        DebugOffsets o = offsets(10, 13);
        assertThat(o.interpreter().threadsHead()).isEqualTo(0x8);
        assertThat(o.runtime().gilHolder()).hasValue(0x168);
        assertThat(o.thread().currentFrame()).as("tstate->frame").isEqualTo(0x18);
        assertThat(o.thread().cframe()).isEmpty();
        assertThat(o.thread().threadId()).isEqualTo(0xb0);
        assertThat(o.thread().nativeThreadId()).isEmpty();
        assertThat(o.thread().datastackChunk()).isEmpty();
        assertThat(o.frame().previous()).as("f_back").isEqualTo(0x18);
        assertThat(o.frame().executable()).as("f_code").isEqualTo(0x20);
        assertThat(o.frame().instrPtr()).as("f_lasti").isEqualTo(0x60);
        assertThat(o.frame().size()).as("read up to f_state").isEqualTo(0x70);
        assertThat(o.frame().frameObject()).contains(new DebugOffsets.FrameObject(0x6c, 0, 2, 1, 3, 4));
        assertThat(o.code().qualname()).as("co_name: 3.10 has no qualified name").isEqualTo(0x70);
        assertThat(o.code().codeAdaptive()).isZero();
        assertThat(o.layout().lineTable()).isEqualTo(LineTableFormat.LINES);
    }

    @Test
    void decodes39() throws Exception {
        DebugOffsets o = offsets(9, 18);
        assertThat(o.thread().currentFrame()).as("tstate->frame").isEqualTo(0x18);
        assertThat(o.frame().previous()).as("f_back").isEqualTo(0x18);
        assertThat(o.frame().instrPtr()).as("f_lasti").isEqualTo(0x68);
        // No frame state: f_executing is 1 while the eval loop runs the frame, 0 otherwise.
        assertThat(o.frame().frameObject()).contains(new DebugOffsets.FrameObject(0x74, 1, 1, 0, 0, 0));
        assertThat(o.frame().size()).as("read up to f_executing").isEqualTo(0x78);
        assertThat(o.layout().lineTable()).isEqualTo(LineTableFormat.LINE_NOTES);
        assertThat(o.layout().lastInstruction()).as("f_lasti counts bytes").isEqualTo(LastInstruction.BYTE_OFFSET);
    }

    @Test
    void decodes38() throws Exception {
        DebugOffsets o = offsets(8, 18);
        assertThat(o.interpreter().threadsHead()).isEqualTo(0x8);
        assertThat(o.runtime().gilHolder()).hasValue(0x488);
        assertThat(o.frame().frameObject()).contains(new DebugOffsets.FrameObject(0x74, 1, 1, 0, 0, 0));
        assertThat(o.layout().lastInstruction()).isEqualTo(LastInstruction.BYTE_OFFSET);
    }

    @Test
    void aTableLineThatIsNotNameAndValueIsRejected() {
        assertThatThrownBy(() -> HeaderTable.parse("3.99", "3.99.0", "thread_state.size 0x10 extra"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeaderTable.parse("3.99", "3.99.0", "a 1\na 2"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
