package dev.remora.app.jmh;

import dev.remora.domain.memory.LongIntMap;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A copy of the pages a live process's reads touched, served back without the process: the walker's
 * own cost, without system calls, measured over real CPython memory.
 */
public final class CapturedMemory implements RemoteMemory {

    private static final int PAGE = 4096;

    private final RemoteMemory live;
    // Primitive keys: a boxed lookup would put allocations of its own into the walker's figures.
    private final LongIntMap pageIndex = new LongIntMap(256);
    private final List<byte[]> pages = new ArrayList<>();
    private final List<Long> pageAddresses = new ArrayList<>();
    private boolean capturing = true;

    public CapturedMemory(RemoteMemory live) {
        this.live = live;
    }

    /** From now on only captured pages are served. */
    public void freeze() {
        capturing = false;
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        int done = 0;
        while (done < length) {
            long at = address + done;
            long page = at & -PAGE;
            byte[] bytes = page(page, at);
            int in = (int) (at - page);
            int n = Math.min(length - done, PAGE - in);
            System.arraycopy(bytes, in, dst, offset + done, n);
            done += n;
        }
    }

    private byte[] page(long page, long at) throws MemoryAccessException {
        int index = pageIndex.get(page);
        if (index != LongIntMap.ABSENT) {
            return pages.get(index);
        }
        if (!capturing) {
            throw new MemoryAccessException.Unmapped(at);
        }
        byte[] bytes = new byte[PAGE];
        live.read(page, bytes, 0, PAGE);
        pageIndex.put(page, pages.size());
        pages.add(bytes);
        pageAddresses.add(page);
        return bytes;
    }

    /** Writes land in the captured pages only (a frame marker, when the benchmark keeps one). */
    @Override
    public boolean writable() {
        return true;
    }

    @Override
    public void write(long address, byte[] src, int offset, int length) throws MemoryAccessException {
        for (int done = 0; done < length; ) {
            long at = address + done;
            long page = at & -PAGE;
            int in = (int) (at - page);
            int n = Math.min(length - done, PAGE - in);
            System.arraycopy(src, offset + done, page(page, at), in, n);
            done += n;
        }
    }

    @Override
    public String backendName() {
        return "captured";
    }

    /** Each captured page: its address, then its bytes. */
    public void writePages(DataOutputStream out) throws IOException {
        out.writeInt(pages.size());
        for (int i = 0; i < pages.size(); i++) {
            out.writeLong(pageAddresses.get(i));
            out.write(pages.get(i));
        }
    }
}
