package dev.remora.ports.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every backend that reads a live process must do, whatever its mechanism: each adapter's tests
 * extend this with the backend they open, and it runs against a real python3 child holding a known
 * payload next to an unmapped page.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RemoteMemoryContract {

    private static final int PAYLOAD_BYTES = 300_001;

    private byte[] payload;
    private PythonTarget target;
    private RemoteMemory memory;
    private long payloadAddr;
    private long edgeAddr;
    private int page;

    /** The backend under test, opened on process {@code pid}. */
    protected abstract RemoteMemory open(int pid);

    @BeforeAll
    void startTarget(@TempDir Path dir) throws Exception {
        payload = new byte[PAYLOAD_BYTES];
        new Random(11).nextBytes(payload);
        Path file = dir.resolve("payload.bin");
        Files.write(file, payload);
        target = PythonTarget.start("payload=" + file);
        payloadAddr = target.number("payload_addr");
        edgeAddr = target.number("edge_addr");
        page = Math.toIntExact(target.number("page_size"));
        memory = open(target.pid());
    }

    @AfterAll
    void stopTarget() {
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
    void lowAndKernelAddressesAreUnmapped() {
        var low = catchThrowableOfType(MemoryAccessException.Unmapped.class, () -> memory.read(0x10, new byte[8], 0, 8));
        assertThat(low.address()).isEqualTo(0x10);
        assertThatThrownBy(() -> memory.read(0xffff_8000_0000_0000L, new byte[8], 0, 8))
                .isInstanceOf(MemoryAccessException.Unmapped.class);
    }

    @Test
    void readRunningOffTheEndOfAMappingFailsWhereTheHoleStarts() {
        byte[] dst = new byte[2 * page];
        var e = catchThrowableOfType(MemoryAccessException.Unmapped.class,
                () -> memory.read(edgeAddr + page, dst, 0, dst.length));
        assertThat(e.address()).isEqualTo(edgeAddr + 2L * page);
        // The readable page still arrived: a short transfer is carried on, not thrown away.
        assertThat(Arrays.copyOfRange(dst, 0, page)).containsOnly(0x5A);
    }


    @Test
    void readPrefixCountsTheRangesBeforeTheFirstThatFails() {
        byte[] dst = new byte[48];
        long[] addresses = {payloadAddr, payloadAddr + 1000, 0x10, payloadAddr + 2000};
        int[] lengths = {16, 16, 8, 8};
        int[] offsets = {0, 16, 32, 40};
        assertThat(memory.readPrefix(addresses, lengths, dst, offsets, 4)).isEqualTo(2);
        assertThat(Arrays.copyOfRange(dst, 0, 16)).isEqualTo(Arrays.copyOfRange(payload, 0, 16));
        assertThat(Arrays.copyOfRange(dst, 16, 32)).isEqualTo(Arrays.copyOfRange(payload, 1000, 1016));
        assertThat(memory.readPrefix(addresses, lengths, dst, offsets, 2)).isEqualTo(2);
    }

    @Test
    void aLiveProcessChangesAndCanBeWritten() throws Exception {
        assertThat(memory.changes()).isTrue();
        WriteCheck.writeReadBackAndRestore(memory, payloadAddr + 3000, Arrays.copyOfRange(payload, 3000, 3008));
        assertThatThrownBy(() -> memory.write(edgeAddr + 2L * page, new byte[8], 0, 8))
                .isInstanceOf(MemoryAccessException.Unmapped.class);
    }
}
