package dev.remora.adapters.procmem;

import dev.remora.ports.testing.PythonTarget;
import dev.remora.ports.testing.WriteCheck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RangeOutcome;
import dev.remora.ports.ReadRange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Reads a live python3 child's memory through /proc/PID/mem and compares with the bytes it was given. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProcMemMemoryTest {

    private static final int PAYLOAD_BYTES = 300_001;

    private byte[] payload;
    private PythonTarget target;
    private ProcMemMemory memory;
    private long payloadAddr;
    private long edgeAddr;
    private int page;

    @BeforeAll
    void startTarget(@TempDir Path dir) throws Exception {
        payload = new byte[PAYLOAD_BYTES];
        new Random(7).nextBytes(payload);
        Path file = dir.resolve("payload.bin");
        Files.write(file, payload);
        target = PythonTarget.start("payload=" + file);
        payloadAddr = target.number("payload_addr");
        edgeAddr = target.number("edge_addr");
        page = Math.toIntExact(target.number("page_size"));
        memory = ProcMemMemory.open(target.pid());
    }

    @AfterAll
    void stopTarget() throws Exception {
        memory.close();
        target.close();
    }

    @Test
    void readsTheBytesTheTargetHolds() throws Exception {
        byte[] dst = new byte[PAYLOAD_BYTES];
        memory.read(payloadAddr, dst, 0, dst.length);
        assertThat(dst).isEqualTo(payload);
    }

    @Test
    void readsIntoTheRequestedSliceOnly() throws Exception {
        byte[] dst = new byte[40];
        Arrays.fill(dst, (byte) 9);
        memory.read(payloadAddr + 100, dst, 10, 20);
        assertThat(Arrays.copyOfRange(dst, 10, 30)).isEqualTo(Arrays.copyOfRange(payload, 100, 120));
        assertThat(Arrays.copyOfRange(dst, 0, 10)).containsOnly(9);
        assertThat(Arrays.copyOfRange(dst, 30, 40)).containsOnly(9);
    }

    @Test
    void lowAddressIsUnmapped() {
        var e = catchThrowableOfType(MemoryAccessException.Unmapped.class,
                () -> memory.read(0x10, new byte[8], 0, 8));
        assertThat(e.address()).isEqualTo(0x10);
    }

    @Test
    void addressAboveLongMaxIsUnmapped() {
        var e = catchThrowableOfType(MemoryAccessException.Unmapped.class,
                () -> memory.read(0xffff_8000_0000_0000L, new byte[8], 0, 8));
        assertThat(e.address()).isEqualTo(0xffff_8000_0000_0000L);
    }

    @Test
    void readRunningOffTheEndOfAMappingFailsWhereTheHoleStarts() {
        byte[] dst = new byte[2 * page];
        var e = catchThrowableOfType(MemoryAccessException.Unmapped.class,
                () -> memory.read(edgeAddr + page, dst, 0, dst.length));
        assertThat(e.address()).isEqualTo(edgeAddr + 2L * page);
        assertThat(Arrays.copyOfRange(dst, 0, page)).containsOnly(0x5A);
    }

    @Test
    void batchGivesEachRangeItsOwnOutcome() {
        byte[] a = new byte[64];
        byte[] b = new byte[64];
        List<RangeOutcome> outcomes = memory.readBatch(List.of(
                ReadRange.of(payloadAddr + 64, a),
                ReadRange.of(0x10, new byte[8]),
                ReadRange.of(payloadAddr + 200_000, b)));
        assertThat(outcomes.get(0)).isEqualTo(new RangeOutcome.Complete(64));
        assertThat(outcomes.get(1)).isInstanceOfSatisfying(RangeOutcome.Failed.class,
                f -> assertThat(f.cause()).isInstanceOf(MemoryAccessException.Unmapped.class));
        assertThat(outcomes.get(2)).isEqualTo(new RangeOutcome.Complete(64));
        assertThat(a).isEqualTo(Arrays.copyOfRange(payload, 64, 128));
        assertThat(b).isEqualTo(Arrays.copyOfRange(payload, 200_000, 200_064));
    }

    @Test
    void writesLandInTheTargetAndReadBack() throws Exception {
        WriteCheck.writeReadBackAndRestore(memory, payloadAddr + 1000, Arrays.copyOfRange(payload, 1000, 1008));
    }

    @Test
    void writeToAnUnmappedAddressFails() {
        assertThatThrownBy(() -> memory.write(edgeAddr + 2L * page, new byte[8], 0, 8))
                .isInstanceOf(MemoryAccessException.Unmapped.class);
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
        closing.read(payloadAddr, new byte[4], 0, 4);
        closing.close();
        assertThatThrownBy(() -> closing.read(payloadAddr, new byte[4], 0, 4))
                .isInstanceOf(IllegalStateException.class);
    }
}
