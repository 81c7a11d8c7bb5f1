package dev.remora.domain.memory;

import java.util.Arrays;

/** An open-addressing map from long keys to non-negative ints that allocates only when it grows. */
public final class LongIntMap {

    public static final int ABSENT = -1;

    private long[] keys;
    private int[] values;
    private int size;

    public LongIntMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[capacity];
        values = new int[capacity];
        Arrays.fill(values, ABSENT);
    }

    public int get(long key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (values[i] == ABSENT) {
                return ABSENT;
            }
            if (keys[i] == key) {
                return values[i];
            }
        }
    }

    public void put(long key, int value) {
        if (size * 2 >= keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (values[i] == ABSENT) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
        }
    }

    public int size() {
        return size;
    }

    /** Empties the map, keeping its capacity. */
    public void clear() {
        if (size > 0) {
            Arrays.fill(values, ABSENT);
            size = 0;
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldValues.length * 2];
        Arrays.fill(values, ABSENT);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != ABSENT) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
