package dev.remora.app.output.profile.flamegraph;

import java.util.Arrays;

/**
 * Samples of one flamegraph node per thread, kept sparse and ordered by thread index: after merging,
 * most nodes belong to one thread, so a dense array per node would cost (nodes x threads).
 */
final class FlamegraphCounts {

    private int[] threads = new int[1];
    private long[] self = new long[1];
    private long[] total = new long[1];
    private int size;

    /** Samples whose stack ends at this node. */
    void addSelf(int thread, long samples) {
        int i = slot(thread);
        self[i] += samples;
        total[i] += samples;
    }

    /** Adds a child's totals to this node's, thread by thread. */
    void addTotals(FlamegraphCounts child) {
        for (int c = 0; c < child.size; c++) {
            int i = slot(child.threads[c]); // before reading the field: slot() may replace the array
            total[i] += child.total[c];
        }
    }

    int size() {
        return size;
    }

    int thread(int entry) {
        return threads[entry];
    }

    long self(int entry) {
        return self[entry];
    }

    long total(int entry) {
        return total[entry];
    }

    long selfSum() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += self[i];
        }
        return sum;
    }

    long totalSum() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += total[i];
        }
        return sum;
    }

    private int slot(int thread) {
        int i = Arrays.binarySearch(threads, 0, size, thread);
        if (i >= 0) {
            return i;
        }
        i = -i - 1;
        if (size == threads.length) {
            threads = Arrays.copyOf(threads, size * 2);
            self = Arrays.copyOf(self, size * 2);
            total = Arrays.copyOf(total, size * 2);
        }
        System.arraycopy(threads, i, threads, i + 1, size - i);
        System.arraycopy(self, i, self, i + 1, size - i);
        System.arraycopy(total, i, total, i + 1, size - i);
        threads[i] = thread;
        self[i] = 0;
        total[i] = 0;
        size++;
        return i;
    }
}
