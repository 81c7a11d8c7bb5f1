package dev.remora.domain.nativestack;

/**
 * Where a run of a line program starts: an opcode's section offset and the state machine's address,
 * file and line registers there. The registers are all a later row depends on.
 */
record LineState(int offset, long address, long file, long line) {

    /** The state at the start of a sequence: address 0, file 1, line 1. */
    static LineState sequenceStart(int offset) {
        return new LineState(offset, 0, 1, 1);
    }
}
