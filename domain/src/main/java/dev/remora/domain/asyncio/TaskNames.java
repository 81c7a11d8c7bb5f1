package dev.remora.domain.asyncio;

import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.math.BigInteger;

/**
 * Reads a task's name as {@code task.get_name()} returns it. A task created without a name keeps
 * only its number, as an int, until someone asks: that is shown as asyncio shows it, "Task-N".
 * Names are read in every string kind (CPython 3.14's own reader garbles non-ASCII ones).
 */
final class TaskNames {

    /** asyncio numbers tasks with a 64-bit counter: three 30-bit digits at most; allow some slack. */
    private static final int MAX_DIGITS = 8;
    private static final int DIGIT_BITS = 30;
    private static final int SIGN_MASK = 3;
    private static final int SIGN_NEGATIVE = 2;
    private static final int SIGN_ZERO = 1;
    private static final int DIGIT_COUNT_SHIFT = 3;

    private final AsyncContext context;
    private final TypeFacts types;

    TaskNames(AsyncContext context, TypeFacts types) {
        this.context = context;
        this.types = types;
    }

    String read(long name) throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        if (!AsyncContext.plausiblePointer(name)) {
            throw new InconsistentGraph("task name pointer 0x%x".formatted(name));
        }
        long flags = types.flags(types.typeOf(name));
        if ((flags & TypeFacts.LONG_SUBCLASS) != 0) {
            return "Task-" + readInt(name);
        }
        if ((flags & TypeFacts.UNICODE_SUBCLASS) != 0) {
            return context.objects().readString(name);
        }
        throw new InconsistentGraph("task name at 0x%x is neither a str nor an int".formatted(name));
    }

    /** A {@code PyLongObject}: {@code lv_tag} holds the sign (low two bits) and digit count (from bit 3). */
    private BigInteger readInt(long address) throws MemoryAccessException, InconsistentGraph {
        DebugOffsets.LongObject layout = context.offsets().longObject().orElseThrow();
        long tag = context.reader().readLong(address + layout.lvTag());
        long digits = tag >>> DIGIT_COUNT_SHIFT;
        int sign = (int) (tag & SIGN_MASK);
        // Bit 2 marks immortal small ints (3.14+); it is neither sign nor size.
        if (digits > MAX_DIGITS || sign == SIGN_MASK) {
            throw new InconsistentGraph("int at 0x%x has an impossible lv_tag 0x%x".formatted(address, tag));
        }
        if (sign == SIGN_ZERO) {
            return BigInteger.ZERO;
        }
        BigInteger value = BigInteger.ZERO;
        for (int i = (int) digits - 1; i >= 0; i--) {
            long digit = context.reader().readInt(address + layout.obDigit() + 4L * i) & 0xFFFF_FFFFL;
            if (digit >>> DIGIT_BITS != 0) {
                throw new InconsistentGraph("int at 0x%x has a digit out of range".formatted(address));
            }
            value = value.shiftLeft(DIGIT_BITS).or(BigInteger.valueOf(digit));
        }
        return sign == SIGN_NEGATIVE ? value.negate() : value;
    }
}
