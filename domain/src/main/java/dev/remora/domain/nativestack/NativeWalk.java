package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadRegisters;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** One walk of one thread's C stack; holds the registers of the frame being unwound. Not shared. */
final class NativeWalk implements FrameState {

    private static final int RSP = ThreadRegisters.RSP;
    private static final int RBP = ThreadRegisters.RBP;
    private static final int RIP = ThreadRegisters.RIP;
    private static final int ALL_KNOWN = (1 << UnwindRow.COLUMNS) - 1;
    private static final String[] NAMES = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
            "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip"};

    private final RemoteMemory memory;
    private final NativeModules modules;
    private final byte[] word = new byte[8];
    private long[] registers;
    private int known = ALL_KNOWN;
    private long previousCfa;
    private boolean previousSignal = true;

    NativeWalk(RemoteMemory memory, NativeModules modules, long[] registers) {
        this.memory = memory;
        this.modules = modules;
        this.registers = registers;
    }

    NativeStack run() {
        List<NativeFrame> frames = new ArrayList<>();
        boolean exactPc = true;
        while (true) {
            if (frames.size() >= NativeUnwinder.MAX_FRAMES) {
                return new NativeStack(frames, Optional.of("stack deeper than %d frames".formatted(NativeUnwinder.MAX_FRAMES)));
            }
            long pc = registers[RIP];
            long sp = registers[RSP];
            // A return address is the instruction after the call, maybe in the next function: look up the call.
            long lookup = exactPc ? pc : pc - 1;
            Optional<Module> module = modules.moduleAt(lookup);
            if (module.isEmpty()) {
                frames.add(new NativeFrame(pc, sp, sp, Optional.empty(), 0, Optional.empty(), Optional.empty(), 0));
                return new NativeStack(frames, Optional.of("0x%x is in no mapped file".formatted(pc)));
            }
            Module m = module.get();
            OptionalLong bias = m.bias();
            Optional<Symbol> symbol = Optional.empty();
            long offset = 0;
            long linkAddress = 0;
            if (bias.isPresent()) {
                long linkPc = pc - bias.getAsLong();
                symbol = m.file().symbol(lookup - bias.getAsLong());
                linkAddress = symbol.map(Symbol::start).orElse(linkPc);
                offset = symbol.isPresent() ? linkPc - linkAddress : linkPc;
            }
            UnwindStep step = step(m, bias, lookup, pc, sp, frames.isEmpty());
            frames.add(new NativeFrame(pc, sp, step.cfa(), symbol.map(Symbol::name), offset, m.library(), m.path(), linkAddress));
            switch (step) {
                case UnwindStep.Outermost o -> {
                    return new NativeStack(frames, Optional.empty());
                }
                case UnwindStep.Stop s -> {
                    return new NativeStack(frames, Optional.of(s.reason()));
                }
                case UnwindStep.Continue c -> {
                    exactPc = c.signalFrame();
                    previousSignal = c.signalFrame();
                    previousCfa = c.cfa();
                }
            }
        }
    }

    private UnwindStep step(Module m, OptionalLong bias, long lookup, long pc, long sp, boolean innermost) {
        Optional<UnwindRow> row = Optional.empty();
        if (bias.isPresent()) {
            try {
                row = m.file().row(lookup - bias.getAsLong());
            } catch (NativeDataException e) {
                return new UnwindStep.Stop(sp, "unwind data for 0x%x in %s: %s".formatted(pc, m.describe(), e.getMessage()));
            }
        }
        String missing = "no unwind information for 0x%x in %s".formatted(pc, m.describe())
                + m.file().problem().map(p -> " (" + p + ")").orElse("");
        if (row.isPresent()) {
            return withRow(row.get(), sp, innermost);
        }
        return withFramePointer(sp, innermost, missing);
    }

    private UnwindStep withRow(UnwindRow row, long sp, boolean innermost) {
        long cfa;
        try {
            cfa = switch (row.cfa()) {
                case CfaRule.RegisterOffset r -> register(r.register()) + r.offset();
                case CfaRule.Expression e -> DwarfExpression.evaluate(e.block(), this);
            };
        } catch (NativeDataException e) {
            return new UnwindStep.Stop(sp, "CFA: " + e.getMessage());
        } catch (MemoryAccessException e) {
            return new UnwindStep.Stop(sp, "CFA: " + e.getMessage());
        }
        if (!row.signalFrame()) {
            if (Long.compareUnsigned(cfa, sp) <= 0) {
                return new UnwindStep.Stop(sp, "CFA 0x%x is not above the stack pointer 0x%x".formatted(cfa, sp));
            }
            if (!innermost && !previousSignal && Long.compareUnsigned(cfa, previousCfa) <= 0) {
                return new UnwindStep.Stop(sp, "CFA 0x%x does not grow past the inner frame's 0x%x".formatted(cfa, previousCfa));
            }
        }
        int ra = row.returnAddressColumn();
        if (ra < 0 || ra >= UnwindRow.COLUMNS) {
            return new UnwindStep.Stop(cfa, "return address in register column " + ra);
        }
        switch (row.rule(ra)) {
            case RegisterRule.Undefined u -> {
                return new UnwindStep.Outermost(cfa);
            }
            case RegisterRule.Unspecified u -> {
                return new UnwindStep.Stop(cfa, "no rule recovers the return address");
            }
            default -> { }
        }
        long[] caller = new long[UnwindRow.COLUMNS];
        int callerKnown = 0;
        for (int column = 0; column < UnwindRow.COLUMNS; column++) {
            RegisterRule rule = row.rule(column);
            try {
                switch (rule) {
                    case RegisterRule.Unspecified u -> {
                        if (column == RSP) {
                            caller[column] = cfa;
                            callerKnown |= 1 << column;
                        } else if (known(column)) {
                            caller[column] = registers[column];
                            callerKnown |= 1 << column;
                        }
                    }
                    case RegisterRule.Undefined u -> { }
                    case RegisterRule.SameValue s -> {
                        if (known(column)) {
                            caller[column] = registers[column];
                            callerKnown |= 1 << column;
                        }
                    }
                    case RegisterRule.Offset o -> {
                        caller[column] = load(cfa + o.offset(), 8);
                        callerKnown |= 1 << column;
                    }
                    case RegisterRule.ValOffset v -> {
                        caller[column] = cfa + v.offset();
                        callerKnown |= 1 << column;
                    }
                    case RegisterRule.InRegister r -> {
                        if (r.register() < UnwindRow.COLUMNS && known(r.register())) {
                            caller[column] = registers[r.register()];
                            callerKnown |= 1 << column;
                        }
                    }
                    case RegisterRule.AtExpression e -> {
                        caller[column] = load(DwarfExpression.evaluate(e.block(), cfa, this), 8);
                        callerKnown |= 1 << column;
                    }
                    case RegisterRule.IsExpression e -> {
                        caller[column] = DwarfExpression.evaluate(e.block(), cfa, this);
                        callerKnown |= 1 << column;
                    }
                }
            } catch (MemoryAccessException e) {
                return new UnwindStep.Stop(cfa, "cannot read the saved %s: %s".formatted(NAMES[column], e.getMessage()));
            } catch (NativeDataException e) {
                return new UnwindStep.Stop(cfa, "the rule for %s: %s".formatted(NAMES[column], e.getMessage()));
            }
        }
        if ((callerKnown & (1 << ra)) == 0) {
            return new UnwindStep.Stop(cfa, "the return address is not recoverable");
        }
        if (caller[ra] == 0) {
            return new UnwindStep.Outermost(cfa);
        }
        caller[RIP] = caller[ra];
        callerKnown |= 1 << RIP;
        registers = caller;
        known = callerKnown;
        return new UnwindStep.Continue(cfa, row.signalFrame());
    }

    /** The caller from the rbp chain: saved rbp at [rbp], return address at [rbp + 8], caller's rsp rbp + 16. */
    private UnwindStep withFramePointer(long sp, boolean innermost, String missing) {
        if (!known(RBP)) {
            return new UnwindStep.Stop(sp, missing + ", and rbp is not known");
        }
        long rbp = registers[RBP];
        Optional<MemoryMapping> stack = modules.mappingAt(sp);
        boolean plausible = stack.isPresent() && (rbp & 7) == 0 && Long.compareUnsigned(rbp, sp) >= 0
                && Long.compareUnsigned(rbp, stack.get().end() - 16) <= 0;
        if (!plausible) {
            return new UnwindStep.Stop(sp, missing + ", and rbp 0x%x is no frame pointer".formatted(rbp));
        }
        long cfa = rbp + 16;
        if (!innermost && !previousSignal && Long.compareUnsigned(cfa, previousCfa) <= 0) {
            return new UnwindStep.Stop(sp, "frame pointer 0x%x does not grow past the inner frame's CFA 0x%x".formatted(rbp, previousCfa));
        }
        long callerRbp;
        long callerPc;
        try {
            callerRbp = load(rbp, 8);
            callerPc = load(rbp + 8, 8);
        } catch (MemoryAccessException e) {
            return new UnwindStep.Stop(sp, "following rbp 0x%x: %s".formatted(rbp, e.getMessage()));
        }
        if (callerPc == 0) {
            return new UnwindStep.Outermost(cfa);
        }
        long[] caller = new long[UnwindRow.COLUMNS];
        caller[RSP] = cfa;
        caller[RBP] = callerRbp;
        caller[RIP] = callerPc;
        registers = caller;
        known = 1 << RSP | 1 << RBP | 1 << RIP;
        return new UnwindStep.Continue(cfa, false);
    }

    private boolean known(int column) {
        return column >= 0 && column < UnwindRow.COLUMNS && (known & (1 << column)) != 0;
    }

    @Override
    public long register(int dwarf) throws NativeDataException {
        if (!known(dwarf)) {
            throw new NativeDataException("register %s is not known in this frame"
                    .formatted(dwarf >= 0 && dwarf < NAMES.length ? NAMES[dwarf] : "#" + dwarf));
        }
        return registers[dwarf];
    }

    @Override
    public long load(long address, int size) throws MemoryAccessException {
        memory.read(address, word, 0, size);
        long value = 0;
        for (int i = size - 1; i >= 0; i--) {
            value = value << 8 | (word[i] & 0xff);
        }
        return value;
    }
}
