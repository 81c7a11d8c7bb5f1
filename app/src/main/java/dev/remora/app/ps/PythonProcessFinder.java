package dev.remora.app.ps;

import dev.remora.adapters.procmem.ProcessList;
import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the Python processes among a host's processes: those that map a python executable or a
 * libpython, and whose runtime Remora finds. A process that is not Python is left out silently; one
 * that looks like Python but cannot be read is listed with the reason.
 */
public final class PythonProcessFinder {

    /** Opens a process's image and memory, as the command's backend does. */
    public interface Opener {
        Opened open(int pid) throws InspectionException;
    }

    /** An opened process: closing it closes its memory. */
    public record Opened(ProcessImage image, RemoteMemory memory) implements AutoCloseable {
        @Override
        public void close() {
            memory.close();
        }
    }

    private final Opener opener;
    private final int self;

    public PythonProcessFinder(Opener opener, int self) {
        this.opener = opener;
        this.self = self;
    }

    /** What is done with each Python process found, while it is open; returns its Python threads. */
    @FunctionalInterface
    public interface Inspection {
        int read(Opened opened, PythonProcess process) throws InspectionException;
    }

    /** The Python processes among {@code processes}; with {@code root}, only it and its descendants. */
    public List<PythonProcessRow> find(List<ProcessList.Entry> processes, Optional<Integer> root) {
        return find(processes, root, PythonProcessFinder::countThreads);
    }

    /** As {@link #find(List, Optional)}, reading each Python process found with {@code inspection} while it is open. */
    public List<PythonProcessRow> find(List<ProcessList.Entry> processes, Optional<Integer> root, Inspection inspection) {
        Set<Integer> wanted = root.map(r -> subtree(processes, r)).orElse(null);
        List<PythonProcessRow> rows = new ArrayList<>();
        for (ProcessList.Entry entry : processes) {
            if (entry.pid() == self || entry.command().isEmpty() || (wanted != null && !wanted.contains(entry.pid()))) {
                continue;
            }
            inspect(entry, inspection).ifPresent(rows::add);
        }
        return rows;
    }

    /** Its Python threads: the thread states of every interpreter. */
    private static int countThreads(Opened opened, PythonProcess process) throws InspectionException {
        int threads = 0;
        for (InterpreterStacks interpreter : process.snapshot(SnapshotOptions.threads(true)).interpreters()) {
            threads += interpreter.threads().size();
        }
        return threads;
    }

    private Optional<PythonProcessRow> inspect(ProcessList.Entry entry, Inspection inspection) {
        try (Opened opened = opener.open(entry.pid())) {
            try {
                if (!mapsPython(opened.image())) {
                    return Optional.empty();
                }
            } catch (ProcessImageException e) {
                throw Failures.from(e);
            }
            PythonProcess process = PythonProcess.attach(opened.image(), opened.memory());
            int threads = inspection.read(opened, process);
            return Optional.of(PythonProcessRow.read(entry.pid(), entry.parent(), process.version().toString(), threads,
                    entry.command()));
        } catch (InspectionException.NotPython | InspectionException.TargetGone notListed) {
            return Optional.empty();
        } catch (InspectionException.AccessDenied e) {
            // Its mappings are unreadable too: only its command line can say whether it is Python.
            return looksLikePython(entry)
                    ? Optional.of(PythonProcessRow.unreadable(entry.pid(), entry.parent(), entry.command(), e.getMessage()))
                    : Optional.empty();
        } catch (InspectionException e) {
            return Optional.of(PythonProcessRow.unreadable(entry.pid(), entry.parent(), entry.command(), e.getMessage()));
        }
    }

    /** Whether the process maps a python executable or a libpython: only those are worth attaching to. */
    public static boolean mapsPython(ProcessImage image) throws ProcessImageException {
        for (MemoryMapping mapping : image.mappings()) {
            if (mapping.path().map(PythonProcessFinder::isPythonFile).orElse(false)) {
                return true;
            }
        }
        return false;
    }

    private static boolean looksLikePython(ProcessList.Entry entry) {
        return isPythonFile(entry.command().getFirst());
    }

    private static boolean isPythonFile(String path) {
        Path name = Path.of(path).getFileName();
        String file = name == null ? "" : name.toString();
        return file.startsWith("python") || file.startsWith("libpython");
    }

    /** {@code root} and every process under it. */
    public static Set<Integer> subtree(List<ProcessList.Entry> processes, int root) {
        Map<Integer, List<Integer>> children = new HashMap<>();
        for (ProcessList.Entry entry : processes) {
            children.computeIfAbsent(entry.parent(), p -> new ArrayList<>()).add(entry.pid());
        }
        Set<Integer> tree = new HashSet<>();
        List<Integer> todo = new ArrayList<>(List.of(root));
        while (!todo.isEmpty()) {
            int pid = todo.removeLast();
            if (tree.add(pid)) {
                todo.addAll(children.getOrDefault(pid, List.of()));
            }
        }
        return tree;
    }
}
