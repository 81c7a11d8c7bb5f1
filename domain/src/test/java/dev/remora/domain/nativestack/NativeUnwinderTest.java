package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ThreadRegisters;
import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whole walks over a fake process: the host's real libc mapped at {@link HostLibc#BASE}, a stack laid
 * out by each test the way libc's own unwind rules say it must look, and a main program in an
 * anonymous executable mapping with no unwind information, walked by its frame pointers.
 */
class NativeUnwinderTest {

    private static final long STACK = 0x7ffd_0000_0000L;
    private static final int STACK_SIZE = 0x10000;
    private static final long MAIN = 0x5555_5555_0000L;
    private static final int RBP = ThreadRegisters.RBP;
    private static final int RSP = ThreadRegisters.RSP;
    private static final int RIP = ThreadRegisters.RIP;

    private static HostLibc libc;

    private final ScriptedMemory memory = ScriptedMemory.live().map(STACK, STACK_SIZE);
    private final List<MemoryMapping> mappings = List.of(
            new MemoryMapping(MAIN, MAIN + 0x1000, "r-xp", 0, Optional.empty(), false),
            libc.textMapping(),
            new MemoryMapping(STACK, STACK + STACK_SIZE, "rw-p", 0, Optional.of("[stack]"), false));
    private final NativeUnwinder unwinder =
            new NativeUnwinder(memory, NativeModules.of(mappings, HostFiles::open, memory, ZstdDecoder.NONE));

    @BeforeAll
    static void readLibc() {
        libc = HostLibc.load();
    }

    private static ThreadRegisters registers(long pc, long sp, long rbp) {
        long[] r = new long[ThreadRegisters.COUNT];
        for (int i = 0; i < r.length; i++) {
            r[i] = 0x1000 + i;
        }
        r[RIP] = pc;
        r[RSP] = sp;
        r[RBP] = rbp;
        return ThreadRegisters.ofDwarf(r);
    }

    /** A pc in an exported function, past the pushes that give it a CFA of rsp + at least 24. */
    private record Site(String function, long start, long pc, UnwindRow row) {
        long frameSize() {
            return ((CfaRule.RegisterOffset) row.cfa()).offset();
        }
    }

    private static Site siteWithAFrame() throws Exception {
        for (String name : List.of("qsort", "qsort_r", "malloc", "printf", "fopen")) {
            long function = HostLibc.function(name);
            Fde fde = libc.ehFrame.find(function).orElseThrow();
            for (long pc = function; pc < fde.pcEnd(); pc++) {
                UnwindRow row = CfaInterpreter.rowAt(libc.ehFrame.section(), fde, pc);
                if (row.cfa() instanceof CfaRule.RegisterOffset r && r.register() == RSP && r.offset() >= 24) {
                    return new Site(name, function, pc, row);
                }
            }
        }
        throw new AssertionError("no libc function with a frame of 24 bytes or more");
    }

    /** Frame pointer records: each at the address given, linking to the next, the last with a zero return address. */
    private void framePointerChain(long... records) {
        for (int i = 0; i < records.length; i++) {
            boolean last = i == records.length - 1;
            memory.putLong(records[i], last ? 0 : records[i + 1]);
            memory.putLong(records[i] + 8, last ? 0 : MAIN + 0x200 + i);
        }
    }

    @Test
    void aLibcFrameUnwindsByItsCfiIntoFramePointerFramesUntilAZeroReturnAddress() throws Exception {
        Site site = siteWithAFrame();
        long pc = site.pc();
        UnwindRow row = site.row();
        long sp = STACK + 0x8000;
        long cfa = sp + site.frameSize();
        long fp = cfa + 0x40;
        long fp2 = fp + 0x80;
        memory.putLong(cfa - 8, MAIN + 0x123); // qsort's return address, into main
        for (int column = 0; column < RIP; column++) {
            if (row.rule(column) instanceof RegisterRule.Offset saved) {
                memory.putLong(cfa + saved.offset(), column == RBP ? fp : 0x5a5a);
            }
        }
        framePointerChain(fp, fp2);

        NativeStack stack = unwinder.unwind(registers(HostLibc.BASE + pc, sp, fp));

        assertThat(stack.incomplete()).isEmpty();
        assertThat(stack.frames()).hasSize(3);
        NativeFrame inLibc = stack.frames().get(0);
        assertThat(inLibc.pc()).isEqualTo(HostLibc.BASE + pc);
        assertThat(inLibc.symbol()).contains(site.function());
        assertThat(inLibc.offset()).isEqualTo(pc - site.start());
        assertThat(inLibc.library()).contains("libc.so.6");
        assertThat(inLibc.path()).contains(HostFiles.LIBC);
        assertThat(inLibc.sp()).isEqualTo(sp);
        assertThat(inLibc.cfa()).isEqualTo(cfa);
        NativeFrame caller = stack.frames().get(1);
        assertThat(caller.pc()).isEqualTo(MAIN + 0x123);
        assertThat(caller.sp()).isEqualTo(cfa);
        assertThat(caller.cfa()).isEqualTo(fp + 16);
        assertThat(caller.symbol()).isEmpty();
        assertThat(caller.library()).isEmpty();
        assertThat(stack.frames().get(2).pc()).isEqualTo(MAIN + 0x200);
        assertThat(stack.frames().get(2).sp()).isEqualTo(fp + 16);
    }

    @Test
    void aReturnAddressRightAfterItsFunctionIsLookedUpAtTheCall() throws Exception {
        // A call as a function's last instruction (to a function that never returns) leaves a return
        // address one past the function's end: the frame is still that function's.
        Site site = siteWithAFrame();
        Symbol caller = libc.dynamicSymbols.at(site.start()).orElseThrow();
        long returnAddress = HostLibc.BASE + caller.start() + caller.size();
        long sp = STACK + 0x8000;
        long cfa = sp + site.frameSize();
        memory.putLong(cfa - 8, returnAddress);

        NativeStack stack = unwinder.unwind(registers(HostLibc.BASE + site.pc(), sp, 0));

        assertThat(stack.frames()).hasSizeGreaterThan(1);
        NativeFrame second = stack.frames().get(1);
        assertThat(second.pc()).isEqualTo(returnAddress);
        assertThat(second.symbol()).contains(caller.name());
        assertThat(second.offset()).isEqualTo(caller.size());
    }

    @Test
    void aFrameWhoseReturnAddressIsUndefinedIsTheOutermost() throws Exception {
        long outermost = -1;
        for (int i = 0; i < libc.ehFrame.size() && outermost < 0; i++) {
            Fde fde = libc.ehFrame.fde(i);
            for (long pc = fde.pcBegin(); pc < fde.pcEnd() && outermost < 0; pc++) {
                if (CfaInterpreter.rowAt(libc.ehFrame.section(), fde, pc).rule(RIP) instanceof RegisterRule.Undefined) {
                    outermost = pc;
                }
            }
        }
        assertThat(outermost).as("a clone's child start marks rip undefined").isPositive();

        NativeStack stack = unwinder.unwind(registers(HostLibc.BASE + outermost, STACK + 0x8000, 0));

        assertThat(stack.incomplete()).isEmpty();
        assertThat(stack.frames()).hasSize(1);
        assertThat(stack.frames().getFirst().symbol()).hasValueSatisfying(s -> assertThat(s).contains("clone"));
    }

    @Test
    void theSignalTrampolineRestoresTheInterruptedRegistersAndItsPcIsExact() throws Exception {
        Fde trampoline = null;
        for (int i = 0; i < libc.ehFrame.size() && trampoline == null; i++) {
            if (libc.ehFrame.fde(i).cie().signalFrame()) {
                trampoline = libc.ehFrame.fde(i);
            }
        }
        assertThat(trampoline).as("__restore_rt's FDE").isNotNull();
        long sp = STACK + 0x4000;
        long interruptedSp = STACK + 0x9000;
        long fp = interruptedSp + 0x100;
        // The kernel's ucontext at sp: uc_mcontext.gregs start at 40; rbp is greg 10, rsp 15, rip 16.
        memory.putLong(sp + 40 + 10 * 8, fp);
        memory.putLong(sp + 40 + 15 * 8, interruptedSp);
        memory.putLong(sp + 40 + 16 * 8, MAIN); // the first byte of main: pc - 1 would be in no mapping
        framePointerChain(fp);

        NativeStack stack = unwinder.unwind(registers(HostLibc.BASE + trampoline.pcBegin() + 1, sp, 0));

        assertThat(stack.incomplete()).isEmpty();
        assertThat(stack.frames()).extracting(NativeFrame::pc).containsExactly(HostLibc.BASE + trampoline.pcBegin() + 1, MAIN);
        assertThat(stack.frames().get(0).cfa()).isEqualTo(interruptedSp);
        assertThat(stack.frames().get(1).sp()).isEqualTo(interruptedSp);
    }

    @Test
    void aPcInNoMappingEndsTheWalkSayingSo() {
        NativeStack stack = unwinder.unwind(registers(0x1234, STACK + 0x100, 0));

        assertThat(stack.frames()).extracting(NativeFrame::pc).containsExactly(0x1234L);
        assertThat(stack.incomplete()).contains("0x1234 is in no mapped file");
    }

    @Test
    void withoutUnwindInformationAnImplausibleFramePointerEndsTheWalk() {
        long sp = STACK + 0x8000;

        NativeStack below = unwinder.unwind(registers(MAIN + 0x10, sp, sp - 0x100));
        NativeStack elsewhere = unwinder.unwind(registers(MAIN + 0x10, sp, MAIN + 0x100));

        assertThat(below.frames()).hasSize(1);
        assertThat(below.incomplete()).hasValueSatisfying(r -> assertThat(r).contains("no unwind information", "no frame pointer"));
        assertThat(elsewhere.incomplete()).hasValueSatisfying(r -> assertThat(r).contains("no frame pointer"));
    }

    @Test
    void aFramePointerChainThatLoopsEndsTheWalk() {
        long fp = STACK + 0x8000;
        memory.putLong(fp, fp);
        memory.putLong(fp + 8, MAIN + 0x40);

        NativeStack stack = unwinder.unwind(registers(MAIN + 0x10, fp - 0x20, fp));

        assertThat(stack.frames()).hasSize(2);
        // The looping record sits below the caller's stack pointer: it cannot be the caller's frame.
        assertThat(stack.incomplete()).hasValueSatisfying(r -> assertThat(r).contains("no frame pointer"));
    }

    @Test
    void aDeepStackIsCutAtTheFrameLimit() {
        long[] records = new long[NativeUnwinder.MAX_FRAMES + 20];
        for (int i = 0; i < records.length; i++) {
            records[i] = STACK + 0x100 + 32L * i;
        }
        framePointerChain(records);

        NativeStack stack = unwinder.unwind(registers(MAIN + 0x10, STACK + 0x80, records[0]));

        assertThat(stack.frames()).hasSize(NativeUnwinder.MAX_FRAMES);
        assertThat(stack.incomplete()).hasValueSatisfying(r -> assertThat(r).contains("deeper than 256"));
    }

    @Test
    void anUnreadableSavedReturnAddressEndsTheWalkWithTheReason() throws Exception {
        long pc = siteWithAFrame().pc();
        // The frame's CFA falls just past the stack mapping: its saved registers cannot be read.
        long sp = STACK + STACK_SIZE - 8;

        NativeStack stack = unwinder.unwind(registers(HostLibc.BASE + pc, sp, 0));

        assertThat(stack.frames()).hasSize(1);
        assertThat(stack.incomplete()).hasValueSatisfying(r -> assertThat(r).contains("cannot read the saved"));
    }

    @Test
    void theVdsoIsReadFromTheTargetsMemory() throws Exception {
        // libc's image stands in for the vDSO: what matters is that the image comes from memory.
        byte[] image = HostFiles.readAll(HostFiles.LIBC);
        long vdso = 0x7fff_f000_0000L;
        ScriptedMemory withVdso = ScriptedMemory.live().map(STACK, STACK_SIZE).map(vdso, (image.length + 0xfff) & ~0xfff)
                .putBytes(vdso, image);
        MemoryMapping mapping = new MemoryMapping(vdso, vdso + ((image.length + 0xfff) & ~0xfff), "r-xp", 0,
                Optional.of("[vdso]"), false);
        List<String> opened = new ArrayList<>();
        NativeModules modules = NativeModules.of(List.of(mapping), path -> {
            opened.add(path);
            return Optional.empty();
        }, withVdso, ZstdDecoder.NONE);
        long malloc = HostLibc.function("malloc");

        Module module = modules.moduleAt(vdso + malloc).orElseThrow();

        assertThat(module.bias()).isEqualTo(OptionalLong.of(vdso));
        assertThat(module.file().symbol(malloc)).map(Symbol::name).contains("malloc");
        assertThat(module.file().row(malloc)).isPresent();
        // Only debug files are looked for (by build id, as for any module): never a file named [vdso].
        assertThat(opened).allSatisfy(path -> assertThat(path).startsWith("/usr/lib/debug/"));
    }

    /** Libraries are read once per process, not per walk: what the walk costs is measured by scripts/bench-*.py. */
    @Test
    void repeatedWalksReuseTheParsedTables() throws Exception {
        Site site = siteWithAFrame();
        long pc = site.pc();
        long sp = STACK + 0x8000;
        long cfa = sp + site.frameSize();
        memory.putLong(cfa - 8, MAIN + 0x123);
        framePointerChain(cfa + 0x40);
        ThreadRegisters start = registers(HostLibc.BASE + pc, sp, cfa + 0x40);
        List<String> opened = new ArrayList<>();
        NativeUnwinder counted = new NativeUnwinder(memory, NativeModules.of(mappings, path -> {
            opened.add(path);
            return HostFiles.open(path);
        }, memory, ZstdDecoder.NONE));
        NativeStack first = counted.unwind(start);
        List<String> openedByFirst = List.copyOf(opened);

        for (int i = 0; i < 100; i++) {
            assertThat(counted.unwind(start)).isEqualTo(first);
        }
        assertThat(openedByFirst).contains(HostFiles.LIBC);
        assertThat(opened).as("files opened after the first walk").isEqualTo(openedByFirst);
    }
}
