package dev.remora.ports.testing;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A target's address space written by a test, with the races a running target makes scripted in:
 * a change made between two ranges of one batched read (as a thread runs on while the kernel copies
 * the ranges in order), or before a later read; pages that go away; writes that are refused. Pages
 * exist once written to (zero-filled) or {@link #map mapped}; a read touching any other byte fails as
 * unmapped. Live by default; a {@link #core} never changes between reads, as a core file's memory.
 */
public final class ScriptedMemory implements RemoteMemory {

    public static final int PAGE = 4096;

    /** A write the reader made into the target. */
    public record Write(long address, byte[] bytes) {}

    private final Map<Long, byte[]> pages = new HashMap<>();
    private final boolean changes;
    private final List<Write> writes = new ArrayList<>();
    private Writes writePolicy = Writes.NOT_SUPPORTED;
    private Runnable afterRange;
    private int changeAfterRange = -1;
    private Runnable beforeRead;
    private long readOf;
    private Runnable beforeNth;
    private int readsBeforeNth;
    private int reads;
    private int batchedReads;
    private long zeroFilledBelow;

    private enum Writes { NOT_SUPPORTED, ACCEPTED, REFUSED }

    private ScriptedMemory(boolean changes) {
        this.changes = changes;
    }

    /** The memory of a running target. */
    public static ScriptedMemory live() {
        return new ScriptedMemory(true);
    }

    /** The memory of a core file: readers read it once, it never changes under them. */
    public static ScriptedMemory core() {
        return new ScriptedMemory(false);
    }

    /** Lets the reader write into the target (as a frame marker does), recording each write. */
    public ScriptedMemory acceptWrites() {
        writePolicy = Writes.ACCEPTED;
        return this;
    }

    /** The reader may write, but each write fails as a target that unmapped the page would make it. */
    public ScriptedMemory refuseWrites() {
        writePolicy = Writes.REFUSED;
        return this;
    }

    /** Makes every address below {@code limit} readable: a page never written reads as zeros. */
    public ScriptedMemory zeroFilledBelow(long limit) {
        zeroFilledBelow = limit;
        return this;
    }

    /** Makes zero-filled pages cover {@code [address, address + length)}. */
    public ScriptedMemory map(long address, long length) {
        for (long page = address / PAGE; page <= (address + length - 1) / PAGE; page++) {
            pages.computeIfAbsent(page, p -> new byte[PAGE]);
        }
        return this;
    }

    /** Drops the pages that cover {@code [address, address + length)}: reads of them fail from now on. */
    public ScriptedMemory unmap(long address, long length) {
        for (long page = address / PAGE; page <= (address + length - 1) / PAGE; page++) {
            pages.remove(page);
        }
        return this;
    }

    public ScriptedMemory putLong(long address, long value) {
        for (int i = 0; i < 8; i++) {
            putByte(address + i, (int) (value >>> (8 * i)));
        }
        return this;
    }

    public ScriptedMemory putInt(long address, int value) {
        for (int i = 0; i < 4; i++) {
            putByte(address + i, value >>> (8 * i));
        }
        return this;
    }

    public ScriptedMemory putByte(long address, int value) {
        pages.computeIfAbsent(address / PAGE, p -> new byte[PAGE])[(int) (address % PAGE)] = (byte) value;
        return this;
    }

    public ScriptedMemory putBytes(long address, byte[] bytes) {
        if (address % PAGE == 0 && bytes.length == PAGE) {
            pages.put(address / PAGE, bytes.clone());
            return this;
        }
        for (int i = 0; i < bytes.length; i++) {
            putByte(address + i, bytes[i]);
        }
        return this;
    }

    /** What the target holds at {@code address} now (an unmapped byte reads as 0). */
    public long getLong(long address) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            byte[] page = pages.get((address + i) / PAGE);
            value |= (page == null ? 0L : page[(int) ((address + i) % PAGE)] & 0xFFL) << (8 * i);
        }
        return value;
    }

    /**
     * Makes {@code change} once, in the next batched read of more than {@code range} ranges, right
     * after range {@code range} (from 0) was copied: the ranges after it see the change.
     */
    public ScriptedMemory afterRange(int range, Runnable change) {
        changeAfterRange = range;
        afterRange = change;
        return this;
    }

    /**
     * Makes {@code change} once, just before the first read of a range that holds {@code address}
     * (a range of a batched read included): that read sees the change.
     */
    public ScriptedMemory beforeReadOf(long address, Runnable change) {
        readOf = address;
        beforeRead = change;
        return this;
    }

    /** Makes {@code change} once, just before the {@code n}-th read from now (1: the next), batched or not. */
    public ScriptedMemory beforeRead(int n, Runnable change) {
        readsBeforeNth = n;
        beforeNth = change;
        return this;
    }

    /** Reads so far, a batched read counting once. */
    public int reads() {
        return reads;
    }

    /** Batched reads so far. */
    public int batchedReads() {
        return batchedReads;
    }

    /** The writes the reader made, in order (refused ones included). */
    public List<Write> writes() {
        return List.copyOf(writes);
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        countRead();
        copy(address, dst, offset, length);
    }

    @Override
    public int readPrefix(long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int count) {
        countRead();
        batchedReads++;
        for (int i = 0; i < count; i++) {
            try {
                copy(addresses[i], dst, dstOffsets[i], lengths[i]);
            } catch (MemoryAccessException e) {
                return i;
            }
            if (i == changeAfterRange && afterRange != null) {
                Runnable change = afterRange;
                afterRange = null;
                changeAfterRange = -1;
                change.run();
            }
        }
        return count;
    }

    @Override
    public boolean changes() {
        return changes;
    }

    @Override
    public boolean writable() {
        return writePolicy != Writes.NOT_SUPPORTED;
    }

    @Override
    public void write(long address, byte[] src, int offset, int length) throws MemoryAccessException {
        if (writePolicy == Writes.NOT_SUPPORTED) {
            throw new UnsupportedOperationException("scripted memory takes no writes unless asked to");
        }
        writes.add(new Write(address, Arrays.copyOfRange(src, offset, offset + length)));
        if (writePolicy == Writes.REFUSED) {
            throw new MemoryAccessException.Unmapped(address);
        }
        putBytes(address, Arrays.copyOfRange(src, offset, offset + length));
    }

    @Override
    public String backendName() {
        return "scripted";
    }

    private void countRead() {
        reads++;
        if (beforeNth != null && --readsBeforeNth <= 0) {
            Runnable change = beforeNth;
            beforeNth = null;
            change.run();
        }
    }

    private void copy(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        if (beforeRead != null && readOf - address >= 0 && readOf - address < length) {
            Runnable change = beforeRead;
            beforeRead = null;
            change.run();
        }
        for (int i = 0; i < length; i++) {
            long at = address + i;
            byte[] page = pages.get(Long.divideUnsigned(at, PAGE));
            if (page != null && at >= 0) {
                dst[offset + i] = page[(int) (at % PAGE)];
            } else if (at >= 0 && at < zeroFilledBelow) {
                dst[offset + i] = 0;
            } else {
                throw new MemoryAccessException.Unmapped(at);
            }
        }
    }
}
