package dev.remora.domain.memory;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads the target through a cache of whole pages that lives for one snapshot. Frames, thread states
 * and small objects cluster on few pages, so a walk costs a handful of remote reads. {@link #reset()}
 * between snapshots: the target keeps running and the cache must never serve old bytes to a new walk.
 */
public final class PagedReader {

    private static final int PAGE = 4096;
    private static final long PAGE_MASK = ~(long) (PAGE - 1);
    /** Bounds the cache so a garbage pointer chase cannot grow it without limit. */
    private static final int MAX_PAGES = 4096;

    private final RemoteMemory memory;
    private final Map<Long, byte[]> pages = new HashMap<>();
    private final byte[] scratch = new byte[8];
    private long remoteReads;
    private long remoteBytes;

    public PagedReader(RemoteMemory memory) {
        this.memory = memory;
    }

    public void reset() {
        pages.clear();
    }

    public RemoteMemory memory() {
        return memory;
    }

    /** Remote reads issued since this reader was made. */
    public long remoteReads() {
        return remoteReads;
    }

    /** Bytes those reads asked for. */
    public long remoteBytes() {
        return remoteBytes;
    }

    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        long page = address & PAGE_MASK;
        int inPage = (int) (address - page);
        if (inPage + length <= PAGE) {
            byte[] cached = page(page);
            if (cached != null) {
                System.arraycopy(cached, inPage, dst, offset, length);
                return;
            }
        }
        remoteReads++;
        remoteBytes += length;
        memory.read(address, dst, offset, length);
    }

    public long readLong(long address) throws MemoryAccessException {
        read(address, scratch, 0, 8);
        return Bytes.getLong(scratch, 0);
    }

    public int readInt(long address) throws MemoryAccessException {
        read(address, scratch, 0, 4);
        return Bytes.getInt(scratch, 0);
    }

    /** The page at {@code page}, fetched once; null when it cannot be read whole (the caller reads exactly). */
    private byte[] page(long page) {
        byte[] cached = pages.get(page);
        if (cached != null || pages.containsKey(page)) {
            return cached;
        }
        if (pages.size() >= MAX_PAGES) {
            return null;
        }
        byte[] fresh = new byte[PAGE];
        remoteReads++;
        remoteBytes += PAGE;
        try {
            memory.read(page, fresh, 0, PAGE);
        } catch (MemoryAccessException e) {
            fresh = null;
        }
        pages.put(page, fresh);
        return fresh;
    }
}
