package dev.remora.adapters.coredump;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Any bytes either open as a core or fail with {@link CoreFileException}; nothing else escapes, and
 * the opened core answers every question without throwing anything but {@link MemoryAccessException}.
 *
 * <p>Under {@code mvn test} this replays the inputs in CoreParserFuzzTestInputs/anyBytes; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates them (hangs and runaway memory count as findings there).
 */
class CoreParserFuzzTest {

    /** The paths the seed inputs map, present in the fuzzer's sysroot so that reads from files are fuzzed too. */
    private static final List<String> FILES = List.of("lib/x.so", "usr/lib/libx.so");

    /** Mapped files are looked for only here: the fuzzer must not read this machine's files. */
    private static Path root;

    @BeforeAll
    static void makeRoot() throws IOException {
        root = Files.createTempDirectory("remora-fuzz-root-");
        for (String f : FILES) {
            byte[] content = CoreBuilder.bytes(3 * 4096 + 100, 3);
            System.arraycopy(new byte[] {0x7f, 'E', 'L', 'F'}, 0, content, 0, 4);
            Files.write(Files.createDirectories(root.resolve(f).getParent()).resolve(root.resolve(f).getFileName()), content);
        }
    }

    @AfterAll
    static void removeRoot() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @FuzzTest(maxDuration = "5m")
    void anyBytes(byte[] input) {
        CoreDump dump;
        try {
            dump = CoreDump.read(null, new CoreBytes(MemorySegment.ofArray(input), "fuzz"), new FileLocator(Optional.of(root)));
        } catch (CoreFileException expected) {
            return;
        }
        try (dump) {
            exercise(dump, input);
        }
    }

    private static void exercise(CoreDump dump, byte[] input) {
        // The core's image declares no failures of its own: everything was checked when it opened.
        CoreProcessImage image = (CoreProcessImage) dump.image();
        image.threadIds().forEach(image::threadName);
        dump.unavailableFiles();
        List<MemoryMapping> mappings = image.mappings();
        byte[] buffer = new byte[64];
        for (MemoryMapping m : mappings.subList(0, Math.min(mappings.size(), 64))) {
            m.path().ifPresent(path -> image.openFile(path).ifPresent(f -> f.close()));
            read(dump, m.start(), buffer);
            read(dump, m.end() - 8, buffer);
            read(dump, m.start() + m.size() / 2, buffer);
        }
        // Addresses taken from the input itself: whatever pointers a walk would follow.
        ByteBuffer words = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + 8 <= input.length && at < 512; at += 8) {
            read(dump, words.getLong(at), buffer);
        }
        dump.missedFiles();
    }

    private static void read(CoreDump dump, long address, byte[] buffer) {
        try {
            dump.memory().read(address, buffer, 0, buffer.length);
        } catch (MemoryAccessException expected) {
            // Unmapped or unavailable: both are answers.
        }
    }
}
