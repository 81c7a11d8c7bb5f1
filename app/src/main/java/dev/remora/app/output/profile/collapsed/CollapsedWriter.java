package dev.remora.app.output.profile.collapsed;

import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.app.output.profile.PyText;
import dev.remora.app.output.profile.Utf8;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ThreadTable;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collapsed stacks (flamegraph.pl, speedscope, inferno) as CPython 3.15's profiler writes them: one
 * line {@code tid:ID;root;...;leaf COUNT} per stack of a thread, a frame as
 * {@code file-basename:function:line}, a pseudo frame as its bare name; most frequent stacks first,
 * then by text. Stacks that read the same (they differ only in columns or in a file's directory) are
 * one line, which the flame graph tools would make of them anyway.
 */
public final class CollapsedWriter implements ProfileWriter {

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        CallTree tree = profile.tree();
        String[] names = new String[profile.frames().size()];
        long[] counts = profile.countsPerNode();
        Map<String, Long> stacks = new LinkedHashMap<>();
        for (int node = 0; node < counts.length; node++) {
            if (counts[node] == 0) {
                continue;
            }
            ThreadTable.ProfiledThread thread = profile.threads().get(tree.threadIndex(node));
            StringBuilder line = new StringBuilder();
            // A merged process tree: each stack says its process first.
            thread.processId().ifPresent(pid -> line.append("pid:").append(pid).append(';'));
            line.append("tid:").append(Long.toUnsignedString(thread.threadId()));
            for (int frame : tree.path(node)) {
                if (names[frame] == null) {
                    names[frame] = name(profile.frames().get(frame));
                }
                line.append(';').append(names[frame]);
            }
            stacks.merge(line.toString(), counts[node], Long::sum);
        }
        List<Map.Entry<String, Long>> lines = new ArrayList<>(stacks.entrySet());
        lines.sort((a, b) -> a.getValue().equals(b.getValue())
                ? PyText.compare(a.getKey(), b.getKey())
                : Long.compare(b.getValue(), a.getValue()));
        BufferedOutputStream buffered = new BufferedOutputStream(out);
        for (Map.Entry<String, Long> l : lines) {
            buffered.write(Utf8.encode(l.getKey() + " " + l.getValue() + "\n"));
        }
        buffered.flush();
    }

    /**
     * A frame as one ';'-separated part; pseudo frames (file "~", no line) are only their name, as in
     * pstats; C frames are {@code function (library)}, as py-spy writes them.
     */
    static String name(FrameInfo frame) {
        if (frame.isNative()) {
            return frame.function() + " (" + PyText.basename(frame.file()) + ")";
        }
        int line = frame.location().hasLine() ? frame.location().line() : 0;
        if (frame.file().equals("~") && line == 0) {
            return frame.function();
        }
        return PyText.basename(frame.file()) + ":" + frame.function() + ":" + line;
    }
}
