package dev.remora.domain.nativestack;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.OptionalLong;

/**
 * Runs a CIE's initial instructions and then an FDE's, up to a pc, and returns the row in force
 * there. Every operand is bounded by the entry; remembered states by {@link #MAX_REMEMBERED}.
 */
final class CfaInterpreter {

    static final int MAX_REMEMBERED = 64;
    private static final int MAX_REGISTER = 1024;

    private final CfiSection section;
    private final Fde fde;
    private final long target;
    private final Cie cie;
    private CfaRule cfa;
    private RegisterRule[] rules = filled(RegisterRule.UNSPECIFIED);
    private RegisterRule[] initial = filled(RegisterRule.UNSPECIFIED);
    private final Deque<Saved> remembered = new ArrayDeque<>();
    private long location;

    private record Saved(CfaRule cfa, RegisterRule[] rules) {}

    /** Stops a program once its location passes the target pc. */
    private static final class Reached extends Exception {
        Reached() {
            super(null, null, false, false);
        }
    }

    private CfaInterpreter(CfiSection section, Fde fde, long target) {
        this.section = section;
        this.fde = fde;
        this.target = target;
        this.cie = fde.cie();
        this.location = fde.pcBegin();
    }

    /** The row for {@code pc} (link-time), which {@code fde} must cover. */
    static UnwindRow rowAt(CfiSection section, Fde fde, long pc) throws NativeDataException {
        return new CfaInterpreter(section, fde, pc).run();
    }

    private UnwindRow run() throws NativeDataException {
        try {
            execute(cie.instructionsStart(), cie.instructionsEnd());
            initial = rules.clone();
            execute(fde.instructionsStart(), fde.instructionsEnd());
        } catch (Reached done) {
            // The rules in force at the target are the ones set before the location passed it.
        }
        if (cfa == null) {
            throw new NativeDataException("no CFA rule at the pc (FDE at 0x%x)".formatted(fde.offset()));
        }
        return new UnwindRow(cfa, rules, cie.returnAddressColumn(), cie.signalFrame());
    }

    private void execute(int start, int end) throws NativeDataException, Reached {
        DwarfCursor in = new DwarfCursor(section.bytes(), start, end);
        long codeAlign = cie.codeAlignment();
        long dataAlign = cie.dataAlignment();
        while (!in.atEnd()) {
            int op = in.u8();
            int low = op & 0x3f;
            switch (op & 0xc0) {
                case 0x40 -> advance(low * codeAlign);
                case 0x80 -> set(low, new RegisterRule.Offset(in.uleb() * dataAlign));
                case 0xc0 -> set(low, initialRule(low));
                default -> extended(in, op, codeAlign, dataAlign);
            }
        }
    }

    private void extended(DwarfCursor in, int op, long codeAlign, long dataAlign) throws NativeDataException, Reached {
        switch (op) {
            case 0x00 -> { } // nop
            case 0x01 -> { // set_loc
                long to = PointerEncoding.read(in, cie.fdeEncoding(), section.address(), OptionalLong.empty());
                moveTo(to);
            }
            case 0x02 -> advance(in.u8() * codeAlign);
            case 0x03 -> advance(in.u16() * codeAlign);
            case 0x04 -> advance(in.u32() * codeAlign);
            case 0x05 -> set(register(in), new RegisterRule.Offset(in.uleb() * dataAlign));
            case 0x06 -> {
                int r = register(in);
                set(r, initialRule(r));
            }
            case 0x07 -> set(register(in), RegisterRule.UNDEFINED);
            case 0x08 -> set(register(in), RegisterRule.SAME_VALUE);
            case 0x09 -> set(register(in), new RegisterRule.InRegister(register(in)));
            case 0x0a -> {
                if (remembered.size() >= MAX_REMEMBERED) {
                    throw new NativeDataException("more than %d remembered states".formatted(MAX_REMEMBERED));
                }
                remembered.push(new Saved(cfa, rules.clone()));
            }
            case 0x0b -> {
                Saved s = remembered.poll();
                if (s == null) {
                    throw new NativeDataException("restore_state without remember_state");
                }
                cfa = s.cfa();
                rules = s.rules();
            }
            case 0x0c -> cfa = new CfaRule.RegisterOffset(register(in), in.uleb());
            case 0x0d -> cfa = new CfaRule.RegisterOffset(register(in), cfaOffset());
            case 0x0e -> cfa = new CfaRule.RegisterOffset(cfaRegister(), in.uleb());
            case 0x0f -> cfa = new CfaRule.Expression(block(in));
            case 0x10 -> {
                int r = register(in);
                set(r, new RegisterRule.AtExpression(block(in)));
            }
            case 0x11 -> set(register(in), new RegisterRule.Offset(in.sleb() * dataAlign));
            case 0x12 -> cfa = new CfaRule.RegisterOffset(register(in), in.sleb() * dataAlign);
            case 0x13 -> cfa = new CfaRule.RegisterOffset(cfaRegister(), in.sleb() * dataAlign);
            case 0x14 -> set(register(in), new RegisterRule.ValOffset(in.uleb() * dataAlign));
            case 0x15 -> set(register(in), new RegisterRule.ValOffset(in.sleb() * dataAlign));
            case 0x16 -> {
                int r = register(in);
                set(r, new RegisterRule.IsExpression(block(in)));
            }
            case 0x2e -> in.uleb(); // GNU_args_size: only matters to exception handling
            case 0x2f -> set(register(in), new RegisterRule.Offset(-in.uleb() * dataAlign));
            default -> throw new NativeDataException("unsupported CFA instruction 0x%02x".formatted(op));
        }
    }

    private void advance(long delta) throws Reached {
        moveTo(location + delta);
    }

    private void moveTo(long to) throws Reached {
        if (Long.compareUnsigned(to, target) > 0) {
            throw new Reached();
        }
        location = to;
    }

    private int cfaRegister() throws NativeDataException {
        if (cfa instanceof CfaRule.RegisterOffset r) {
            return r.register();
        }
        throw new NativeDataException("CFA offset change without a register CFA");
    }

    private long cfaOffset() {
        return cfa instanceof CfaRule.RegisterOffset r ? r.offset() : 0;
    }

    private RegisterRule initialRule(int register) {
        return register < UnwindRow.COLUMNS ? initial[register] : RegisterRule.UNSPECIFIED;
    }

    private void set(int register, RegisterRule rule) {
        if (register < UnwindRow.COLUMNS) {
            rules[register] = rule;
        }
    }

    private static int register(DwarfCursor in) throws NativeDataException {
        long r = in.uleb();
        if (r < 0 || r > MAX_REGISTER) {
            throw new NativeDataException("register number " + r);
        }
        return (int) r;
    }

    private static DwarfBlock block(DwarfCursor in) throws NativeDataException {
        int length = in.length(in.uleb());
        int start = in.position();
        in.skip(length);
        return new DwarfBlock(in.bytes(), start, start + length);
    }

    private static RegisterRule[] filled(RegisterRule rule) {
        RegisterRule[] rules = new RegisterRule[UnwindRow.COLUMNS];
        Arrays.fill(rules, rule);
        return rules;
    }
}
