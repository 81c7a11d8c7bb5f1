package dev.remora.domain.profile;

import dev.remora.domain.memory.LongIntMap;

import java.util.Arrays;

/**
 * Every distinct stack of a profile as a tree of nodes: a node is a frame under its parent. Each
 * thread has its own root, so a stack is one node id, and building it costs no allocation once its
 * path exists.
 */
public final class CallTree {

    /** The frame of a thread's root node, which stands for no frame. */
    public static final int NO_FRAME = -1;

    private int[] parent = new int[1024];
    private int[] frame = new int[1024];
    private int[] thread = new int[1024];
    private int size;
    private final LongIntMap children = new LongIntMap(1024);
    private final LongIntMap roots = new LongIntMap(16);

    /** The root node of a thread (by its index in the profile's thread table). */
    int root(int threadIndex) {
        int node = roots.get(threadIndex);
        if (node == LongIntMap.ABSENT) {
            node = add(NO_FRAME, NO_FRAME, threadIndex);
            roots.put(threadIndex, node);
        }
        return node;
    }

    int child(int parentNode, int frameId) {
        long key = (long) parentNode << 32 | frameId;
        int node = children.get(key);
        if (node == LongIntMap.ABSENT) {
            node = add(parentNode, frameId, thread[parentNode]);
            children.put(key, node);
        }
        return node;
    }

    public int size() {
        return size;
    }

    /** The parent node, or {@link #NO_FRAME} for a thread's root. */
    public int parent(int node) {
        return parent[node];
    }

    /** The frame id of a node, or {@link #NO_FRAME} for a thread's root. */
    public int frame(int node) {
        return frame[node];
    }

    public int threadIndex(int node) {
        return thread[node];
    }

    public boolean isRoot(int node) {
        return frame[node] == NO_FRAME;
    }

    /** Frame ids from the root down to {@code node}. */
    public int[] path(int node) {
        int depth = 0;
        for (int n = node; !isRoot(n); n = parent[n]) {
            depth++;
        }
        int[] path = new int[depth];
        for (int n = node, i = depth - 1; !isRoot(n); n = parent[n], i--) {
            path[i] = frame[n];
        }
        return path;
    }

    private int add(int parentNode, int frameId, int threadIndex) {
        if (size == parent.length) {
            parent = Arrays.copyOf(parent, size * 2);
            frame = Arrays.copyOf(frame, size * 2);
            thread = Arrays.copyOf(thread, size * 2);
        }
        parent[size] = parentNode;
        frame[size] = frameId;
        thread[size] = threadIndex;
        return size++;
    }
}
