package dev.remora.app.output.profile.flamegraph;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The profile's call tree as a flamegraph shows it: one root for all threads, and frames that look
 * the same to a reader (function, file, line; columns are not shown) merged under each parent. Every
 * node keeps its samples per thread so the page can filter by thread without the raw samples.
 */
final class FlamegraphTree {

    /** One merged frame; the root has an empty function and file and no line. */
    static final class Node {
        final Node parent;
        final String function;
        final String file;
        final int line;
        final FlamegraphCounts counts = new FlamegraphCounts();
        final List<Node> children = new ArrayList<>();
        /** Instructions samples ended on in this frame (with --opcodes), by name; made on the first one. */
        Map<String, Long> opcodes = Map.of();

        void countOpcode(String name, long samples) {
            if (opcodes.isEmpty()) {
                opcodes = new TreeMap<>();
            }
            opcodes.merge(name, samples, Long::sum);
        }

        private Node(Node parent, String function, String file, int line) {
            this.parent = parent;
            this.function = function;
            this.file = file;
            this.line = line;
        }
    }

    /** What makes two frames the same box in the graph. */
    private record FrameKey(String function, String file, int line) {}

    private record ChildKey(Node parent, FrameKey frame) {}

    // Siblings are drawn in name order, so the same calls line up whichever thread is shown.
    private static final Comparator<Node> DRAWING_ORDER = Comparator.<Node, String>comparing(n -> n.function)
            .thenComparing(n -> n.file)
            .thenComparingInt(n -> n.line);

    private final Node root;

    private FlamegraphTree(Node root) {
        this.root = root;
    }

    static FlamegraphTree of(Profile profile) {
        CallTree tree = profile.tree();
        long[] samples = profile.countsPerNode();
        FrameKey[] keys = frameKeys(profile);
        Node root = new Node(null, "", "", -1);
        Map<ChildKey, Node> children = new HashMap<>();
        List<Node> created = new ArrayList<>();
        Node[] merged = new Node[tree.size()];
        // A call-tree node is numbered after its parent, so one pass in order sees parents first.
        for (int n = 0; n < tree.size(); n++) {
            Node node = root;
            if (!tree.isRoot(n)) {
                Node parent = merged[tree.parent(n)];
                FrameKey key = keys[tree.frame(n)];
                node = children.computeIfAbsent(new ChildKey(parent, key), k -> {
                    Node child = new Node(parent, key.function(), key.file(), key.line());
                    parent.children.add(child);
                    created.add(child);
                    return child;
                });
            }
            merged[n] = node;
            if (samples[n] > 0) {
                node.counts.addSelf(tree.threadIndex(n), samples[n]);
            }
        }
        for (int i = 0; i < profile.samples().size(); i++) {
            int opcode = profile.samples().opcode(i);
            if (opcode >= 0) {
                merged[profile.samples().node(i)].countOpcode(profile.opcodeName(opcode), profile.samples().weight(i));
            }
        }
        // Children were created after their parents: in reverse, every child is complete before it is added up.
        for (int i = created.size() - 1; i >= 0; i--) {
            Node node = created.get(i);
            node.parent.counts.addTotals(node.counts);
        }
        return new FlamegraphTree(root);
    }

    /** Nodes with samples, parents before children and siblings in drawing order. */
    List<Node> preorder() {
        List<Node> order = new ArrayList<>();
        // Iterative: Python stacks can be deeper than the JVM's default stack allows recursion for.
        Deque<Node> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Node node = pending.pop();
            if (node.counts.totalSum() == 0 && node != root) {
                continue;
            }
            order.add(node);
            List<Node> sorted = new ArrayList<>(node.children);
            sorted.sort(DRAWING_ORDER.reversed());
            sorted.forEach(pending::push);
        }
        return order;
    }

    private static FrameKey[] frameKeys(Profile profile) {
        FrameKey[] keys = new FrameKey[profile.frames().size()];
        for (int id = 0; id < keys.length; id++) {
            FrameInfo frame = profile.frames().get(id);
            keys[id] = new FrameKey(orEmpty(frame.function()), orEmpty(frame.file()),
                    frame.isNative() ? FlamegraphData.C_FRAME_LINE : frame.location().line());
        }
        return keys;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
