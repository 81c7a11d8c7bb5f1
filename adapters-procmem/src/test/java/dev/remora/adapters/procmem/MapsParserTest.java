package dev.remora.adapters.procmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remora.ports.MemoryMapping;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Lines as the kernel writes them, including the awkward ones. */
class MapsParserTest {

    @Test
    void parsesAFileMapping() {
        MemoryMapping m = MapsParser.parseLine(
                "7f0a1c000000-7f0a1c021000 r-xp 00001000 fe:00 1234                       /usr/lib/libpython3.11.so.1.0");
        assertThat(m).isEqualTo(new MemoryMapping(0x7f0a1c000000L, 0x7f0a1c021000L, "r-xp", 0x1000,
                Optional.of("/usr/lib/libpython3.11.so.1.0"), false));
    }

    @Test
    void keepsSpacesInsideAndAtTheEndOfPaths() {
        MemoryMapping m = MapsParser.parseLine(
                "1000-2000 r--s 00000000 fe:00 99                         /tmp/a  b (c) .bin ");
        assertThat(m.path()).contains("/tmp/a  b (c) .bin ");
        assertThat(m.deleted()).isFalse();
    }

    @Test
    void stripsTheDeletedMarker() {
        MemoryMapping m = MapsParser.parseLine(
                "1000-2000 r--s 00000000 fe:00 99                         /tmp/old lib.so (deleted)");
        assertThat(m.path()).contains("/tmp/old lib.so");
        assertThat(m.deleted()).isTrue();
    }

    @Test
    void keepsPseudoPathsAndLeavesAnonymousMappingsWithout() {
        List<MemoryMapping> all = MapsParser.parse("""
                7ffc6c6b4000-7ffc6c6d5000 rw-p 00000000 00:00 0                          [stack]
                7fc516fd0000-7fc517015000 rw-p 00000000 00:00 0\s
                7fc516fd0000-7fc517015000 rw-p 00000000 00:00 0
                ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
                """);
        assertThat(all).hasSize(4);
        assertThat(all.get(0).path()).contains("[stack]");
        assertThat(all.get(1).path()).isEmpty();
        assertThat(all.get(2).path()).isEmpty();
        assertThat(all.get(3).start()).isEqualTo(0xffffffffff600000L);
        assertThat(all.get(3).end()).isEqualTo(0xffffffffff601000L);
        assertThat(all.get(3).path()).contains("[vsyscall]");
    }

    @Test
    void rejectsGarbage() {
        assertThatThrownBy(() -> MapsParser.parseLine("hello")).isInstanceOf(IllegalArgumentException.class);
    }
}
