package dev.remora.app.output.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Strings numbered in order of first use, as both the Gecko and the pprof formats store them. */
public final class StringTable {

    private final Map<String, Integer> index = new HashMap<>();
    private final List<String> strings = new ArrayList<>();

    /** A table whose first entries are {@code preset} (pprof requires "" at index 0). */
    public StringTable(String... preset) {
        for (String s : preset) {
            intern(s);
        }
    }

    public int intern(String s) {
        Integer i = index.get(s);
        if (i == null) {
            i = strings.size();
            strings.add(s);
            index.put(s, i);
        }
        return i;
    }

    public List<String> strings() {
        return strings;
    }
}
