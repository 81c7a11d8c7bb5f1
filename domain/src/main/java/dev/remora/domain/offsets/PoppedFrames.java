package dev.remora.domain.offsets;

import dev.remora.domain.memory.StateOrder;

/** What a version leaves in a data-stack frame's slot once the frame has returned. */
public enum PoppedFrames {
    /** The frame's code and links stay until a later call reuses the slot (3.10 to 3.13). */
    KEPT,
    /** The frame's code is cleared as it returns (3.14+): a frame read after its return says so. */
    CODE_CLEARED;

    /** Where a thread's state may be read among its frames: first only where a returned frame says so. */
    public StateOrder stateOrder() {
        return this == CODE_CLEARED ? StateOrder.STATE_FIRST : StateOrder.STATE_BETWEEN;
    }
}
