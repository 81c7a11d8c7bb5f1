package dev.remora.domain.discovery;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds {@code _PyRuntime} in a target: the {@code .PyRuntime} section of each mapped file whose name
 * contains "python" (the executable of a static build, libpython of a shared one), placed at every
 * load of that file and confirmed by the debug cookie (3.13+). A deleted or unreadable file falls
 * back to scanning its writable mapping for the cookie. A runtime without the cookie (3.11, 3.12)
 * is named by the file's exported {@code Py_Version} (3.8 to 3.10: the version text in memory),
 * laid out by that version's generated table, and checked against the live target before it is
 * trusted. 3.8 and 3.9 have no {@code .PyRuntime} section: their exported {@code _PyRuntime} places it.
 */
public final class RuntimeLocator {

    /** The runtime found, with its decoded debug offsets. */
    public record LocatedRuntime(long address, String file, DebugOffsets offsets) {}

    private static final String SECTION = ".PyRuntime";
    private static final String VERSION_SYMBOL = "Py_Version";
    private static final String RUNTIME_SYMBOL = "_PyRuntime";
    private static final Pattern VERSIONED_NAME = Pattern.compile("python(\\d+)\\.(\\d+)");
    private static final int SCAN_CHUNK = 1 << 20;
    private static final long MAX_SCAN = 256L << 20;

    private final ProcessImage image;
    private final RemoteMemory memory;
    private final MappedSections sections;

    public RuntimeLocator(ProcessImage image, RemoteMemory memory) {
        this.image = image;
        this.memory = memory;
        this.sections = new MappedSections(image);
    }

    public LocatedRuntime locate() throws InspectionException {
        List<MemoryMapping> mappings;
        try {
            mappings = image.mappings();
        } catch (ProcessImageException e) {
            throw Failures.from(e);
        }
        List<Candidate> candidates = new ArrayList<>();
        Set<String> files = MappedSections.files(mappings, name -> name.contains("python"));
        for (String path : files) {
            candidates.addAll(candidatesIn(path, mappings));
        }
        if (candidates.isEmpty()) {
            throw noRuntime(files);
        }
        return choose(candidates);
    }

    /** The CPython 3 version a file's name says it is ("3.7" for python3.7, libpython3.7m.so), where Remora does not support it. */
    private static Optional<String> unsupportedByName(String path) {
        Matcher m = VERSIONED_NAME.matcher(MappedSections.basename(path));
        return m.find() && Integer.parseInt(m.group(1)) == 3 && !VersionLayout.isSupported(3, Integer.parseInt(m.group(2)))
                ? Optional.of(m.group(1) + "." + m.group(2)) : Optional.empty();
    }

    /** Names an older CPython by its file name when it has no version to read. */
    private InspectionException noRuntime(Set<String> files) {
        for (String f : files) {
            Optional<String> version = unsupportedByName(f);
            if (version.isPresent()) {
                return new InspectionException.UnsupportedVersion(
                        "process %d runs CPython %s (%s), which is not supported (supported: %s)".formatted(
                                image.pid(), version.get(), f, VersionLayout.supportedVersions()));
            }
        }
        return new InspectionException.NotPython(
                "process %d is not a CPython process: no mapped python binary or libpython has a %s section with debug offsets or a Py_Version"
                        .formatted(image.pid(), SECTION));
    }

    /** A runtime with debug offsets ({@code raw}), or one named by its file's {@code Py_Version}. */
    private record Candidate(long address, String file, byte[] raw, PythonVersion version) {

        DebugOffsets offsets() throws InspectionException {
            return raw != null ? DebugOffsetsDecoder.decode(raw) : DebugOffsetsDecoder.fromHeaders(version);
        }
    }

    private List<Candidate> candidatesIn(String path, List<MemoryMapping> mappings) throws InspectionException {
        List<MemoryMapping> ofFile = mappings.stream().filter(m -> m.path().filter(path::equals).isPresent()).toList();
        // A deleted file is still reachable through its mapping, where the backend can open that.
        Optional<ElfSections.Section> section = sections.sectionOf(path, SECTION);
        List<Candidate> found = new ArrayList<>();
        if (section.isPresent()) {
            found.addAll(placed(section.get().relativeAddress(), path, ofFile));
        } else {
            // 3.8 and 3.9 keep the runtime among their other data, named by its exported symbol. An older
            // version has one too: it is named by its file's name instead (noRuntime), with what is supported.
            Optional<Long> symbol = unsupportedByName(path).isPresent() ? Optional.empty() : sections.symbolOf(path, RUNTIME_SYMBOL);
            if (symbol.isPresent()) {
                found.addAll(placed(symbol.get(), path, ofFile));
            }
        }
        // No file to read the section from (deleted, or not on this machine for a core): find the cookie.
        if (found.isEmpty()) {
            for (MemoryMapping m : ofFile) {
                if (m.readable() && m.writable()) {
                    found.addAll(scanForCookie(m, path));
                }
            }
        }
        return found;
    }

    /**
     * The runtime at {@code relativeAddress} (its section, or its symbol) in every load of the file: with
     * the debug cookie, or named by Py_Version or the version text.
     */
    private List<Candidate> placed(long relativeAddress, String path, List<MemoryMapping> ofFile)
            throws InspectionException {
        List<Candidate> found = new ArrayList<>();
        Optional<Long> versionSymbol = Optional.empty();
        for (MemoryMapping m : ofFile) {
            if (m.fileOffset() != 0) {
                continue;
            }
            long address = m.start() + relativeAddress;
            Optional<Candidate> withCookie = readCandidate(address, path);
            if (withCookie.isPresent()) {
                found.add(withCookie.get());
                continue;
            }
            versionSymbol = versionSymbol.isPresent() ? versionSymbol : sections.symbolOf(path, VERSION_SYMBOL);
            Optional<PythonVersion> version = versionSymbol.isPresent() ? readVersion(m.start() + versionSymbol.get())
                    : versionText(path, m.start());
            version.ifPresent(v -> found.add(new Candidate(address, path, null, v)));
        }
        return found;
    }

    private Optional<Candidate> readCandidate(long address, String path) throws InspectionException {
        byte[] raw = new byte[DebugOffsetsDecoder.MAX_STRUCT_SIZE];
        try {
            memory.read(address, raw, 0, raw.length);
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return Optional.empty();
        } catch (MemoryAccessException e) {
            throw Failures.from(e, image.pid());
        }
        return DebugOffsetsDecoder.hasCookie(raw) ? Optional.of(new Candidate(address, path, raw, null)) : Optional.empty();
    }

    /**
     * 3.8 to 3.10 export no {@code Py_Version}: the file name gives the minor version, and the text of
     * {@code sys.version}, formatted at start into a buffer in {@code .bss}, the release.
     */
    private Optional<PythonVersion> versionText(String path, long loadBase) throws InspectionException {
        Matcher name = VERSIONED_NAME.matcher(MappedSections.basename(path));
        Optional<ElfSections.Section> bss = sections.sectionOf(path, ".bss");
        if (bss.isEmpty()) {
            return Optional.empty();
        }
        // A file renamed without its version (a copy, a deleted binary's stand-in) still has the text,
        // "3.9.2 (default, Feb 28 2021, 17:03:44) \n[GCC 10.2.1 20210110]": then the whole of it must match.
        Pattern release = name.find()
                ? Pattern.compile("(" + name.group(1) + ")\\.(" + name.group(2) + ")\\.(\\d{1,3}) \\(")
                : Pattern.compile("(3)\\.(\\d{1,2})\\.(\\d{1,3})[a-z0-9+]* \\([^()\\n]{1,160}\\) ?\\n?\\[");
        List<PythonVersion> found = new ArrayList<>(1);
        // Chunks overlap a little, so that a version text cut by a chunk's end is whole in the next.
        scan(loadBase + bss.get().relativeAddress(), bss.get().size(), 256, (at, chunk, length) -> {
            Matcher m = release.matcher(new String(chunk, 0, length, java.nio.charset.StandardCharsets.ISO_8859_1));
            if (m.find()) {
                found.add(new PythonVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)), 0xF, 0));
            }
            return !found.isEmpty();
        });
        return found.stream().findFirst();
    }

    /** Receives the chunks of a scan; returns whether the scan is done. */
    private interface Chunks {
        boolean visit(long address, byte[] chunk, int length) throws InspectionException;
    }

    /** Reads {@code [start, start + length)} (at most MAX_SCAN) chunk by chunk, skipping what is not there. */
    private void scan(long start, long length, int overlap, Chunks visitor) throws InspectionException {
        byte[] chunk = new byte[SCAN_CHUNK];
        long end = start + Math.min(length, MAX_SCAN);
        for (long at = start; at < end; at += SCAN_CHUNK - overlap) {
            int n = (int) Math.min(SCAN_CHUNK, end - at);
            try {
                memory.read(at, chunk, 0, n);
            } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                continue;
            } catch (MemoryAccessException e) {
                throw Failures.from(e, image.pid());
            }
            if (visitor.visit(at, chunk, n)) {
                return;
            }
        }
    }

    /** {@code Py_Version}: {@code PY_VERSION_HEX} as an exported constant (3.11+). */
    private Optional<PythonVersion> readVersion(long address) throws InspectionException {
        byte[] b = new byte[4];
        try {
            memory.read(address, b, 0, 4);
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return Optional.empty();
        } catch (MemoryAccessException e) {
            throw Failures.from(e, image.pid());
        }
        PythonVersion version = PythonVersion.fromHex(Integer.toUnsignedLong(dev.remora.domain.memory.Bytes.getInt(b, 0)));
        return version.major() == 3 ? Optional.of(version) : Optional.empty();
    }

    /** Looks for the cookie at 8-byte aligned positions of a writable mapping. */
    private List<Candidate> scanForCookie(MemoryMapping m, String path) throws InspectionException {
        List<Candidate> found = new ArrayList<>();
        scan(m.start(), m.size(), 0, (at, chunk, length) -> {
            for (int i = 0; i + 8 <= length; i += 8) {
                if (chunk[i] == 'x' && chunk[i + 1] == 'd' && chunk[i + 2] == 'e' && chunk[i + 3] == 'b'
                        && chunk[i + 4] == 'u' && chunk[i + 5] == 'g' && chunk[i + 6] == 'p' && chunk[i + 7] == 'y') {
                    readCandidate(at + i, path).ifPresent(found::add);
                }
            }
            return false;
        });
        return found;
    }

    /**
     * Prefers a runtime that has interpreters: a libpython that ctypes loaded a second time carries a
     * cookie too, but was never initialised.
     */
    private LocatedRuntime choose(List<Candidate> candidates) throws InspectionException {
        InspectionException firstFailure = null;
        LocatedRuntime uninitialised = null;
        for (Candidate c : candidates) {
            DebugOffsets offsets;
            try {
                offsets = c.offsets();
            } catch (InspectionException e) {
                firstFailure = firstFailure == null ? e : firstFailure;
                continue;
            }
            LocatedRuntime located = new LocatedRuntime(c.address(), c.file(), offsets);
            long head = interpretersHead(located);
            if (head != 0) {
                if (c.raw() == null) {
                    new LayoutCheck(memory, image.pid(), offsets).check(head);
                }
                return located;
            }
            uninitialised = uninitialised == null ? located : uninitialised;
        }
        if (uninitialised != null) {
            return uninitialised;
        }
        throw firstFailure;
    }

    private long interpretersHead(LocatedRuntime r) throws InspectionException {
        byte[] b = new byte[8];
        try {
            memory.read(r.address() + r.offsets().runtime().interpretersHead(), b, 0, 8);
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return 0;
        } catch (MemoryAccessException e) {
            throw Failures.from(e, image.pid());
        }
        return dev.remora.domain.memory.Bytes.getLong(b, 0);
    }

}
