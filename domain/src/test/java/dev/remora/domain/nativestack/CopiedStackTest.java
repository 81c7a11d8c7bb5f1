package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ZstdDecoder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CopiedStackTest {

    private static final long STACK_START = 0x7ffc0000_0000L;
    private static final long STACK_END = STACK_START + 0x21000;
    private static final NativeModules MODULES = NativeModules.of(List.of(
            new MemoryMapping(STACK_START, STACK_END, "rw-p", 0, Optional.of("[stack]"), false)), path -> Optional.empty(), null,
            ZstdDecoder.NONE);

    /** Memory whose byte at an address is the address's low byte; counts the reads that reach it. */
    private static final class Counted implements RemoteMemory {
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            reads.incrementAndGet();
            if (Long.compareUnsigned(address, STACK_START) < 0 || Long.compareUnsigned(address + length, STACK_END) > 0) {
                throw new MemoryAccessException.Unmapped(address);
            }
            for (int i = 0; i < length; i++) {
                dst[offset + i] = (byte) (address + i);
            }
        }

        @Override
        public String backendName() {
            return "counted";
        }
    }

    @Test
    void readsAboveTheStackPointerComeFromOneCopyUpToTheEndOfTheStack() throws Exception {
        Counted target = new Counted();
        long sp = STACK_END - 0x800;
        RemoteMemory stack = CopiedStack.of(target, MODULES, sp);
        assertThat(target.reads).hasValue(1);
        byte[] word = new byte[8];
        for (long at = sp; at + 8 <= STACK_END; at += 8) {
            stack.read(at, word, 0, 8);
            assertThat(word[0]).isEqualTo((byte) at);
        }
        assertThat(target.reads).as("no read after the copy").hasValue(1);
    }

    @Test
    void readsOutsideTheCopyGoToTheTargetAndFailAsItFails() throws Exception {
        Counted target = new Counted();
        long sp = STACK_START + 0x100;
        RemoteMemory stack = CopiedStack.of(target, MODULES, sp);
        byte[] word = new byte[8];
        stack.read(sp + CopiedStack.COPY_BYTES, word, 0, 8);
        assertThat(word[0]).isEqualTo((byte) (sp + CopiedStack.COPY_BYTES));
        assertThat(target.reads).hasValue(2);
        assertThatThrownBy(() -> stack.read(0xffffffff_ffff0000L, word, 0, 8)).isInstanceOf(MemoryAccessException.class);
        assertThatThrownBy(() -> stack.read(STACK_START - 8, word, 0, 8)).isInstanceOf(MemoryAccessException.class);
    }

    @Test
    void aStackPointerInNoMappingReadsTheTargetItself() {
        Counted target = new Counted();
        assertThat(CopiedStack.of(target, MODULES, 0x1000)).isSameAs(target);
        assertThat(target.reads).hasValue(0);
    }
}
