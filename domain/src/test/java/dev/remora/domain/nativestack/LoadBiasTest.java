package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryMapping;
import dev.remora.ports.elf.ElfProgramHeader;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The load bias from the PT_LOAD segment a mapping's file offset falls in. */
class LoadBiasTest {

    private static final long BASE = 0x7f00_0000_0000L;

    private static ElfProgramHeader load(long offset, long address, long size) {
        return new ElfProgramHeader(ElfProgramHeader.PT_LOAD, ElfProgramHeader.PF_R, offset, address, size, size, 0x1000);
    }

    private static MemoryMapping mapping(long start, long fileOffset) {
        return new MemoryMapping(start, start + 0x1000, "r-xp", fileOffset, Optional.of("/x"), false);
    }

    @Test
    void aFixedAddressExecutableHasNoBias() {
        List<ElfProgramHeader> headers = List.of(load(0, 0x40_0000, 0x1000), load(0x1000, 0x40_1000, 0x5000));

        assertThat(LoadBias.of(headers, mapping(0x40_1000, 0x1000))).isEqualTo(OptionalLong.of(0));
    }

    @Test
    void aSegmentWhoseAddressIsNotItsOffsetShiftsByTheDifference() {
        // Text at file offset 0x2d000 linked at 0x2e000, as linkers lay out segments after a gap.
        List<ElfProgramHeader> headers = List.of(load(0, 0, 0x2c000), load(0x2d000, 0x2e000, 0x10000));

        assertThat(LoadBias.of(headers, mapping(BASE + 0x2e000, 0x2d000))).isEqualTo(OptionalLong.of(BASE));
        assertThat(LoadBias.of(headers, mapping(BASE + 0x30000, 0x2f000))).isEqualTo(OptionalLong.of(BASE));
    }

    @Test
    void aSegmentStartingInsideItsPageStillPlacesTheMappingOfThatPage() {
        List<ElfProgramHeader> headers = List.of(load(0x1cf8d0, 0x1d08d0, 0x5000));

        assertThat(LoadBias.of(headers, mapping(BASE + 0x1d0000, 0x1cf000))).isEqualTo(OptionalLong.of(BASE));
    }

    @Test
    void aMappingOutsideEverySegmentHasNoBias() {
        assertThat(LoadBias.of(List.of(load(0, 0, 0x1000)), mapping(BASE, 0x8000))).isEmpty();
    }
}
