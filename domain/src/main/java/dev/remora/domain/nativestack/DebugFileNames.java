package dev.remora.domain.nativestack;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Where a separate debug file for a module may be, the places gdb looks: by build id under
 * {@code /usr/lib/debug/.build-id}, then by the {@code .gnu_debuglink} name next to the module, in its
 * {@code .debug} directory, and under {@code /usr/lib/debug}.
 */
final class DebugFileNames {

    static final String DEBUG_ROOT = "/usr/lib/debug";
    private static final int NT_GNU_BUILD_ID = 3;

    private DebugFileNames() {}

    static List<String> candidates(String path, Optional<String> buildId, Optional<String> debugLink) {
        List<String> out = new ArrayList<>();
        buildId.filter(id -> id.length() > 2).ifPresent(id ->
                out.add(DEBUG_ROOT + "/.build-id/" + id.substring(0, 2) + "/" + id.substring(2) + ".debug"));
        int slash = path.lastIndexOf('/');
        if (debugLink.isPresent() && slash >= 0 && !debugLink.get().contains("/") && !debugLink.get().isEmpty()) {
            String dir = path.substring(0, slash);
            String name = debugLink.get();
            out.add(DEBUG_ROOT + dir + "/" + name);
            out.add(dir + "/.debug/" + name);
            if (!name.equals(path.substring(slash + 1))) {
                out.add(dir + "/" + name);
            }
        }
        return out;
    }

    /** The hex build id in a {@code .note.gnu.build-id} section's notes. */
    static Optional<String> buildId(byte[] notes) {
        try {
            DwarfCursor in = new DwarfCursor(notes, 0, notes.length);
            while (!in.atEnd()) {
                long nameSize = in.u32();
                long descSize = in.u32();
                long type = in.u32();
                int nameLength = in.length(nameSize);
                String name = new String(notes, in.position(), nameLength, StandardCharsets.ISO_8859_1);
                in.skip(align4(nameSize));
                int descStart = in.position();
                int descLength = in.length(descSize);
                if (type == NT_GNU_BUILD_ID && name.equals("GNU\0") && descLength > 0) {
                    byte[] id = Arrays.copyOfRange(notes, descStart, descStart + descLength);
                    return Optional.of(HexFormat.of().formatHex(id));
                }
                in.skip(Math.min(align4(descSize), notes.length - in.position()));
            }
        } catch (NativeDataException malformed) {
            // A damaged note only costs the debug file lookup by id.
        }
        return Optional.empty();
    }

    /** The file name a {@code .gnu_debuglink} section names. */
    static Optional<String> debugLink(byte[] section) {
        try {
            String name = new DwarfCursor(section, 0, section.length).cString(4096);
            return name.isEmpty() ? Optional.empty() : Optional.of(name);
        } catch (NativeDataException malformed) {
            return Optional.empty();
        }
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }
}
