package dev.remora.ports.elf;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared decoding, on this JVM's own executable and on headers built field by field. */
class ElfHeadersTest {

    @Test
    void decodesTheRunningJavaExecutable() throws IOException {
        byte[] file = Files.readAllBytes(Path.of(ProcessHandle.current().info().command().orElseThrow()));
        assertThat(ElfFileHeader.hasMagic(file)).isTrue();
        ElfFileHeader header = ElfFileHeader.decode(file);
        assertThat(header.is64BitLittleEndian()).isTrue();
        assertThat(header.machine()).isEqualTo(ElfFileHeader.EM_X86_64);
        assertThat(header.programHeaderSize()).isEqualTo(ElfProgramHeader.SIZE);
        assertThat(header.sectionHeaderSize()).isEqualTo(ElfSectionHeader.SIZE);
        boolean sawLoad = false;
        for (int i = 0; i < header.programHeaderCount(); i++) {
            ElfProgramHeader ph = ElfProgramHeader.decode(file, (int) header.programHeaderOffset() + i * ElfProgramHeader.SIZE);
            sawLoad |= ph.type() == ElfProgramHeader.PT_LOAD;
        }
        assertThat(sawLoad).as("an executable has a PT_LOAD").isTrue();
        ElfSectionHeader names = ElfSectionHeader.decode(file,
                (int) header.sectionHeaderOffset() + header.sectionNamesIndex() * ElfSectionHeader.SIZE);
        assertThat(new String(file, (int) names.offset(), (int) names.size())).contains(".text", ".dynsym");
    }

    @Test
    void programHeaderFieldsAreUnsignedLittleEndian() {
        ByteBuffer b = ByteBuffer.allocate(ElfProgramHeader.SIZE + 8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(8, 0x8000_0001).putInt(12, 5).putLong(16, 0x1000).putLong(24, 0xffff_ffff_ffff_f000L)
                .putLong(40, 0x234).putLong(48, 0x2000).putLong(56, 0x1000);
        ElfProgramHeader ph = ElfProgramHeader.decode(b.array(), 8);
        assertThat(ph.type()).isEqualTo(0x8000_0001L);
        assertThat(ph.permissions()).isEqualTo("r-xp");
        assertThat(ph.offset()).isEqualTo(0x1000);
        assertThat(ph.fileSize()).isEqualTo(0x234);
        assertThat(ph.fitsAddressSpace()).as("0xfffffffffffff000 + 0x2000 wraps").isFalse();
        assertThat(new ElfProgramHeader(1, 0, 0, 0x401234, 0, 1, 0x1000).alignedAddress()).isEqualTo(0x401000);
    }

    @Test
    void aShortBufferIsRefusedNotReadPast() {
        assertThat(ElfFileHeader.hasMagic(new byte[] {0x7f, 'E'})).isFalse();
        assertThatThrownBy(() -> ElfFileHeader.decode(new byte[63])).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ElfSectionHeader.decode(new byte[100], 40)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
