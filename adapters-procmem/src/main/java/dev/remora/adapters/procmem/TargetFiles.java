package dev.remora.adapters.procmem;

import dev.remora.ports.ChannelFileBytes;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Opens a file as the target process sees it.
 *
 * <p>The usual route is /proc/PID/root + path, so a target in a container or chroot gets its own file.
 * When the target maps a file that has since been deleted or replaced (a library upgraded under a
 * running process), that path names the wrong file or none; /proc/PID/map_files still reaches the
 * mapped file itself, so it is tried first for deleted mappings and last for any other mapping of the
 * path. (map_files needs CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE; without it that route just fails.)
 */
final class TargetFiles {

    private TargetFiles() {}

    static Optional<FileBytes> open(ProcfsProcessImage image, String path) {
        if (path == null || !path.startsWith("/") || hasParentStep(path)) {
            return Optional.empty(); // pseudo paths like [heap], and paths that could leave the target's root
        }
        for (Path candidate : candidates(image, path)) {
            try {
                return Optional.of(new ChannelFileBytes(FileChannel.open(candidate, StandardOpenOption.READ)));
            } catch (IOException | SecurityException | UnsupportedOperationException e) {
                // Try the next route.
            }
        }
        return Optional.empty();
    }

    private static List<Path> candidates(ProcfsProcessImage image, String path) {
        List<MemoryMapping> mapped = mappingsOf(image, path);
        Path viaRoot = Path.of(Procfs.dir(image.pid()).resolve("root") + path);
        Set<Path> ordered = new LinkedHashSet<>();
        mapped.stream().filter(MemoryMapping::deleted).findFirst().ifPresent(m -> ordered.add(mapFile(image, m)));
        ordered.add(viaRoot);
        mapped.stream().findFirst().ifPresent(m -> ordered.add(mapFile(image, m)));
        return new ArrayList<>(ordered);
    }

    private static List<MemoryMapping> mappingsOf(ProcfsProcessImage image, String path) {
        try {
            return image.mappings().stream().filter(m -> m.path().filter(path::equals).isPresent()).toList();
        } catch (ProcessImageException e) {
            return List.of();
        }
    }

    private static Path mapFile(ProcfsProcessImage image, MemoryMapping m) {
        return Procfs.dir(image.pid()).resolve("map_files").resolve("%x-%x".formatted(m.start(), m.end()));
    }

    private static boolean hasParentStep(String path) {
        for (String part : path.split("/")) {
            if (part.equals("..")) {
                return true;
            }
        }
        return false;
    }
}
