package dev.remora.domain.locals;

import dev.remora.domain.memory.Bytes;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

/**
 * The target's memory as objects are read from it: straight through the port, since a dump's
 * variables are read once and must not feed the sampler's batched reads.
 */
final class ObjectMemory {

    /** No object field read here is longer: a larger request is garbage. */
    static final int MAX_READ = 1 << 20;

    private final RemoteMemory memory;
    private final byte[] word = new byte[8];

    ObjectMemory(RemoteMemory memory) {
        this.memory = memory;
    }

    long word(long address) throws MemoryAccessException {
        memory.read(address, word, 0, 8);
        return Bytes.getLong(word, 0);
    }

    int int32(long address) throws MemoryAccessException {
        memory.read(address, word, 0, 4);
        return Bytes.getInt(word, 0);
    }

    int u8(long address) throws MemoryAccessException {
        memory.read(address, word, 0, 1);
        return word[0] & 0xff;
    }

    byte[] bytes(long address, int length) throws MemoryAccessException, BadObject {
        if (length < 0 || length > MAX_READ) {
            throw new BadObject("a read of %d bytes at 0x%x".formatted(length, address));
        }
        byte[] out = new byte[length];
        memory.read(address, out, 0, length);
        return out;
    }

    /** {@code count} pointers from {@code address}. */
    long[] words(long address, int count) throws MemoryAccessException, BadObject {
        if (count < 0 || count > MAX_READ / 8) {
            throw new BadObject("a read of %d pointers at 0x%x".formatted(count, address));
        }
        byte[] raw = bytes(address, count * 8);
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = Bytes.getLong(raw, i * 8);
        }
        return out;
    }

    /** A NUL-terminated C string of at most {@code max} bytes, read in chunks so that it may end just before a page that is not mapped. */
    String cString(long address, int max) throws MemoryAccessException, BadObject {
        StringBuilder text = new StringBuilder();
        byte[] chunk = new byte[16];
        // Chunks end on 16-byte boundaries, so none reaches into a page the string does not.
        for (long at = address; at - address < max; ) {
            int length = (int) (16 - (at & 15));
            memory.read(at, chunk, 0, length);
            for (int i = 0; i < length; i++) {
                if (chunk[i] == 0) {
                    return text.toString();
                }
                text.append((char) (chunk[i] & 0xff));
            }
            at += length;
        }
        throw new BadObject("a C string at 0x%x longer than %d bytes".formatted(address, max));
    }

    /** What read from the target is not the object it should be. */
    static final class BadObject extends Exception {
        BadObject(String message) {
            super(message, null, false, false);
        }
    }
}
