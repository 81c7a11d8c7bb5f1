package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ThreadRegisters;
import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.elf.ElfSectionHeader;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Garbage in, a bounded answer out: random registers and stacks, random and damaged unwind tables,
 * symbol tables and ELF headers. Only the reader's own typed failure may come out of the parsers, and
 * nothing at all out of a walk; seeded, so a failure repeats.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NativeGarbageTest {

    private static final long STACK = 0x7ffd_0000_0000L;
    private static final int STACK_SIZE = 0x4000;
    private static final long VDSO = 0x7fff_f7f0_0000L;
    private static final int VDSO_SIZE = 0x2000;

    private static HostLibc libc;
    private static byte[] libcBytes;

    @BeforeAll
    static void readLibc() {
        libc = HostLibc.load();
        libcBytes = HostFiles.readAll(HostFiles.LIBC);
    }

    @Test
    void walksOverRandomRegistersAndStacksEndWithAReasonOrAtTheOutermostFrame() {
        Random random = new Random(0x5eed);
        MemoryMapping text = libc.textMapping();
        for (int i = 0; i < 3000; i++) {
            byte[] stack = new byte[STACK_SIZE];
            random.nextBytes(stack);
            // Half the words point back into the stack or into libc, as real stacks' saved values do.
            for (int at = 0; at < STACK_SIZE; at += 8) {
                long word = switch (random.nextInt(4)) {
                    case 0 -> STACK + random.nextInt(STACK_SIZE);
                    case 1 -> text.start() + random.nextLong(text.size());
                    default -> 0;
                };
                if (word != 0) {
                    for (int b = 0; b < 8; b++) {
                        stack[at + b] = (byte) (word >>> (8 * b));
                    }
                }
            }
            byte[] vdso = new byte[VDSO_SIZE];
            random.nextBytes(vdso);
            System.arraycopy(libcBytes, 0, vdso, 0, random.nextInt(256)); // sometimes a plausible ELF header
            ScriptedMemory memory = ScriptedMemory.live().map(STACK, STACK_SIZE).putBytes(STACK, stack)
                    .map(VDSO, VDSO_SIZE).putBytes(VDSO, vdso);
            List<MemoryMapping> mappings = List.of(text,
                    new MemoryMapping(STACK, STACK + STACK_SIZE, "rw-p", 0, Optional.of("[stack]"), false),
                    new MemoryMapping(VDSO, VDSO + VDSO_SIZE, "r-xp", 0, Optional.of("[vdso]"), false));
            NativeUnwinder unwinder = new NativeUnwinder(memory, NativeModules.of(mappings, HostFiles::open, memory, ZstdDecoder.NONE));
            long[] r = new long[ThreadRegisters.COUNT];
            for (int k = 0; k < r.length; k++) {
                r[k] = random.nextBoolean() ? random.nextLong() : STACK + random.nextInt(STACK_SIZE);
            }
            r[ThreadRegisters.RSP] = STACK + random.nextInt(STACK_SIZE / 8) * 8L;
            r[ThreadRegisters.RIP] = switch (random.nextInt(3)) {
                case 0 -> text.start() + random.nextLong(text.size());
                case 1 -> VDSO + random.nextInt(VDSO_SIZE);
                default -> random.nextLong();
            };

            NativeStack walked = unwinder.unwind(ThreadRegisters.ofDwarf(r));

            assertThat(walked.frames()).isNotEmpty().hasSizeLessThanOrEqualTo(NativeUnwinder.MAX_FRAMES);
        }
    }

    @Test
    void damagedUnwindTablesFailOnlyWithTheReadersOwnError() throws Exception {
        Random random = new Random(42);
        CfiSection real = libc.ehFrame.section();
        ElfSectionHeader headerSection = libc.image.section(".eh_frame_hdr").orElseThrow();
        byte[] header = libc.image.contents(headerSection);
        FrameState registers = randomState(random);
        for (int i = 0; i < 2000; i++) {
            byte[] bytes = i % 10 == 0 ? randomBytes(random, random.nextInt(4096)) : mutate(random, real.bytes());
            CfiSection section = CfiSection.of(random.nextBoolean() ? CfiSection.Kind.EH_FRAME : CfiSection.Kind.DEBUG_FRAME,
                    bytes, real.address());
            try {
                FdeTable table = i % 3 == 0 ? FdeScan.scan(section)
                        : EhFrameHeader.read(mutate(random, header), headerSection.address(), section);
                for (int k = 0; k < 20 && table.size() > 0; k++) {
                    long pc = table.start(random.nextInt(table.size())) + random.nextInt(64);
                    lookUp(table, pc, registers);
                }
            } catch (NativeDataException expected) {
                // The damage was noticed: the one failure a walk turns into a reason.
            }
        }
    }

    @Test
    void randomExpressionsEndOrFailWithinTheirBounds() {
        Random random = new Random(7);
        FrameState registers = randomState(random);
        for (int i = 0; i < 20000; i++) {
            byte[] code = randomBytes(random, 1 + random.nextInt(32));
            for (int k = 0; k < code.length; k++) {
                if (random.nextInt(3) == 0) {
                    code[k] = (byte) (0x12 + random.nextInt(0x30)); // stack and arithmetic operators, branches
                }
            }
            try {
                DwarfExpression.evaluate(new DwarfBlock(code, 0, code.length), random.nextLong(), registers);
            } catch (NativeDataException | MemoryAccessException expected) {
                // Refused or unreadable: both end a walk with a reason.
            }
        }
    }

    @Test
    void damagedSymbolTablesStillAnswerLookups() throws Exception {
        Random random = new Random(11);
        ElfSectionHeader dynsym = libc.image.sectionOfType(ElfSectionHeader.SHT_DYNSYM).orElseThrow();
        byte[] entries = libc.image.contents(dynsym);
        byte[] strings = libc.image.contents(libc.image.section(dynsym.link()).orElseThrow());
        for (int i = 0; i < 2000; i++) {
            byte[] e = mutate(random, entries);
            byte[] s = i % 2 == 0 ? strings : mutate(random, Arrays.copyOf(strings, random.nextInt(strings.length)));
            SymbolTable table = SymbolTable.of(Arrays.copyOf(e, random.nextInt(e.length + 1)), s);
            for (int k = 0; k < 50; k++) {
                table.at(random.nextInt(0x200000));
            }
        }
    }

    @Test
    void damagedElfFilesGiveModulesWithFewerTablesNotExceptions() throws Exception {
        Random random = new Random(13);
        long malloc = HostLibc.function("malloc");
        for (int i = 0; i < 300; i++) {
            byte[] bytes = libcBytes.clone();
            // Damage the ELF header, the program headers, and the section headers at the end of the file.
            for (int k = 0; k < 8; k++) {
                int at = random.nextBoolean() ? random.nextInt(0x400) : bytes.length - 1 - random.nextInt(0x1200);
                bytes[at] = (byte) random.nextInt(256);
            }
            ModuleFile file = ModuleFile.read(new ArrayImage(bytes), "/damaged/libc.so.6", path -> Optional.empty(), ZstdDecoder.NONE);
            try {
                file.row(malloc + random.nextInt(64));
            } catch (NativeDataException expected) {
                // Noticed.
            }
            file.symbol(malloc);
        }
    }

    private static void lookUp(FdeTable table, long pc, FrameState registers) throws NativeDataException {
        Optional<Fde> fde = table.find(pc);
        if (fde.isEmpty()) {
            return;
        }
        UnwindRow row = CfaInterpreter.rowAt(table.section(), fde.get(), pc);
        try {
            if (row.cfa() instanceof CfaRule.Expression e) {
                DwarfExpression.evaluate(e.block(), registers);
            }
            for (int c = 0; c < UnwindRow.COLUMNS; c++) {
                if (row.rule(c) instanceof RegisterRule.AtExpression e) {
                    DwarfExpression.evaluate(e.block(), 0x7000, registers);
                }
            }
        } catch (MemoryAccessException unreadable) {
            // Garbage addresses are expected to be unmapped.
        }
    }

    private static FrameState randomState(Random random) {
        long[] values = random.longs(UnwindRow.COLUMNS).toArray();
        return new FrameState() {
            @Override
            public long register(int dwarf) throws NativeDataException {
                if (dwarf < 0 || dwarf >= values.length) {
                    throw new NativeDataException("register " + dwarf);
                }
                return values[dwarf];
            }

            @Override
            public long load(long address, int size) throws MemoryAccessException {
                if ((address & 0xff) == 0) {
                    throw new MemoryAccessException.Unmapped(address);
                }
                return address * 31;
            }
        };
    }

    private static byte[] mutate(Random random, byte[] original) {
        byte[] copy = original.clone();
        int changes = 1 + random.nextInt(16);
        for (int i = 0; i < changes && copy.length > 0; i++) {
            copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return copy;
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }
}
