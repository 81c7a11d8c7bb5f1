package dev.remora.adapters.procmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.testing.PythonTarget;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What /proc/PID/mem does beyond the contract every live backend keeps (ProcMemContractTest): its
 * name, a process that exits under an open file, a closed reader.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProcMemMemoryTest {

    private PythonTarget target;
    private ProcMemMemory memory;
    private long edgeAddr;

    @BeforeAll
    void startTarget() throws Exception {
        target = PythonTarget.start();
        edgeAddr = target.number("edge_addr");
        memory = ProcMemMemory.open(target.pid());
    }

    @AfterAll
    void stopTarget() {
        memory.close();
        target.close();
    }

    @Test
    void namesItsBackend() {
        assertThat(memory.backendName()).isEqualTo("procmem");
        assertThat(memory.pid()).isEqualTo(target.pid());
    }

    @Test
    void readAfterExitSaysTheProcessIsGone() throws Exception {
        try (PythonTarget doomed = PythonTarget.start();
             ProcMemMemory opened = ProcMemMemory.open(doomed.pid());
             ProcMemMemory notYetOpened = ProcMemMemory.open(doomed.pid())) {
            long edge = doomed.number("edge_addr");
            byte[] before = new byte[16];
            opened.read(edge, before, 0, before.length);
            assertThat(before).containsOnly(0x5A);

            doomed.exitAndReap();

            // The open file outlives the process: the read must still say why it failed.
            assertThatThrownBy(() -> opened.read(edge, new byte[16], 0, 16))
                    .isInstanceOf(MemoryAccessException.ProcessGone.class);
            assertThatThrownBy(() -> notYetOpened.read(edge, new byte[16], 0, 16))
                    .isInstanceOf(MemoryAccessException.ProcessGone.class);
        }
    }

    @Test
    void closedMemoryRefusesReads() throws Exception {
        ProcMemMemory closing = ProcMemMemory.open(target.pid());
        closing.read(edgeAddr, new byte[4], 0, 4);
        closing.close();
        assertThatThrownBy(() -> closing.read(edgeAddr, new byte[4], 0, 4))
                .isInstanceOf(IllegalStateException.class);
    }
}
