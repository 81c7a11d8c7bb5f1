package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;

/**
 * Evaluates the DWARF expressions call frame information uses (value computations: constants,
 * registers, arithmetic, comparisons, branches, memory reads), bounded in operations executed and
 * stack depth. Location operators (DW_OP_reg*, pieces) and anything else end the evaluation with a
 * {@link NativeDataException}.
 */
final class DwarfExpression {

    static final int MAX_OPERATIONS = 1000;
    static final int MAX_DEPTH = 64;

    private final long[] stack = new long[MAX_DEPTH];
    private int depth;

    private DwarfExpression() {}

    /** The value {@code block} computes, with {@code initial} pushed first (the CFA, for register rules). */
    static long evaluate(DwarfBlock block, long initial, FrameState frame) throws NativeDataException, MemoryAccessException {
        DwarfExpression e = new DwarfExpression();
        e.push(initial);
        return e.run(block, frame);
    }

    /** The value {@code block} computes from an empty stack (a CFA expression). */
    static long evaluate(DwarfBlock block, FrameState frame) throws NativeDataException, MemoryAccessException {
        return new DwarfExpression().run(block, frame);
    }

    private long run(DwarfBlock block, FrameState frame) throws NativeDataException, MemoryAccessException {
        DwarfCursor in = new DwarfCursor(block.bytes(), block.start(), block.end());
        for (int executed = 0; !in.atEnd(); executed++) {
            if (executed >= MAX_OPERATIONS) {
                throw new NativeDataException("expression runs over %d operations".formatted(MAX_OPERATIONS));
            }
            int op = in.u8();
            if (op >= 0x30 && op <= 0x4f) {
                push(op - 0x30);
            } else if (op >= 0x70 && op <= 0x8f) {
                push(frame.register(op - 0x70) + in.sleb());
            } else {
                operation(op, in, block, frame);
            }
        }
        return pop();
    }

    private void operation(int op, DwarfCursor in, DwarfBlock block, FrameState frame)
            throws NativeDataException, MemoryAccessException {
        switch (op) {
            case 0x03, 0x0e, 0x0f -> push(in.u64()); // addr, const8u, const8s
            case 0x06 -> push(frame.load(pop(), 8));
            case 0x08 -> push(in.u8());
            case 0x09 -> push((byte) in.u8());
            case 0x0a -> push(in.u16());
            case 0x0b -> push((short) in.u16());
            case 0x0c -> push(in.u32());
            case 0x0d -> push((int) in.u32());
            case 0x10 -> push(in.uleb());
            case 0x11 -> push(in.sleb());
            case 0x12 -> push(peek(0));
            case 0x13 -> pop();
            case 0x14 -> push(peek(1));
            case 0x15 -> push(peek(in.u8()));
            case 0x16 -> {
                long a = pop();
                long b = pop();
                push(a);
                push(b);
            }
            case 0x17 -> {
                long a = pop();
                long b = pop();
                long c = pop();
                push(a);
                push(c);
                push(b);
            }
            case 0x19 -> push(Math.abs(pop()));
            case 0x1a -> push(pop() & pop());
            case 0x1b -> {
                long d = pop();
                long n = pop();
                if (d == 0) {
                    throw new NativeDataException("division by zero in an expression");
                }
                push(n / d);
            }
            case 0x1c -> {
                long b = pop();
                push(pop() - b);
            }
            case 0x1d -> {
                long d = pop();
                long n = pop();
                if (d == 0) {
                    throw new NativeDataException("modulo by zero in an expression");
                }
                push(Long.remainderUnsigned(n, d));
            }
            case 0x1e -> push(pop() * pop());
            case 0x1f -> push(-pop());
            case 0x20 -> push(~pop());
            case 0x21 -> push(pop() | pop());
            case 0x22 -> push(pop() + pop());
            case 0x23 -> push(pop() + in.uleb());
            case 0x24 -> shift(op);
            case 0x25 -> shift(op);
            case 0x26 -> shift(op);
            case 0x27 -> push(pop() ^ pop());
            case 0x28 -> { // bra
                int delta = (short) in.u16();
                if (pop() != 0) {
                    jump(in, block, delta);
                }
            }
            case 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e -> compare(op);
            case 0x2f -> jump(in, block, (short) in.u16()); // skip
            case 0x92 -> { // bregx
                long r = in.uleb();
                if (r < 0 || r > 1024) {
                    throw new NativeDataException("register number " + r);
                }
                push(frame.register((int) r) + in.sleb());
            }
            case 0x94 -> {
                int size = in.u8();
                if (size < 1 || size > 8) {
                    throw new NativeDataException("deref_size of %d bytes".formatted(size));
                }
                push(frame.load(pop(), size));
            }
            case 0x96 -> { } // nop
            default -> throw new NativeDataException("unsupported DWARF operation 0x%02x".formatted(op));
        }
    }

    private void shift(int op) throws NativeDataException {
        long by = pop();
        long value = pop();
        if (by < 0 || by >= 64) {
            push(op == 0x26 && value < 0 ? -1 : 0);
            return;
        }
        push(switch (op) {
            case 0x24 -> value << by;
            case 0x25 -> value >>> by;
            default -> value >> by;
        });
    }

    private void compare(int op) throws NativeDataException {
        // DWARF compares as signed values.
        long b = pop();
        long a = pop();
        boolean r = switch (op) {
            case 0x29 -> a == b;
            case 0x2a -> a >= b;
            case 0x2b -> a > b;
            case 0x2c -> a <= b;
            case 0x2d -> a < b;
            default -> a != b;
        };
        push(r ? 1 : 0);
    }

    private static void jump(DwarfCursor in, DwarfBlock block, int delta) throws NativeDataException {
        long to = (long) in.position() + delta;
        if (to < block.start() || to > block.end()) {
            throw new NativeDataException("branch outside the expression");
        }
        in.seek((int) to);
    }

    private void push(long value) throws NativeDataException {
        if (depth >= MAX_DEPTH) {
            throw new NativeDataException("expression stack deeper than " + MAX_DEPTH);
        }
        stack[depth++] = value;
    }

    private long pop() throws NativeDataException {
        if (depth == 0) {
            throw new NativeDataException("expression pops an empty stack");
        }
        return stack[--depth];
    }

    private long peek(int fromTop) throws NativeDataException {
        if (fromTop >= depth) {
            throw new NativeDataException("expression reads below its stack");
        }
        return stack[depth - 1 - fromTop];
    }
}
