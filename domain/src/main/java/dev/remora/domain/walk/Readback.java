package dev.remora.domain.walk;

/** When a walk's links are read back. */
enum Readback {
    /** From the second copies the snapshot's batch holds, when it holds them all; else by a read now. */
    BATCH_OR_NOW,
    /** By a read now: the batch's second copies were read before something the check must follow. */
    NOW
}
