package dev.remora.app.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A fresh directory under a target's ROOT/tmp, so that a chrooted interpreter can open what the
 * test puts there; each file has a host path and a path as seen inside the root.
 */
public final class ScratchDir implements AutoCloseable {

    private final TargetInterpreter interpreter;
    private final String inRoot;

    private ScratchDir(TargetInterpreter interpreter, String inRoot) {
        this.interpreter = interpreter;
        this.inRoot = inRoot;
    }

    /** Creates ROOT/tmp/{prefix}{random}/. */
    public static ScratchDir create(TargetInterpreter interpreter, String prefix) {
        try {
            Path hostTmp = interpreter.hostPath("/tmp");
            Path dir = Files.createTempDirectory(hostTmp, prefix);
            return new ScratchDir(interpreter, "/tmp/" + dir.getFileName());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory in " + interpreter.hostPath("/tmp"), e);
        }
    }

    /** This directory as seen inside the root. */
    public String inRoot() {
        return inRoot;
    }

    /** A file in this directory as seen inside the root. */
    public String inRoot(String fileName) {
        return inRoot + "/" + fileName;
    }

    /** This directory on the host. */
    public Path host() {
        return interpreter.hostPath(inRoot);
    }

    /** A file in this directory on the host. */
    public Path host(String fileName) {
        return host().resolve(fileName);
    }

    /** Copies a class path resource (e.g. "targets/parked_threads.py") here; returns its path inside the root. */
    public String copyResource(String resource) {
        String fileName = resource.substring(resource.lastIndexOf('/') + 1);
        try (InputStream in = ScratchDir.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no class path resource " + resource);
            }
            Files.copy(in, host(fileName));
            return inRoot(fileName);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + resource + " to " + host(), e);
        }
    }

    /** Deletes the directory and everything in it. */
    @Override
    public void close() {
        if (!Files.exists(host())) {
            return;
        }
        try (Stream<Path> paths = Files.walk(host())) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + host(), e);
        }
    }
}
