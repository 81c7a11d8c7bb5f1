package dev.remora.domain.nativestack;

/** How a row recovers one of the caller's registers. */
sealed interface RegisterRule {

    /** No rule given: the register is taken as unchanged (and the stack pointer as the CFA). */
    RegisterRule UNSPECIFIED = new Unspecified();
    RegisterRule UNDEFINED = new Undefined();
    RegisterRule SAME_VALUE = new SameValue();

    record Unspecified() implements RegisterRule {}

    /** The caller's value cannot be recovered; for the return address, the outermost frame. */
    record Undefined() implements RegisterRule {}

    record SameValue() implements RegisterRule {}

    /** Saved in memory at CFA + offset. */
    record Offset(long offset) implements RegisterRule {}

    /** Is CFA + offset. */
    record ValOffset(long offset) implements RegisterRule {}

    /** Held in another register of this frame. */
    record InRegister(int register) implements RegisterRule {}

    /** Saved in memory at the address an expression computes, the CFA pushed first. */
    record AtExpression(DwarfBlock block) implements RegisterRule {}

    /** Is the value an expression computes, the CFA pushed first. */
    record IsExpression(DwarfBlock block) implements RegisterRule {}
}
