package dev.remora.domain.testing;

import dev.remora.domain.InspectionException;
import dev.remora.domain.discovery.RuntimeLocator.LocatedRuntime;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.testing.ScriptedMemory;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The memory a stack dump read from a real parked CPython process (targets/parked_threads.py), with
 * the stacks that process recorded of itself: committed under {@code images/} by
 * {@code scripts/capture-images.sh} (app's {@code CaptureImage}), so that walks over real memory of
 * every frame shape run without root or targets.
 *
 * @param stacks one line a frame, innermost first: thread id, function, file, line, end line,
 *     column, end column, tab-separated (-1: none)
 */
public record CapturedImage(String name, PythonVersion version, long runtime, String file, int pid, List<Page> pages,
                            List<String> stacks) {

    /** One page of memory as captured. */
    public record Page(long address, byte[] bytes) {}

    /** The images committed: one per supported version. */
    public static final List<String> NAMES = List.of("pyenv-3.8.18-shared", "pyenv-3.9.18-shared", "pyenv-3.10.13-shared",
            "pyenv-3.11.7-shared", "pyenv-3.12.1-shared", "debian-3.13", "debian-3.14", "debian-3.15");

    private static final int MAGIC = 0x524d4931;
    private static final int PAGE = 4096;
    private static final int MAX_PAGES = 1 << 16;

    public static CapturedImage load(String name) {
        try (InputStream raw = resource("/images/" + name + ".img.gz");
             DataInputStream in = new DataInputStream(new GZIPInputStream(raw));
             InputStream stacks = resource("/images/" + name + ".stacks")) {
            if (in.readInt() != MAGIC) {
                throw new IllegalStateException(name + " is not a captured image");
            }
            String[] v = in.readUTF().split("\\.");
            PythonVersion version = new PythonVersion(Integer.parseInt(v[0]), Integer.parseInt(v[1]), Integer.parseInt(v[2]), 0xF, 0);
            long runtime = in.readLong();
            String file = in.readUTF();
            int pid = in.readInt();
            int count = in.readInt();
            if (count < 0 || count > MAX_PAGES) {
                throw new IllegalStateException(name + " claims " + count + " pages");
            }
            Page[] pages = new Page[count];
            for (int i = 0; i < count; i++) {
                long address = in.readLong();
                byte[] bytes = new byte[PAGE];
                in.readFully(bytes);
                pages[i] = new Page(address, bytes);
            }
            return new CapturedImage(name, version, runtime, file, pid, Arrays.asList(pages),
                    new String(stacks.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The image's memory, as a running process's ({@link ScriptedMemory#live}) or a core's. */
    public ScriptedMemory memory(ScriptedMemory empty) {
        for (Page page : pages) {
            empty.putBytes(page.address(), page.bytes());
        }
        return empty;
    }

    /** The runtime as discovery would have found it: 3.13 on from its debug offsets, earlier from headers. */
    public LocatedRuntime runtime(ScriptedMemory memory) throws InspectionException, MemoryAccessException {
        DebugOffsets offsets;
        if (version.minor() >= 13) {
            byte[] raw = new byte[DebugOffsetsDecoder.MAX_STRUCT_SIZE];
            memory.read(runtime, raw, 0, raw.length);
            offsets = DebugOffsetsDecoder.decode(raw);
        } else {
            offsets = DebugOffsetsDecoder.fromHeaders(version);
        }
        return new LocatedRuntime(runtime, file, offsets);
    }

    private static InputStream resource(String path) throws IOException {
        InputStream in = CapturedImage.class.getResourceAsStream(path);
        if (in == null) {
            throw new IOException("no fixture " + path);
        }
        return in;
    }
}
