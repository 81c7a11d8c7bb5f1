package dev.remora.app.testing;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.jmh.CapturedMemory;
import dev.remora.domain.discovery.RuntimeLocator;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * Captures the memory a stack dump reads from a parked target (targets/parked_threads.py), with the
 * stacks the target recorded of itself, as fixtures for the domain's root-free walk tests
 * ({@code domain/src/test/resources/images}, read by {@code CapturedImages}). Run by
 * {@code scripts/capture-images.sh}, as root, with the targets provisioned.
 *
 * <p>Usage: {@code CaptureImage OUT_DIR TARGET_NAME...} (names as in the targets file).
 */
public final class CaptureImage {

    /** The image's format, first in the file. */
    public static final int MAGIC = 0x524d4931;
    /** The deep-recursion thread's depth: deep enough for several frames per chunk page, small on disk. */
    static final int DEPTH = 40;

    private CaptureImage() {}

    public static void main(String... args) throws Exception {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            TargetInterpreter python = TargetInterpreters.all().stream().filter(t -> t.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no target named " + name));
            capture(python, out);
        }
    }

    private static void capture(TargetInterpreter python, Path out) throws Exception {
        try (ParkedTarget target = ParkedThreads.start(python, DEPTH);
             VmReadvMemory live = VmReadvMemory.open((int) target.pid())) {
            int pid = (int) target.pid();
            CapturedMemory memory = new CapturedMemory(live);
            ProcfsProcessImage image = ProcfsProcessImage.of(pid);
            RuntimeLocator.LocatedRuntime runtime = new RuntimeLocator(image, memory).locate();
            PythonProcess process = PythonProcess.attach(image, memory);
            for (int k = 0; k < 3; k++) {
                process.snapshot(SnapshotOptions.of(SnapshotOptions.Threads.ALL));
            }
            memory.freeze();
            String base = python.name();
            try (OutputStream file = Files.newOutputStream(out.resolve(base + ".img.gz"));
                 DataOutputStream data = new DataOutputStream(new GZIPOutputStream(file))) {
                data.writeInt(MAGIC);
                data.writeUTF(target.expected().version());
                data.writeLong(runtime.address());
                data.writeUTF(runtime.file());
                data.writeInt(pid);
                memory.writePages(data);
            }
            Files.write(out.resolve(base + ".stacks"), lines(target.expected()));
            System.out.printf("%s: %s%n", base, out.resolve(base + ".img.gz"));
        }
    }

    /** One line a frame, innermost first: thread id, function, file, line, end line, column, end column (-1: none). */
    private static List<String> lines(ExpectedProcess expected) throws IOException {
        List<String> lines = new ArrayList<>();
        for (ExpectedThread thread : expected.threads()) {
            for (ExpectedFrame f : thread.frames()) {
                lines.add(String.join("\t", Long.toString(thread.threadId()), f.function(), f.file(), n(f.line()),
                        n(f.endLine()), n(f.column()), n(f.endColumn())));
            }
        }
        return lines;
    }

    private static String n(Integer value) {
        return value == null ? "-1" : value.toString();
    }
}
