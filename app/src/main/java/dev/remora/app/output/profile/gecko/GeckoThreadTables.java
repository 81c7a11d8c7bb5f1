package dev.remora.app.output.profile.gecko;

import dev.remora.app.output.profile.StringTable;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The stack, frame, func and resource tables of one thread in the Firefox Profiler's processed
 * format. Each table is a set of columns of equal length; stacks point at their prefix (caller) stack,
 * frames at their func, funcs at their resource, all by index.
 */
final class GeckoThreadTables {

    static final int CATEGORY_PYTHON = 1;
    static final int CATEGORY_NATIVE = 2;
    /** The resource type the Firefox Profiler calls "library"; CPython files Python modules under it. */
    private static final int RESOURCE_TYPE_LIBRARY = 1;

    private record Func(String file, String function) {}

    private final StringTable strings;
    /** Stack index of each call-tree node; shared by all threads, as each node belongs to one. */
    private final int[] stackOfNode;
    private final Columns stacks;
    private final Columns frames;
    private final Columns funcs;
    private final Columns resources;
    /** Frame index of each profile frame id, -1 where the thread never ran it. */
    private final int[] frameOfId;
    private final Map<Func, Integer> funcIndex = new HashMap<>();
    private final Map<String, Integer> resourceIndex = new HashMap<>();

    private GeckoThreadTables(Profile profile, StringTable strings, int[] stackOfNode, int nodes) {
        this.strings = strings;
        this.stackOfNode = stackOfNode;
        int frameIds = profile.frames().size();
        frameOfId = new int[frameIds];
        Arrays.fill(frameOfId, -1);
        stacks = new Columns(nodes, 3);          // frame, prefix, category
        frames = new Columns(frameIds, 4);       // func, category, line, column
        funcs = new Columns(frameIds, 4);        // name, isJS, resource, fileName
        resources = new Columns(frameIds, 1);    // name
    }

    /**
     * Builds the tables of one thread from its call-tree nodes (in tree order, roots left out),
     * recording each node's stack index in {@code stackOfNode}.
     */
    static GeckoThreadTables of(Profile profile, int[] nodes, StringTable strings, int[] stackOfNode) {
        GeckoThreadTables tables = new GeckoThreadTables(profile, strings, stackOfNode, nodes.length);
        // A node is always added after its parent, so every prefix has its index when a child needs it.
        for (int node : nodes) {
            tables.addStack(profile, node);
        }
        return tables;
    }

    /** Each thread's non-root call-tree nodes in tree order, found in one pass over the tree. */
    static int[][] nodesByThread(CallTree tree, int threads) {
        int[] counts = new int[threads];
        for (int node = 0; node < tree.size(); node++) {
            if (!tree.isRoot(node)) {
                counts[tree.threadIndex(node)]++;
            }
        }
        int[][] nodes = new int[threads][];
        for (int t = 0; t < threads; t++) {
            nodes[t] = new int[counts[t]];
            counts[t] = 0;
        }
        for (int node = 0; node < tree.size(); node++) {
            if (!tree.isRoot(node)) {
                int t = tree.threadIndex(node);
                nodes[t][counts[t]++] = node;
            }
        }
        return nodes;
    }

    /** The stack index of a sample's call-tree node. */
    int stack(int node) {
        return stackOfNode[node];
    }

    private void addStack(Profile profile, int node) {
        CallTree tree = profile.tree();
        int frameId = tree.frame(node);
        int frame = frame(profile.frames().get(frameId), frameId);
        int parent = tree.parent(node);
        int prefix = tree.isRoot(parent) ? -1 : stackOfNode[parent];
        stackOfNode[node] = stacks.add(frame, prefix, frames.get(frame, 1));
    }

    private int frame(FrameInfo info, int frameId) {
        if (frameOfId[frameId] < 0) {
            int func = func(info);
            // Columns 1-based, as Gecko reports JavaScript's (CPython's collector copies its 0-based ones).
            frameOfId[frameId] = frames.add(func, category(info),
                    info.location().line(), info.location().hasColumn() ? info.location().column() + 1 : -1);
        }
        return frameOfId[frameId];
    }

    private int func(FrameInfo info) {
        return funcIndex.computeIfAbsent(new Func(info.file(), info.function()), key -> {
            boolean python = category(info) == CATEGORY_PYTHON;
            // A C frame's library is its resource, as native code's is in the Firefox Profiler.
            boolean hasFile = python || info.isNative();
            return funcs.add(strings.intern(info.function()), python ? 1 : 0,
                    hasFile ? resource(info.file()) : -1, hasFile ? strings.intern(info.file()) : -1);
        });
    }

    private int resource(String file) {
        return resourceIndex.computeIfAbsent(file,
                f -> resources.add(strings.intern(f.substring(f.lastIndexOf('/') + 1))));
    }

    static int category(FrameInfo frame) {
        if (frame.equals(PseudoFrames.GC)) {
            return GeckoMarkers.CATEGORY_GC;
        }
        return frame.equals(PseudoFrames.NATIVE) || frame.isNative() ? CATEGORY_NATIVE : CATEGORY_PYTHON;
    }

    void writeStackTable(JsonWriter json) throws IOException {
        json.beginObject();
        column(json, "frame", stacks, 0);
        column(json, "category", stacks, 2);
        constantColumn(json, "subcategory", stacks.size, 0);
        column(json, "prefix", stacks, 1);
        json.name("length").value(stacks.size);
        json.endObject();
    }

    void writeFrameTable(JsonWriter json) throws IOException {
        json.beginObject();
        constantColumn(json, "address", frames.size, -1);
        column(json, "category", frames, 1);
        constantColumn(json, "subcategory", frames.size, 0);
        column(json, "func", frames, 0);
        constantColumn(json, "innerWindowID", frames.size, null);
        constantColumn(json, "implementation", frames.size, null);
        constantColumn(json, "optimizations", frames.size, null);
        column(json, "line", frames, 2);
        column(json, "column", frames, 3);
        constantColumn(json, "inlineDepth", frames.size, 0);
        constantColumn(json, "nativeSymbol", frames.size, null);
        json.name("length").value(frames.size);
        json.endObject();
    }

    void writeFuncTable(JsonWriter json) throws IOException {
        json.beginObject();
        column(json, "name", funcs, 0);
        json.name("isJS").beginArray();
        for (int i = 0; i < funcs.size; i++) {
            json.value(funcs.get(i, 1) == 1);
        }
        json.endArray();
        // Python functions are what a user of this profile reads: keep them in "JS only" views too.
        json.name("relevantForJS").beginArray();
        for (int i = 0; i < funcs.size; i++) {
            json.value(funcs.get(i, 1) == 1);
        }
        json.endArray();
        json.name("resource").beginArray();
        for (int i = 0; i < funcs.size; i++) {
            json.value(funcs.get(i, 2));
        }
        json.endArray();
        column(json, "fileName", funcs, 3);
        // The line a function starts on (co_firstlineno) is not part of a sampled frame.
        constantColumn(json, "lineNumber", funcs.size, null);
        constantColumn(json, "columnNumber", funcs.size, null);
        json.name("length").value(funcs.size);
        json.endObject();
    }

    void writeResourceTable(JsonWriter json) throws IOException {
        json.beginObject();
        constantColumn(json, "lib", resources.size, null);
        column(json, "name", resources, 0);
        constantColumn(json, "host", resources.size, null);
        constantColumn(json, "type", resources.size, RESOURCE_TYPE_LIBRARY);
        json.name("length").value(resources.size);
        json.endObject();
    }

    /** A column of indexes or numbers, where -1 stands for null. */
    private static void column(JsonWriter json, String name, Columns table, int column) throws IOException {
        json.name(name).beginArray();
        for (int i = 0; i < table.size; i++) {
            json.optional(table.get(i, column));
        }
        json.endArray();
    }

    /** A column holding one value in every row; a null {@code value} writes nulls. */
    private static void constantColumn(JsonWriter json, String name, int length, Integer value) throws IOException {
        json.name(name).beginArray();
        for (int i = 0; i < length; i++) {
            if (value == null) {
                json.nullValue();
            } else {
                json.value(value);
            }
        }
        json.endArray();
    }

    /** Rows of a few int columns, stored row by row; the capacity is known up front. */
    private static final class Columns {

        private final int width;
        private final int[] cells;
        private int size;

        Columns(int capacity, int width) {
            this.width = width;
            this.cells = new int[capacity * width];
        }

        int add(int... row) {
            System.arraycopy(row, 0, cells, size * width, width);
            return size++;
        }

        int get(int row, int column) {
            return cells[row * width + column];
        }
    }
}
