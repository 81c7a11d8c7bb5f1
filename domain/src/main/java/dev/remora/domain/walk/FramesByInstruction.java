package dev.remora.domain.walk;

import dev.remora.domain.model.FrameInfo;

/**
 * The frames one code object has produced, by instruction index: an open-addressing table of
 * primitive keys, so a lookup allocates nothing. It stops taking entries at 8192 slots, kept at most
 * half full so probes stay short.
 */
final class FramesByInstruction {

    private static final int CAPACITY = 8192;

    private int[] keys;
    private FrameInfo[] frames;
    private int size;

    FrameInfo get(int index) {
        if (frames == null) {
            return null;
        }
        int mask = frames.length - 1;
        for (int i = slot(index, mask); frames[i] != null; i = (i + 1) & mask) {
            if (keys[i] == index) {
                return frames[i];
            }
        }
        return null;
    }

    void put(int index, FrameInfo frame) {
        if (frames == null) {
            keys = new int[16];
            frames = new FrameInfo[16];
        } else if (size * 2 >= frames.length) {
            if (frames.length == CAPACITY) {
                return;
            }
            grow();
        }
        int mask = frames.length - 1;
        int i = slot(index, mask);
        while (frames[i] != null && keys[i] != index) {
            i = (i + 1) & mask;
        }
        if (frames[i] == null) {
            size++;
        }
        keys[i] = index;
        frames[i] = frame;
    }

    private void grow() {
        int[] oldKeys = keys;
        FrameInfo[] oldFrames = frames;
        keys = new int[oldKeys.length * 2];
        frames = new FrameInfo[oldFrames.length * 2];
        size = 0;
        for (int i = 0; i < oldFrames.length; i++) {
            if (oldFrames[i] != null) {
                put(oldKeys[i], oldFrames[i]);
            }
        }
    }

    private static int slot(int index, int mask) {
        return (index * 0x9E3779B1) >>> 7 & mask;
    }
}
