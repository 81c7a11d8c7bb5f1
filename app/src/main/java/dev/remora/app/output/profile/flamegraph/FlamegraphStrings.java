package dev.remora.app.output.profile.flamegraph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The string table of the embedded data: each function and file name is written once and nodes refer
 * to it by index, since the same few names repeat across thousands of nodes.
 */
final class FlamegraphStrings {

    private final Map<String, Integer> indexes = new HashMap<>();
    private final List<String> strings = new ArrayList<>();

    int index(String s) {
        return indexes.computeIfAbsent(s, k -> {
            strings.add(k);
            return strings.size() - 1;
        });
    }

    List<String> strings() {
        return strings;
    }
}
