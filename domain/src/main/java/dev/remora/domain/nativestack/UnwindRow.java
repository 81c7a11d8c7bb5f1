package dev.remora.domain.nativestack;

import java.util.Arrays;

/**
 * The unwind rules in force at one pc: how to find the CFA and each caller register
 * (DWARF numbers 0 to {@link #COLUMNS} - 1; rules for wider registers are dropped).
 */
final class UnwindRow {

    static final int COLUMNS = 17;

    private final CfaRule cfa;
    private final RegisterRule[] rules;
    private final int returnAddressColumn;
    private final boolean signalFrame;

    UnwindRow(CfaRule cfa, RegisterRule[] rules, int returnAddressColumn, boolean signalFrame) {
        this.cfa = cfa;
        this.rules = rules.clone();
        this.returnAddressColumn = returnAddressColumn;
        this.signalFrame = signalFrame;
    }

    CfaRule cfa() {
        return cfa;
    }

    RegisterRule rule(int column) {
        return column >= 0 && column < COLUMNS ? rules[column] : RegisterRule.UNSPECIFIED;
    }

    int returnAddressColumn() {
        return returnAddressColumn;
    }

    /** The frame was interrupted by a signal: the caller's pc is exact, not a return address. */
    boolean signalFrame() {
        return signalFrame;
    }

    @Override
    public String toString() {
        return "UnwindRow[cfa=%s, rules=%s, ra=%d%s]".formatted(cfa, Arrays.toString(rules), returnAddressColumn,
                signalFrame ? ", signal" : "");
    }
}
