package dev.remora.domain.nativestack;

/**
 * A common information entry: what the FDEs that name it share.
 *
 * @param fdeEncoding how its FDEs encode their addresses (augmentation 'R'), absptr otherwise
 * @param hasAugmentationData augmentation 'z': its FDEs carry a length-prefixed data block to skip
 * @param signalFrame augmentation 'S': its frames were interrupted by a signal, so their pc is exact
 * @param instructionsStart where the initial instructions begin in the section
 * @param instructionsEnd where they end
 */
record Cie(int offset, long codeAlignment, long dataAlignment, int returnAddressColumn, int fdeEncoding,
           boolean hasAugmentationData, boolean signalFrame, int instructionsStart, int instructionsEnd) {}
