package dev.remora.adapters.vmreadv;

import dev.remora.ports.testing.PythonTarget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remora.ports.MemoryAccessException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads of a process that has exited and been reaped. */
class ProcessGoneTest {

    @Test
    void readAfterExitSaysTheProcessIsGone() throws Exception {
        try (PythonTarget target = PythonTarget.start();
             VmReadvMemory memory = VmReadvMemory.open(target.pid())) {
            long edge = target.number("edge_addr");
            byte[] before = new byte[16];
            memory.read(edge, before, 0, before.length);
            assertThat(before).containsOnly(0x5A);

            target.exitAndReap();

            assertThatThrownBy(() -> memory.read(edge, new byte[16], 0, 16))
                    .isInstanceOf(MemoryAccessException.ProcessGone.class);
            List<RangeOutcome> outcomes = memory.readBatch(List.of(
                    ReadRange.of(edge, new byte[8]), ReadRange.of(edge + 8, new byte[8])));
            assertThat(outcomes).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(RangeOutcome.Failed.class,
                    f -> assertThat(f.cause()).isInstanceOf(MemoryAccessException.ProcessGone.class)));
        }
    }
}
