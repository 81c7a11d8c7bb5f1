package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ZstdDecoder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ModuleLookupTest {

    private static final MemoryMapping VSYSCALL = new MemoryMapping(0xffffffffff600000L, 0xffffffffff601000L, "--xp", 0,
            Optional.of("[vsyscall]"), false);
    private static final MemoryMapping EXE = new MemoryMapping(0x55e93c5f2000L, 0x55e93c5f3000L, "r-xp", 0x1000,
            Optional.of("/usr/bin/python3"), false);
    private static final MemoryMapping LIBC = new MemoryMapping(0x7f0000028000L, 0x7f00001bd000L, "r-xp", 0x28000,
            Optional.of("/usr/lib/libc.so.6"), false);

    @Test
    void theVsyscallPageAtTheTopOfTheAddressSpaceDoesNotHideTheMappingsBelowIt() {
        NativeModules modules = NativeModules.of(List.of(LIBC, VSYSCALL, EXE), path -> Optional.empty(), null, ZstdDecoder.NONE);
        assertThat(modules.moduleAt(0x55e93c5f2080L)).get().extracting(Module::path).isEqualTo(EXE.path());
        assertThat(modules.moduleAt(0x7f0000030000L)).get().extracting(Module::path).isEqualTo(LIBC.path());
        assertThat(modules.moduleAt(0xffffffffff600400L)).get().extracting(Module::path).isEqualTo(VSYSCALL.path());
        assertThat(modules.moduleAt(0x1000)).isEmpty();
    }
}
