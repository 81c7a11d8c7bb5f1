package dev.remora.domain.offsets;

/** What a frame object's {@code f_lasti} counts (3.8 to 3.10; later frames point at their instruction). */
public enum LastInstruction {
    /** 3.8 and 3.9: the byte offset of the last instruction in {@code co_code}. */
    BYTE_OFFSET(1),
    /** 3.10: the index of the last code unit (two bytes each). */
    CODE_UNIT_INDEX(2),
    /** 3.11+: frames keep a pointer to their instruction; there is no {@code f_lasti} to scale. */
    NONE(0);

    private final int bytesPerStep;

    LastInstruction(int bytesPerStep) {
        this.bytesPerStep = bytesPerStep;
    }

    /** The byte offset in the code that {@code lasti} stands for. */
    public long byteOffset(int lasti) {
        return (long) bytesPerStep * lasti;
    }
}
