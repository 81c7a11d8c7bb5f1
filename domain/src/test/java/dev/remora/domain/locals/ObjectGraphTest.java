package dev.remora.domain.locals;

import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.offsets.VariableLayout;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values built word by word in a fake memory, in the generated layouts of 3.10-3.12: a list that
 * holds itself many times, lists nested deeper than shown, and a tree wider than the budget. Each
 * must be shown as repr() would (or cut), after a bounded number of reads.
 */
class ObjectGraphTest {

    private static final long TYPES = 0x10_0000;
    private static final long LIST_TYPE = TYPES;
    private static final long INT_TYPE = TYPES + 0x400;

    @ParameterizedTest
    @ValueSource(ints = {10, 11, 12})
    void aListHoldingItselfIsShownAsReprShowsIt(int minor) throws Exception {
        Graph g = new Graph(minor);
        long list = 0x20_0000;
        g.list(list, new long[] {list, list, list});
        assertThat(g.show(list)).isEqualTo("[[...], [...], [...]]");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 11, 12})
    void aLongListShowsItsFirstItemsAndHowManyMore(int minor) throws Exception {
        Graph g = new Graph(minor);
        long seven = 0x30_0000;
        g.integer(seven, 7);
        long[] items = new long[15];
        java.util.Arrays.fill(items, seven);
        g.list(0x20_0000, items);
        assertThat(g.show(0x20_0000)).isEqualTo("[7, 7, 7, 7, 7, 7, 7, 7, 7, 7, ... 5 more]");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 11, 12})
    void nestingDeeperThanShownIsCut(int minor) throws Exception {
        Graph g = new Graph(minor);
        long one = 0x30_0000;
        g.integer(one, 1);
        long inner = one;
        for (int level = 0; level < 6; level++) {
            long list = 0x20_0000 + level * 0x100L;
            g.list(list, new long[] {inner});
            inner = list;
        }
        assertThat(g.show(inner)).isEqualTo("[[[[... 1 item]]]]");
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 11, 12})
    void aTreeWiderThanTheBudgetEndsInEllipses(int minor) throws Exception {
        Graph g = new Graph(minor);
        // Ten lists of ten lists of ten lists of ten ints: 1111 lists and 1000 ints read, more than one value may.
        long one = 0x30_0000;
        g.integer(one, 1);
        long[] leaves = new long[10];
        java.util.Arrays.fill(leaves, one);
        long[] middle = new long[10];
        for (int i = 0; i < 10; i++) {
            long[] lower = new long[10];
            for (int j = 0; j < 10; j++) {
                lower[j] = 0x40_0000 + (i * 10L + j) * 0x100L;
                g.list(lower[j], leaves);
            }
            middle[i] = 0x20_0000 + i * 0x100L;
            g.list(middle[i], lower);
        }
        long top = 0x28_0000;
        g.list(top, middle);
        String shown = g.show(top);
        assertThat(shown).startsWith("[[[1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1,").endsWith(", ...]");
        assertThat(g.reads).as("reads for one value").isLessThan(ValueFormatter.MAX_OBJECTS * 8);
    }

    /** A fake memory of words, with a list and an int type; every other address is unmapped. */
    private static final class Graph implements RemoteMemory {
        private final Map<Long, Byte> bytes = new HashMap<>();
        private final DebugOffsets offsets;
        private final VariableLayout.ObjectFields fields;
        int reads;

        Graph(int minor) throws Exception {
            offsets = DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, minor, 0, 0xF, 0));
            fields = offsets.variables().orElseThrow().objects();
            type(LIST_TYPE, "list");
            type(INT_TYPE, "int");
        }

        String show(long address) {
            return new ValueFormatter(new ObjectMemory(this), offsets, offsets.variables().orElseThrow()).show(address).repr();
        }

        void type(long at, String name) {
            word(at + offsets.type().tpName(), at + 0x200);
            word(at + offsets.type().tpFlags(), 0);
            byte[] text = (name + "\0").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (int i = 0; i < 16; i++) {
                bytes.put(at + 0x200 + i, i < text.length ? text[i] : 0);
            }
        }

        void list(long at, long[] items) {
            word(at + offsets.object().obType(), LIST_TYPE);
            word(at + fields.list().size(), items.length);
            word(at + fields.list().items(), at + 0x80);
            for (int i = 0; i < items.length; i++) {
                word(at + 0x80 + 8L * i, items[i]);
            }
        }

        void integer(long at, int value) {
            word(at + offsets.object().obType(), INT_TYPE);
            word(at + fields.ints().sizeOrTag(), fields.ints().tagged() ? 1L << 3 : 1);
            word(at + fields.ints().digits(), value);
        }

        void word(long at, long value) {
            for (int i = 0; i < 8; i++) {
                bytes.put(at + i, (byte) (value >>> (8 * i)));
            }
        }

        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            reads++;
            for (int i = 0; i < length; i++) {
                Byte b = bytes.get(address + i);
                if (b == null) {
                    throw new MemoryAccessException.Unmapped(address + i);
                }
                dst[offset + i] = b;
            }
        }

        @Override
        public String backendName() {
            return "graph";
        }
    }
}
