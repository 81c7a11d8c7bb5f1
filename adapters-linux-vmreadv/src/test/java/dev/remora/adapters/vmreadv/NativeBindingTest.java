package dev.remora.adapters.vmreadv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remora.ports.MemoryAccessException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every binding reads the same live python3 child: known bytes, batches through both reader paths,
 * and bad addresses. A binding that cannot load here fails its tests rather than skipping them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeBindingTest {

    private static final int PAYLOAD_BYTES = 256 * 1024;
    private static final int[] BATCH_LENGTHS = {88, 8, 4096, 1, 300, 16, 70_000, 24};

    private PayloadTarget target;

    @BeforeAll
    void startTarget(@TempDir Path dir) throws Exception {
        target = PayloadTarget.start(dir, PAYLOAD_BYTES, 7);
    }

    @AfterAll
    void stopTarget() throws Exception {
        target.close();
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void loadsHere(NativeBinding binding) {
        assertThat(binding.isSupported()).as("%s binding supported", binding).isTrue();
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void readsOneRange(NativeBinding binding) throws Exception {
        try (VmReadvMemory memory = VmReadvMemory.open(target.pid(), binding)) {
            byte[] dst = new byte[4096];
            memory.read(target.payloadAddr() + 1000, dst, 0, dst.length);
            assertThat(dst).isEqualTo(target.slice(1000, 4096));
        }
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void readsABatchThroughReadPrefix(NativeBinding binding) {
        try (VmReadvMemory memory = VmReadvMemory.open(target.pid(), binding)) {
            Batch batch = Batch.spread(target.payloadAddr(), BATCH_LENGTHS);
            assertThat(batch.readWith(memory)).isEqualTo(BATCH_LENGTHS.length);
            for (int i = 0; i < BATCH_LENGTHS.length; i++) {
                assertThat(batch.bytes(i)).as("range %d", i).isEqualTo(target.slice(Batch.at(i), BATCH_LENGTHS[i]));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void readPrefixStopsAtTheFirstBadRange(NativeBinding binding) {
        try (VmReadvMemory memory = VmReadvMemory.open(target.pid(), binding)) {
            Batch batch = Batch.spread(target.payloadAddr(), BATCH_LENGTHS);
            batch.addresses[5] = 0x10;
            assertThat(batch.readWith(memory)).isEqualTo(5);
            assertThat(batch.bytes(4)).isEqualTo(target.slice(Batch.at(4), BATCH_LENGTHS[4]));

            Batch edge = Batch.spread(target.payloadAddr(), BATCH_LENGTHS);
            edge.addresses[2] = target.edgeAddr() + 2L * target.page() - 16; // 16 readable bytes, then the hole
            assertThat(edge.readWith(memory)).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void readPrefixBeyondIovMaxTakesSeveralCalls(NativeBinding binding) {
        int count = NativeReader.IOV_MAX + 300;
        int[] lengths = new int[count];
        Arrays.fill(lengths, 12);
        try (VmReadvMemory memory = VmReadvMemory.open(target.pid(), binding)) {
            Batch batch = Batch.spread(target.payloadAddr(), lengths);
            assertThat(batch.readWith(memory)).isEqualTo(count);
            assertThat(batch.bytes(count - 1)).isEqualTo(target.slice(Batch.at(count - 1), 12));
        }
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void badAddressesFailAsUnmapped(NativeBinding binding) {
        try (VmReadvMemory memory = VmReadvMemory.open(target.pid(), binding)) {
            var e = catchThrowableOfType(MemoryAccessException.Unmapped.class,
                    () -> memory.read(0x10, new byte[8], 0, 8));
            assertThat(e.address()).isEqualTo(0x10);

            byte[] good = new byte[100];
            byte[] edge = new byte[2 * target.page()];
            List<RangeOutcome> outcomes = memory.readBatch(List.of(ReadRange.of(target.payloadAddr(), good),
                    ReadRange.of(0x10, new byte[8]), ReadRange.of(target.edgeAddr() + target.page(), edge)));
            assertThat(outcomes.get(0)).isEqualTo(new RangeOutcome.Complete(100));
            assertThat(good).isEqualTo(target.slice(0, 100));
            assertThat(outcomes.get(1)).isInstanceOf(RangeOutcome.Failed.class);
            assertThat(outcomes.get(2)).isInstanceOfSatisfying(RangeOutcome.Partial.class,
                    p -> assertThat(p.bytesRead()).isEqualTo(target.page()));
        }
    }

    @ParameterizedTest
    @EnumSource(NativeBinding.class)
    void aFailedCallCarriesTheKernelsErrno(NativeBinding binding) {
        try (NativeReader reader = binding.create()) {
            var e = catchThrowableOfType(ErrnoException.class,
                    () -> reader.readv(target.pid(), List.of(ReadRange.of(0x10, new byte[8]))));
            assertThat(e.errno()).isEqualTo(Errno.EFAULT);
            List<ReadRange> good = List.of(ReadRange.of(target.payloadAddr(), new byte[8]));
            var gone = catchThrowableOfType(ErrnoException.class, () -> reader.readv(Integer.MAX_VALUE - 7, good));
            assertThat(gone.errno()).isEqualTo(Errno.ESRCH);
        }
    }

    @Test
    void everyBindingSeesTheSame() {
        Map<NativeBinding, List<Object>> seen = new EnumMap<>(NativeBinding.class);
        for (NativeBinding binding : NativeBinding.values()) {
            seen.put(binding, observe(binding));
        }
        assertThat(seen.values()).allSatisfy(observed -> assertThat(observed).isEqualTo(seen.get(NativeBinding.ffm)));
    }

    /** What one binding reads of a fixed set of ranges, in comparable form. */
    private List<Object> observe(NativeBinding binding) {
        try (VmReadvMemory memory = VmReadvMemory.open(target.pid(), binding)) {
            List<Object> observed = new ArrayList<>();
            Batch batch = Batch.spread(target.payloadAddr(), BATCH_LENGTHS);
            batch.addresses[6] = target.edgeAddr() + target.page();
            observed.add(batch.readWith(memory));
            observed.add(Arrays.toString(batch.dst));
            List<ReadRange> ranges = List.of(ReadRange.of(target.payloadAddr() + 3, new byte[64]), ReadRange.of(0x10, new byte[8]),
                    ReadRange.of(target.edgeAddr() + target.page(), new byte[2 * target.page()]));
            observed.add(memory.readBatch(ranges).stream().map(NativeBindingTest::describe).toList());
            ranges.forEach(r -> observed.add(Arrays.toString(r.buffer())));
            return observed;
        }
    }

    private static String describe(RangeOutcome outcome) {
        return switch (outcome) {
            case RangeOutcome.Complete c -> "complete " + c.bytesRead();
            case RangeOutcome.Partial p -> "partial " + p.bytesRead() + " " + p.cause();
            case RangeOutcome.Failed f -> "failed " + f.cause();
        };
    }

    /** Parallel arrays for readPrefix: range i reads the payload from {@link #at(int)} into its own slice of dst. */
    private record Batch(long[] addresses, int[] lengths, int[] offsets, byte[] dst) {

        static int at(int i) {
            return i * 100;
        }

        static Batch spread(long payloadAddr, int[] lengths) {
            long[] addresses = new long[lengths.length];
            int[] offsets = new int[lengths.length];
            int end = 0;
            for (int i = 0; i < lengths.length; i++) {
                addresses[i] = payloadAddr + at(i);
                offsets[i] = end;
                end += lengths[i];
            }
            return new Batch(addresses, lengths, offsets, new byte[end]);
        }

        int readWith(VmReadvMemory memory) {
            return memory.readPrefix(addresses, lengths, dst, offsets, lengths.length);
        }

        byte[] bytes(int i) {
            return Arrays.copyOfRange(dst, offsets[i], offsets[i] + lengths[i]);
        }
    }
}
