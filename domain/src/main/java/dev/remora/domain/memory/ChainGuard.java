package dev.remora.domain.memory;

/**
 * Detects loops in a linked list read from the target without remembering every node (Brent's
 * method), and caps the length: garbage memory must never make a walk run forever.
 */
public final class ChainGuard {

    private int maxLength;
    private long saved;
    private int power;
    private int sinceSaved;
    private int length;

    public ChainGuard(int maxLength, long start) {
        restart(maxLength, start);
    }

    /** Starts guarding a new chain: one guard serves walk after walk without allocating. */
    public ChainGuard restart(int maxLength, long start) {
        this.maxLength = maxLength;
        this.saved = start;
        this.power = 1;
        this.sinceSaved = 0;
        this.length = 0;
        return this;
    }

    /** Records a step to {@code next}; false when the chain looped or grew past its cap. */
    public boolean step(long next) {
        if (++length > maxLength || next == saved) {
            return false;
        }
        if (++sinceSaved == power) {
            saved = next;
            power <<= 1;
            sinceSaved = 0;
        }
        return true;
    }

    public boolean tooLong() {
        return length > maxLength;
    }
}
