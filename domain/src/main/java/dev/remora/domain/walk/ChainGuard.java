package dev.remora.domain.walk;

/**
 * Detects loops in a linked list read from the target without remembering every node (Brent's
 * method), and caps the length: garbage memory must never make a walk run forever.
 */
final class ChainGuard {

    private final int maxLength;
    private long saved;
    private int power = 1;
    private int sinceSaved;
    private int length;

    ChainGuard(int maxLength, long start) {
        this.maxLength = maxLength;
        this.saved = start;
    }

    /** Records a step to {@code next}; false when the chain looped or grew past its cap. */
    boolean step(long next) {
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

    boolean tooLong() {
        return length > maxLength;
    }
}
