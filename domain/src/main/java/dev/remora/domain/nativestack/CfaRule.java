package dev.remora.domain.nativestack;

/** How a row computes the canonical frame address. */
sealed interface CfaRule {

    /** A register's value plus an offset: what nearly every row uses. */
    record RegisterOffset(int register, long offset) implements CfaRule {}

    /** The value of an expression evaluated with an empty stack. */
    record Expression(DwarfBlock block) implements CfaRule {}
}
