package dev.remora.ports;

import java.util.Arrays;

/**
 * A stopped thread's x86-64 general registers, indexed by their DWARF numbers (0 rax, 1 rdx, 2 rcx,
 * 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15, 16 the return address column: rip), which is how
 * unwind rules name them.
 */
public final class ThreadRegisters {

    public static final int COUNT = 17;
    public static final int RBP = 6;
    public static final int RSP = 7;
    public static final int RIP = 16;

    private final long[] values;

    private ThreadRegisters(long[] values) {
        this.values = values;
    }

    /** From values in DWARF order; exactly {@link #COUNT} of them. */
    public static ThreadRegisters ofDwarf(long[] values) {
        if (values.length != COUNT) {
            throw new IllegalArgumentException("%d registers, not %d".formatted(values.length, COUNT));
        }
        return new ThreadRegisters(values.clone());
    }

    /**
     * From {@code struct user_regs_struct} as ptrace's PTRACE_GETREGS and a core's NT_PRSTATUS lay it
     * out: r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8, rax, rcx, rdx, rsi, rdi, orig_rax, rip, cs,
     * eflags, rsp, ... (8 bytes each).
     */
    public static ThreadRegisters ofUserRegs(long[] user) {
        if (user.length < 20) {
            throw new IllegalArgumentException("user_regs_struct has 27 words, got " + user.length);
        }
        long[] d = new long[COUNT];
        d[0] = user[10];
        d[1] = user[12];
        d[2] = user[11];
        d[3] = user[5];
        d[4] = user[13];
        d[5] = user[14];
        d[RBP] = user[4];
        d[RSP] = user[19];
        d[8] = user[9];
        d[9] = user[8];
        d[10] = user[7];
        d[11] = user[6];
        d[12] = user[3];
        d[13] = user[2];
        d[14] = user[1];
        d[15] = user[0];
        d[RIP] = user[16];
        return new ThreadRegisters(d);
    }

    /** The register numbered {@code dwarf}, 0 to {@link #COUNT} - 1. */
    public long get(int dwarf) {
        return values[dwarf];
    }

    public long pc() {
        return values[RIP];
    }

    public long sp() {
        return values[RSP];
    }

    /** All of them, in DWARF order, a copy. */
    public long[] dwarf() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ThreadRegisters other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "ThreadRegisters[pc=0x%x, sp=0x%x]".formatted(pc(), sp());
    }
}
