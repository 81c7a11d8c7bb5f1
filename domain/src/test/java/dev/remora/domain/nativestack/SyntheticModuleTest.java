package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ThreadRegisters;
import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Walks through a module written by hand, whose unwind rules a test chooses. */
class SyntheticModuleTest {

    private static final long BASE = 0x7f55_0000_0000L;
    private static final long STACK = 0x7ffd_0000_0000L;
    private static final String PATH = "/opt/tiny.so";

    private final ScriptedMemory memory = ScriptedMemory.live().map(STACK, 0x4000);

    private NativeStack walk(byte[] elf, long pc, long sp) {
        List<MemoryMapping> mappings = List.of(
                new MemoryMapping(BASE, BASE + 0x2000, "r-xp", 0, Optional.of(PATH), false),
                new MemoryMapping(STACK, STACK + 0x4000, "rw-p", 0, Optional.of("[stack]"), false));
        NativeModules modules = NativeModules.of(mappings,
                path -> path.equals(PATH) ? Optional.of(TinyElf.file(elf)) : Optional.empty(), memory, ZstdDecoder.NONE);
        long[] r = new long[ThreadRegisters.COUNT];
        r[ThreadRegisters.RIP] = pc;
        r[ThreadRegisters.RSP] = sp;
        return new NativeUnwinder(memory, modules).unwind(ThreadRegisters.ofDwarf(r));
    }

    @Test
    void aCallerWhoseCfaDoesNotGrowPastTheCalleesEndsTheWalk() {
        // CFA = rsp + 16, and a rule that gives the caller the callee's own stack pointer back.
        byte[] ehFrame = new CfiAssembler().fde(0x1000, 0x100, 0x0e, 0x10, 0x14, 0x07, 0x02).bytes();
        long sp = STACK + 0x1000;
        memory.putLong(sp + 8, BASE + 0x1004);

        NativeStack stack = walk(TinyElf.withSection(".eh_frame", ehFrame), BASE + 0x1000, sp);

        assertThat(stack.frames()).hasSize(2);
        assertThat(stack.frames().get(1).sp()).isEqualTo(sp);
        assertThat(stack.incomplete()).hasValueSatisfying(r -> assertThat(r).contains("does not grow"));
    }

    @Test
    void aModuleWithOnlyDebugFrameIsWalkedByIt() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream cie = new ByteArrayOutputStream();
        CfiAssembler.u32(cie, 0xffff_ffffL);
        cie.writeBytes(new byte[] {1, 0, 1, 0x78, 16, 0x0c, 7, 8, (byte) 0x90, 1});
        CfiAssembler.u32(out, cie.size());
        out.writeBytes(cie.toByteArray());
        ByteArrayOutputStream fde = new ByteArrayOutputStream();
        CfiAssembler.u32(fde, 0);
        for (long v : new long[] {0x1000, 0x100}) {
            CfiAssembler.u32(fde, v);
            CfiAssembler.u32(fde, 0);
        }
        fde.writeBytes(new byte[] {0x41, 0x0e, 0x10}); // after one byte: CFA = rsp + 16
        CfiAssembler.u32(out, fde.size());
        out.writeBytes(fde.toByteArray());
        long sp = STACK + 0x1000;
        memory.putLong(sp + 8, 0); // return address 0: the outermost frame

        NativeStack stack = walk(TinyElf.withSection(".debug_frame", out.toByteArray()), BASE + 0x1001, sp);

        assertThat(stack.incomplete()).isEmpty();
        assertThat(stack.frames()).singleElement().satisfies(f -> {
            assertThat(f.cfa()).isEqualTo(sp + 16);
            assertThat(f.library()).contains("tiny.so");
            assertThat(f.symbol()).isEmpty();
            assertThat(f.offset()).as("the pc in the file's own addresses").isEqualTo(0x1001);
        });
    }

    @Test
    void aCiesPersonalityAndLsdaAreSkippedByTheirEncodings() {
        // "zPLR": personality pcrel|sdata4|indirect (4 bytes), LSDA and FDE encodings; FDE carries its LSDA pointer.
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        CfiAssembler.u32(body, 0);
        body.write(1);
        body.writeBytes("zPLR\0".getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(new byte[] {1, 0x78, 16, 7, (byte) 0x9b, 0x10, 0x20, 0x30, 0x40, 0x03, 0x03});
        body.writeBytes(new byte[] {0x0c, 7, 8, (byte) 0x90, 1, 0, 0});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CfiAssembler.u32(out, body.size());
        out.writeBytes(body.toByteArray());
        ByteArrayOutputStream fde = new ByteArrayOutputStream();
        CfiAssembler.u32(fde, out.size() + 4);
        CfiAssembler.u32(fde, 0x1000);
        CfiAssembler.u32(fde, 0x100);
        fde.writeBytes(new byte[] {4, 0, 0, 0, 0, 0x41, 0x0e, 0x10, 0});
        CfiAssembler.u32(out, fde.size());
        out.writeBytes(fde.toByteArray());
        CfiAssembler.u32(out, 0);
        long sp = STACK + 0x1000;
        memory.putLong(sp + 8, 0);

        NativeStack stack = walk(TinyElf.withSection(".eh_frame", out.toByteArray()), BASE + 0x1001, sp);

        assertThat(stack.incomplete()).isEmpty();
        assertThat(stack.frames()).singleElement().extracting(NativeFrame::cfa).isEqualTo(sp + 16);
    }
}
