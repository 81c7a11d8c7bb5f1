package dev.remora.app.output.dump;

import dev.remora.ports.FileBytes;
import dev.remora.ports.ProcessImage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Source lines of the target's files, read as the target sees them, each file once per dump. */
public final class SourceLines {

    private static final long MAX_FILE = 16 << 20;

    private final ProcessImage image;
    private final Map<String, Optional<List<String>>> files = new HashMap<>();

    public SourceLines(ProcessImage image) {
        this.image = image;
    }

    /** The whole file, as the target sees it; empty when it cannot be read. */
    public Optional<List<String>> lines(String file) {
        if (file.startsWith("<")) {
            return Optional.empty();
        }
        return files.computeIfAbsent(file, this::load);
    }

    public Optional<String> line(String file, int line) {
        if (line < 1 || file.startsWith("<")) {
            return Optional.empty();
        }
        List<String> lines = files.computeIfAbsent(file, this::load).orElse(List.of());
        return line <= lines.size() ? Optional.of(lines.get(line - 1).strip()) : Optional.empty();
    }

    private Optional<List<String>> load(String file) {
        Optional<FileBytes> opened = image.openFile(file);
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        try (FileBytes f = opened.get()) {
            if (f.size() > MAX_FILE) {
                return Optional.empty();
            }
            byte[] all = new byte[(int) f.size()];
            int done = 0;
            while (done < all.length) {
                int n = f.read(done, all, done, all.length - done);
                if (n <= 0) {
                    break;
                }
                done += n;
            }
            return Optional.of(new String(all, 0, done, StandardCharsets.UTF_8).lines().toList());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
