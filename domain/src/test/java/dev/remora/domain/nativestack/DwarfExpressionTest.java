package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DWARF expressions as call frame information uses them, and the bounds that keep garbage from running long. */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DwarfExpressionTest {

    /** rsp (7) is 0x7000; memory holds address * 2 everywhere. */
    private static final FrameState FRAME = new FrameState() {
        @Override
        public long register(int dwarf) throws NativeDataException {
            if (dwarf != 7) {
                throw new NativeDataException("register %d is not known".formatted(dwarf));
            }
            return 0x7000;
        }

        @Override
        public long load(long address, int size) throws MemoryAccessException {
            long value = address * 2;
            return size == 8 ? value : value & ((1L << (8 * size)) - 1);
        }
    };

    private static long run(int... code) throws Exception {
        byte[] bytes = new byte[code.length];
        for (int i = 0; i < code.length; i++) {
            bytes[i] = (byte) code[i];
        }
        return DwarfExpression.evaluate(new DwarfBlock(bytes, 0, bytes.length), FRAME);
    }

    @Test
    void theSignalFrameCfaIsTheStackPointerSavedInTheContext() throws Exception {
        // breg7 (rsp) + 160; deref: how glibc's __restore_rt finds the interrupted frame.
        assertThat(run(0x77, 0xa0, 0x01, 0x06)).isEqualTo((0x7000 + 160) * 2);
    }

    @Test
    void constantsArithmeticAndComparisonsFollowDwarf() throws Exception {
        assertThat(run(0x08, 0xff)).isEqualTo(0xff);                    // const1u
        assertThat(run(0x09, 0xff)).isEqualTo(-1);                      // const1s
        assertThat(run(0x0b, 0x00, 0x80)).isEqualTo(-32768);            // const2s
        assertThat(run(0x31, 0x23, 0x10)).isEqualTo(0x11);              // lit1; plus_uconst 16
        assertThat(run(0x35, 0x33, 0x1c)).isEqualTo(2);                 // lit5 lit3 minus
        assertThat(run(0x31, 0x34, 0x24)).isEqualTo(16);                // lit1 lit4 shl
        assertThat(run(0x11, 0x7f, 0x30, 0x2d)).isEqualTo(1);           // consts -1; lit0; lt (signed)
        assertThat(run(0x31, 0x32, 0x16, 0x1c)).isEqualTo(1);           // lit1 lit2 swap minus
        assertThat(run(0x30, 0x94, 0x01)).isEqualTo(0);                 // lit0; deref_size 1
    }

    @Test
    void branchesJumpWithinTheExpression() throws Exception {
        // lit1; bra +1; lit7 (skipped); lit9
        assertThat(run(0x31, 0x28, 0x01, 0x00, 0x37, 0x39)).isEqualTo(9);
        assertThat(run(0x30, 0x28, 0x01, 0x00, 0x37)).isEqualTo(7);
        assertThatThrownBy(() -> run(0x2f, 0x40, 0x00)).isInstanceOf(NativeDataException.class)
                .hasMessageContaining("branch outside");
    }

    @Test
    void anExpressionThatLoopsForeverIsCutAtTheOperationLimit() {
        // skip -3: back to itself.
        assertThatThrownBy(() -> run(0x2f, 0xfd, 0xff)).isInstanceOf(NativeDataException.class)
                .hasMessageContaining("operations");
    }

    @Test
    void theStackIsBounded() {
        int[] pushes = new int[DwarfExpression.MAX_DEPTH + 1];
        Arrays.fill(pushes, 0x30);

        assertThatThrownBy(() -> run(pushes)).isInstanceOf(NativeDataException.class).hasMessageContaining("deeper");
        assertThatThrownBy(() -> run(0x22)).isInstanceOf(NativeDataException.class).hasMessageContaining("empty stack");
    }

    @Test
    void locationOperatorsAndUnknownRegistersAreRefused() {
        assertThatThrownBy(() -> run(0x50)).isInstanceOf(NativeDataException.class).hasMessageContaining("0x50");
        assertThatThrownBy(() -> run(0x73, 0x00)).isInstanceOf(NativeDataException.class).hasMessageContaining("not known");
        assertThatThrownBy(() -> run(0x1b)).isInstanceOf(NativeDataException.class);
    }
}
