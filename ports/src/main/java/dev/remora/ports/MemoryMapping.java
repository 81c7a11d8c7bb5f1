package dev.remora.ports;

import java.util.Optional;

/**
 * One mapping of the target's address space, as /proc/PID/maps or a core's NT_FILE describes it.
 *
 * @param path the file as the target names it, empty for anonymous mappings
 * @param deleted the file was deleted or replaced after it was mapped
 */
public record MemoryMapping(long start, long end, String permissions, long fileOffset,
                            Optional<String> path, boolean deleted) {

    public long size() {
        return end - start;
    }

    public boolean readable() {
        return permissions.startsWith("r");
    }

    public boolean writable() {
        return permissions.length() > 1 && permissions.charAt(1) == 'w';
    }

    public boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
    }
}
