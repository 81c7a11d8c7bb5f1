package dev.remora.adapters.vmreadv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.testing.WriteCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Reads a live python3 child's memory and compares with the bytes it was given. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VmReadvMemoryTest {

    private static final int PAYLOAD_BYTES = 3 * 1024 * 1024 + 123;

    private byte[] payload;
    private PayloadTarget target;
    private VmReadvMemory memory;
    private long payloadAddr;
    private long edgeAddr;
    private int page;

    @BeforeAll
    void startTarget(@TempDir Path dir) throws Exception {
        target = PayloadTarget.start(dir, PAYLOAD_BYTES, 42);
        payload = target.payload();
        payloadAddr = target.payloadAddr();
        edgeAddr = target.edgeAddr();
        page = target.page();
        memory = VmReadvMemory.open(target.pid());
    }

    @AfterAll
    void stopTarget() throws Exception {
        memory.close();
        target.close();
    }

    @Test
    void readsMoreThanOneCallCanCarry() throws Exception {
        byte[] dst = new byte[PAYLOAD_BYTES];
        memory.read(payloadAddr, dst, 0, dst.length);
        assertThat(dst).isEqualTo(payload);
    }

    @Test
    void splitsLargeReadsIntoSeveralCalls() throws Exception {
        CountingReader counting = new CountingReader(FfmNativeReader.create());
        try (VmReadvMemory small = new VmReadvMemory(target.pid(), counting, 4096)) {
            byte[] dst = new byte[10_000];
            small.read(payloadAddr + 3, dst, 0, dst.length);
            assertThat(dst).isEqualTo(Arrays.copyOfRange(payload, 3, 10_003));
            assertThat(counting.calls).isEqualTo(3);
        }
    }

    @Test
    void batchGivesEachRangeItsOwnOutcome() {
        byte[] a = new byte[100];
        byte[] bad = new byte[8];
        byte[] b = new byte[100];
        byte[] edge = new byte[2 * page];
        byte[] kernel = new byte[8];
        byte[] tail = new byte[16];
        byte[] empty = new byte[0];
        List<RangeOutcome> outcomes = memory.readBatch(List.of(
                ReadRange.of(payloadAddr, a),
                ReadRange.of(0x10, bad),
                ReadRange.of(payloadAddr + 5000, b),
                ReadRange.of(edgeAddr + page, edge),
                ReadRange.of(0xffff_8000_0000_0000L, kernel),
                ReadRange.of(payloadAddr + PAYLOAD_BYTES - 16, tail),
                ReadRange.of(payloadAddr, empty)));

        assertThat(outcomes).hasSize(7);
        assertThat(outcomes.get(0)).isEqualTo(new RangeOutcome.Complete(100));
        assertThat(a).isEqualTo(Arrays.copyOfRange(payload, 0, 100));

        assertThat(outcomes.get(1)).isInstanceOfSatisfying(RangeOutcome.Failed.class, f -> {
            assertThat(f.cause()).isInstanceOf(MemoryAccessException.Unmapped.class);
            assertThat(f.cause().address()).isEqualTo(0x10);
        });

        assertThat(outcomes.get(2)).isEqualTo(new RangeOutcome.Complete(100));
        assertThat(b).isEqualTo(Arrays.copyOfRange(payload, 5000, 5100));

        assertThat(outcomes.get(3)).isInstanceOfSatisfying(RangeOutcome.Partial.class, p -> {
            assertThat(p.bytesRead()).isEqualTo(page);
            assertThat(p.cause()).isInstanceOf(MemoryAccessException.Unmapped.class);
            assertThat(p.cause().address()).isEqualTo(edgeAddr + 2L * page);
        });
        assertThat(Arrays.copyOfRange(edge, 0, page)).containsOnly(0x5A);

        assertThat(outcomes.get(4)).isInstanceOfSatisfying(RangeOutcome.Failed.class,
                f -> assertThat(f.cause()).isInstanceOf(MemoryAccessException.Unmapped.class));

        assertThat(outcomes.get(5)).isEqualTo(new RangeOutcome.Complete(16));
        assertThat(tail).isEqualTo(Arrays.copyOfRange(payload, PAYLOAD_BYTES - 16, PAYLOAD_BYTES));

        assertThat(outcomes.get(6)).isEqualTo(new RangeOutcome.Complete(0));
    }

    @Test
    void batchBeyondIovMaxIsChunkedAndSurvivesBadRanges() {
        int count = 2500;
        CountingReader counting = new CountingReader(FfmNativeReader.create());
        try (VmReadvMemory counted = new VmReadvMemory(target.pid(), counting, VmReadvMemory.DEFAULT_MAX_BYTES_PER_CALL)) {
            List<ReadRange> ranges = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                long address = i % 100 == 99 ? 0x10 + i : payloadAddr + 1000L * i;
                ranges.add(ReadRange.of(address, new byte[12]));
            }

            List<RangeOutcome> outcomes = counted.readBatch(ranges);

            assertThat(outcomes).hasSize(count);
            for (int i = 0; i < count; i++) {
                if (i % 100 == 99) {
                    assertThat(outcomes.get(i)).as("range %d", i).isInstanceOf(RangeOutcome.Failed.class);
                } else {
                    assertThat(outcomes.get(i)).as("range %d", i).isEqualTo(new RangeOutcome.Complete(12));
                    assertThat(ranges.get(i).buffer()).as("range %d", i)
                            .isEqualTo(Arrays.copyOfRange(payload, 1000 * i, 1000 * i + 12));
                }
            }
            assertThat(counting.largestCall).isEqualTo(NativeReader.IOV_MAX);
            // 25 bad ranges: each ends one call and fails alone in the next; chunks add a few more.
            assertThat(counting.calls).isLessThanOrEqualTo(2 * 25 + 4);
        }
    }

    @Test
    void rangeWrappingPastTheTopOfTheAddressSpaceFails() {
        List<RangeOutcome> outcomes = memory.readBatch(List.of(ReadRange.of(-4, new byte[8])));
        assertThat(outcomes.getFirst()).isInstanceOfSatisfying(RangeOutcome.Failed.class,
                f -> assertThat(f.cause()).isInstanceOf(MemoryAccessException.Unmapped.class));
    }

    @Test
    void concurrentReadersGetTheirOwnBytes() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int start = t * 300_000;
                results.add(pool.submit(() -> {
                    byte[] dst = new byte[777];
                    for (int i = 0; i < 200; i++) {
                        int at = start + i * 1000;
                        memory.read(payloadAddr + at, dst, 0, dst.length);
                        if (!Arrays.equals(dst, Arrays.copyOfRange(payload, at, at + dst.length))) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> r : results) {
                assertThat(r.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void namesItsBackend() {
        assertThat(memory.backendName()).isEqualTo("vmreadv");
        assertThat(memory.pid()).isEqualTo(target.pid());
    }

    @Test
    void closedMemoryRefusesReads() {
        VmReadvMemory closing = VmReadvMemory.open(target.pid());
        closing.close();
        closing.close();
        assertThatThrownBy(() -> closing.read(payloadAddr, new byte[4], 0, 4))
                .isInstanceOf(IllegalStateException.class);
    }
}
