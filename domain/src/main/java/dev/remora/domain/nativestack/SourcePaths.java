package dev.remora.domain.nativestack;

import java.util.ArrayList;
import java.util.List;

/**
 * Joins a line table's directory and file names into one path with '/'. Paths drop their {@code .}
 * and empty segments, so the compiler's {@code /build/./Modules/x.c} reads {@code /build/Modules/x.c}
 * (gdb and addr2line print the former); {@code ..} stays, as through a symbolic link it is no plain
 * step up.
 */
final class SourcePaths {

    private SourcePaths() {}

    /** DWARF 5 directories: entry 0 is the compilation directory, and the relative ones lie under it. */
    static List<String> underCompilationDirectory(List<String> names) {
        List<String> out = new ArrayList<>(names.size());
        for (String name : names) {
            out.add(out.isEmpty() ? normalise(name) : join(out.getFirst(), name));
        }
        return List.copyOf(out);
    }

    /**
     * DWARF 2 to 4 directories, which start at index 1: index 0, the compilation directory, is named only
     * in the debug info, so its files stay relative.
     */
    static List<String> afterCompilationDirectory(List<String> names) {
        List<String> out = new ArrayList<>(names.size() + 1);
        out.add("");
        for (String name : names) {
            out.add(normalise(name));
        }
        return List.copyOf(out);
    }

    /** A file entry's path; an index naming no directory leaves the name alone. */
    static String file(List<String> directories, long index, String name) {
        if (index < 0 || index >= directories.size()) {
            return normalise(name);
        }
        return join(directories.get((int) index), name);
    }

    static String join(String directory, String name) {
        if (directory.isEmpty() || name.startsWith("/")) {
            return normalise(name);
        }
        return normalise(directory + "/" + name);
    }

    static String normalise(String path) {
        if (!path.contains("./") && !path.contains("//") && !path.endsWith("/.")) {
            return path;
        }
        StringBuilder out = new StringBuilder(path.length());
        boolean absolute = path.startsWith("/");
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (absolute || !out.isEmpty()) {
                out.append('/');
            }
            out.append(segment);
        }
        if (out.isEmpty()) {
            return absolute ? "/" : ".";
        }
        return out.toString();
    }
}
