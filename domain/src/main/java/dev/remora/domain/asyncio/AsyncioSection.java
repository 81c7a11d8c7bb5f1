package dev.remora.domain.asyncio;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.discovery.MappedSections;
import dev.remora.domain.discovery.MappedSections.MappedSection;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.RemoteMemory;

import java.util.Optional;

/**
 * Finds asyncio's {@code AsyncioDebug} section in a target: in the {@code _asyncio} extension module
 * (loaded only once asyncio is imported) or built into the interpreter or libpython (Debian's 3.15),
 * where it is mapped whether or not asyncio was ever imported. The section has no cookie: the first
 * copy that reads and validates wins (every copy of one build holds the same constants).
 */
final class AsyncioSection {

    static final String NAME = ".AsyncioDebug";
    private static final String MODULE = "_asyncio";

    /** @param inModule found in the {@code _asyncio} module itself, which proves it was imported */
    record Found(AsyncioOffsets offsets, String file, boolean inModule) {}

    private AsyncioSection() {}

    static Optional<Found> find(ProcessImage image, RemoteMemory memory, DebugOffsets offsets) throws InspectionException {
        InspectionException.CorruptTarget invalid = null;
        for (MappedSection s : new MappedSections(image).find(NAME, AsyncioSection::mayHoldSection)) {
            if (s.size() < AsyncioOffsets.SIZE) {
                continue;
            }
            byte[] raw = new byte[AsyncioOffsets.SIZE];
            try {
                memory.read(s.address(), raw, 0, raw.length);
            } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                continue;
            } catch (MemoryAccessException e) {
                throw Failures.from(e, image.pid());
            }
            try {
                return Optional.of(new Found(AsyncioOffsets.decode(raw, offsets), s.file(),
                        MappedSections.basename(s.file()).contains(MODULE)));
            } catch (InspectionException.CorruptTarget e) {
                invalid = invalid == null ? e : invalid;
            }
        }
        if (invalid != null) {
            throw invalid;
        }
        return Optional.empty();
    }

    /** Where CPython itself looks ("python" in the name), and the module under any name. */
    private static boolean mayHoldSection(String baseName) {
        return baseName.contains("python") || baseName.contains(MODULE);
    }
}
