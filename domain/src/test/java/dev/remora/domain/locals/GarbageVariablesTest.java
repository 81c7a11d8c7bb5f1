package dev.remora.domain.locals;

import dev.remora.domain.InspectionException;
import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.model.LocalVariable;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import dev.remora.ports.testing.Noise;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Frames and objects made of noise: reading their variables must end, quickly, with values shown
 * or said to be unreadable, never with an exception, a hang or a huge allocation. The noise points
 * into one small window, so that types, names and items land on each other and containers hold
 * themselves; a few of its pages are unmapped.
 */
class GarbageVariablesTest {

    private static final long WINDOW = 0x7f00_0000_0000L;
    private static final long WINDOW_BYTES = 1 << 16;

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    void noiseEndsInValuesOrUnreadable(String minor) throws Exception {
        DebugOffsets offsets = offsets(minor);
        int variables = 0;
        int unreadable = 0;
        for (long seed = 1; seed <= 300; seed++) {
            WindowNoise memory = new WindowNoise(seed);
            FrameVariablesReader reader = new FrameVariablesReader(memory, offsets, offsets.variables().orElseThrow());
            FrameVariables read = reader.read(WINDOW + (Noise.mix(seed) & (WINDOW_BYTES - 1) & ~7L),
                    WINDOW + (Noise.mix(seed * 31) & (WINDOW_BYTES - 1) & ~7L));
            // Names and slots, then each value within its own bound: never a read without end.
            assertThat(memory.reads.get()).as("reads of seed %d", seed)
                    .isLessThanOrEqualTo(16L * FrameVariablesReader.MAX_SLOTS + read.variables().size() * ValueFormatter.MAX_READS_PER_VALUE);
            for (LocalVariable v : read.variables()) {
                variables++;
                assertThat(v.repr()).isNotNull().hasSizeLessThan(64 * 1024);
                unreadable += v.repr().contains("<unreadable") ? 1 : 0;
            }
            unreadable += read.problem().isPresent() ? 1 : 0;
        }
        assertThat(unreadable).as("noise is mostly unreadable (of %d variables shown)", variables).isPositive();
    }

    /**
     * Objects whose type is a real builtin's (the window starts with type objects named list, dict,
     * str, ...) and whose every other field is noise: each is shown, cut or said to be unreadable.
     */
    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    void builtinsFullOfNoiseAreShownCutOrUnreadable(String minor) throws Exception {
        DebugOffsets offsets = offsets(minor);
        java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (long seed = 1; seed <= 400; seed++) {
            TypedNoise memory = new TypedNoise(seed, offsets);
            ValueFormatter values = new ValueFormatter(new ObjectMemory(memory), offsets, offsets.variables().orElseThrow());
            for (int k = 0; k < 8; k++) {
                long address = TypedNoise.OBJECTS + (Noise.mix(seed * 8 + k) & (WINDOW_BYTES / 2 - 1) & ~7L);
                long before = memory.reads.get();
                ValueFormatter.Shown shown = values.show(address);
                assertThat(memory.reads.get() - before).as("reads of one value").isLessThanOrEqualTo(ValueFormatter.MAX_READS_PER_VALUE);
                assertThat(shown.repr()).isNotEmpty().hasSizeLessThan(64 * 1024);
                String outcome = shown.repr().startsWith("<unreadable") ? "unreadable " + shown.type() : "shown " + shown.type();
                outcomes.merge(outcome, 1, Integer::sum);
            }
        }
        // The noise must reach the containers and strings, not stop at every type.
        assertThat(outcomes.keySet()).as("outcomes: %s", outcomes).contains("shown list", "shown tuple", "shown int",
                "unreadable str", "unreadable dict");
    }

    /**
     * The window's first page holds type objects of real builtin names; every other word is, by turns
     * of the noise, one of those types, a pointer into the window or a small number.
     */
    private record TypedNoise(long seed, DebugOffsets offsets, byte[] types, ReadCount reads) implements RemoteMemory {
        static final String[] NAMES = {"list", "tuple", "dict", "set", "frozenset", "str", "bytes", "int", "bool",
                "float", "NoneType", "cell", "Thing"};
        static final long TYPES = WINDOW;
        static final long OBJECTS = WINDOW + WINDOW_BYTES / 2;
        static final int TYPE_STRIDE = 512;

        TypedNoise(long seed, DebugOffsets offsets) {
            this(seed, offsets, new byte[NAMES.length * TYPE_STRIDE], new ReadCount());
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(types).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < NAMES.length; i++) {
                int at = i * TYPE_STRIDE;
                b.putLong(at + (int) offsets.type().tpName(), TYPES + at + TYPE_STRIDE - 32);
                b.putLong(at + (int) offsets.type().tpFlags(), 0);
                byte[] name = NAMES[i].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                System.arraycopy(name, 0, types, at + TYPE_STRIDE - 32, name.length);
            }
        }

        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            reads.count();
            for (int i = 0; i < length; i++) {
                long at = address + i;
                if (at >= TYPES && at < TYPES + types.length) {
                    dst[offset + i] = types[(int) (at - TYPES)];
                    continue;
                }
                if (at < WINDOW || at >= WINDOW + WINDOW_BYTES) {
                    throw new MemoryAccessException.Unmapped(at);
                }
                long mixed = Noise.mix((at & ~7L) ^ seed);
                long word = switch ((int) (mixed & 3)) {
                    case 0 -> TYPES + (long) Math.floorMod(mixed >>> 8, NAMES.length) * TYPE_STRIDE;
                    case 1 -> mixed >>> 59;
                    default -> OBJECTS + (mixed & (WINDOW_BYTES / 2 - 1) & ~7L);
                };
                dst[offset + i] = (byte) (word >>> (8 * (int) (at & 7)));
            }
        }

        @Override
        public String backendName() {
            return "typed noise";
        }
    }

    /**
     * Thread names read from noise: from an interpreter whose modules are noise, and from a
     * registry of threads that is: each read ends with names or says why it could not, within a
     * bound of reads, however the noise links dicts, threads and their attributes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    void threadNamesFromNoiseAreReadOrSaidUnreadable(String minor) throws Exception {
        DebugOffsets offsets = offsets(minor);
        java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (long seed = 1; seed <= 300; seed++) {
            TypedNoise memory = new TypedNoise(seed, offsets);
            ThreadNamesReader reader = new ThreadNamesReader(memory, offsets, offsets.variables().orElseThrow());
            long address = TypedNoise.OBJECTS + (Noise.mix(seed) & (WINDOW_BYTES / 2 - 1) & ~7L);
            for (int asked = 0; asked < 3; asked++) {
                long before = memory.reads.get();
                String outcome;
                try {
                    if (asked == 2) {
                        outcome = reader.attribute(address, "_name") == 0 ? "none" : "found";
                    } else {
                        var names = asked == 0 ? reader.read(address) : reader.namesIn(address);
                        outcome = names.isEmpty() ? "none" : "named";
                    }
                } catch (ThreadNamesReader.Unreadable e) {
                    outcome = "unreadable";
                } catch (ObjectMemory.BadObject | MemoryAccessException e) {
                    outcome = "bad object";
                }
                outcomes.merge(List.of("interpreter: ", "registry: ", "thread: ").get(asked) + outcome, 1, Integer::sum);
                assertThat(memory.reads.get() - before).as("reads of seed %d", seed).isLessThan(1L << 22);
            }
        }
        assertThat(outcomes.keySet()).as("outcomes: %s", outcomes).contains("interpreter: unreadable", "registry: bad object", "thread: none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.13", "3.15"})
    void aFrameOutsideMemoryIsSaidUnreadable(String minor) throws Exception {
        DebugOffsets offsets = offsets(minor);
        FrameVariablesReader reader = new FrameVariablesReader(new WindowNoise(7), offsets, offsets.variables().orElseThrow());
        FrameVariables read = reader.read(0x1000, 0x2000);
        assertThat(read.variables()).isEmpty();
        assertThat(read.problem()).hasValueSatisfying(p -> assertThat(p).startsWith("variables unreadable: <unreadable:"));
    }

    /** Every word of the window points back into it; a 4 KiB page in eight is unmapped, and so is all else. */
    private record WindowNoise(long seed, ReadCount reads) implements RemoteMemory {
        WindowNoise(long seed) {
            this(seed, new ReadCount());
        }

        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            reads.count();
            for (int i = 0; i < length; i++) {
                long at = address + i;
                if (at < WINDOW || at >= WINDOW + WINDOW_BYTES || ((at - WINDOW) >> 12) % 8 == 7) {
                    throw new MemoryAccessException.Unmapped(at);
                }
                long mixed = Noise.mix((at & ~7L) ^ seed);
                // Most words are pointers into the window; some are small numbers (sizes, flags, digits).
                long word = (mixed & 3) == 0 ? mixed >>> 58 : WINDOW + (mixed & (WINDOW_BYTES - 1) & ~7L);
                dst[offset + i] = (byte) (word >>> (8 * (int) (at & 7)));
            }
        }

        @Override
        public String backendName() {
            return "noise";
        }
    }

    /**
     * Reads made of a fake memory. Far more than any bound above ends the test with a failure rather
     * than letting a reader that does not stop run on.
     */
    private static final class ReadCount {
        private static final long RUNAWAY = 1L << 30;
        private long reads;

        void count() {
            if (++reads > RUNAWAY) {
                throw new AssertionError("more than " + RUNAWAY + " reads: the reader does not stop");
            }
        }

        long get() {
            return reads;
        }
    }

    private static DebugOffsets offsets(String minor) throws InspectionException {
        int m = Integer.parseInt(minor.substring(2));
        return m >= 13 ? DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets(minor))
                : DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, m, 0, 0xF, 0));
    }
}
