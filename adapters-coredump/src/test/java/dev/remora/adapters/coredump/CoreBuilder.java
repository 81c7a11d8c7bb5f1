package dev.remora.adapters.coredump;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small x86-64 ELF cores the way the kernel lays them out: header, program headers, one note
 * segment, then the segments' bytes. Fields can be overridden to make broken cores.
 */
final class CoreBuilder {

    private record Load(long address, byte[] data, long memorySize, int flags) {}

    private record FileEntry(long start, long end, long pageOffset, String path) {}

    private final List<Load> loads = new ArrayList<>();
    private final List<byte[]> notes = new ArrayList<>();
    private final List<FileEntry> files = new ArrayList<>();
    private long pageSize = 4096;
    private int elfClass = 2;
    private int dataEncoding = 1;
    private int type = 4;
    private int machine = 62;

    /** A PT_LOAD of {@code data} at {@code address}, {@code memorySize} long in memory; flags as "rwx". */
    CoreBuilder load(long address, byte[] data, long memorySize, String rwx) {
        int flags = (rwx.contains("r") ? 4 : 0) | (rwx.contains("w") ? 2 : 0) | (rwx.contains("x") ? 1 : 0);
        loads.add(new Load(address, data, memorySize, flags));
        return this;
    }

    CoreBuilder prstatus(int tid) {
        ByteBuffer desc = little(336);
        desc.putInt(32, tid);
        return note("CORE", 1, desc.array());
    }

    /** An NT_PRSTATUS with the signal the thread took and its registers ({@code user_regs_struct}, 27 words). */
    CoreBuilder prstatus(int tid, int cursig, long[] userRegs) {
        ByteBuffer desc = little(336);
        desc.putShort(12, (short) cursig);
        desc.putInt(32, tid);
        for (int i = 0; i < userRegs.length; i++) {
            desc.putLong(112 + i * 8, userRegs[i]);
        }
        return note("CORE", 1, desc.array());
    }

    /** An NT_SIGINFO: the signal number and the faulting address. */
    CoreBuilder siginfo(int signal, long address) {
        ByteBuffer desc = little(128);
        desc.putInt(0, signal);
        desc.putLong(16, address);
        return note("CORE", 0x53494749, desc.array());
    }

    CoreBuilder prpsinfo(int pid, String comm) {
        ByteBuffer desc = little(136);
        desc.putInt(24, pid);
        byte[] name = comm.getBytes(StandardCharsets.UTF_8);
        desc.put(40, name, 0, Math.min(name.length, 16));
        return note("CORE", 3, desc.array());
    }

    /** An NT_FILE entry; {@code pageOffset} counts in {@link #pageSize(long)} units. */
    CoreBuilder file(long start, long end, long pageOffset, String path) {
        files.add(new FileEntry(start, end, pageOffset, path));
        return this;
    }

    CoreBuilder pageSize(long pageSize) {
        this.pageSize = pageSize;
        return this;
    }

    CoreBuilder note(String owner, int type, byte[] desc) {
        byte[] name = (owner + "\0").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer n = little(12 + align4(name.length) + align4(desc.length));
        n.putInt(name.length).putInt(desc.length).putInt(type);
        n.put(name).position(12 + align4(name.length));
        n.put(desc);
        notes.add(n.array());
        return this;
    }

    CoreBuilder ident(int elfClass, int dataEncoding) {
        this.elfClass = elfClass;
        this.dataEncoding = dataEncoding;
        return this;
    }

    CoreBuilder type(int type) {
        this.type = type;
        return this;
    }

    CoreBuilder machine(int machine) {
        this.machine = machine;
        return this;
    }

    byte[] build() {
        if (!files.isEmpty()) {
            note("CORE", 0x46494c45, fileNote());
        }
        ByteArrayOutputStream noteBytes = new ByteArrayOutputStream();
        notes.forEach(noteBytes::writeBytes);
        int phnum = 1 + loads.size();
        long notesAt = 64 + 56L * phnum;
        long dataAt = notesAt + noteBytes.size();
        ByteBuffer header = little((int) notesAt);
        header.put(new byte[] {0x7f, 'E', 'L', 'F', (byte) elfClass, (byte) dataEncoding, 1});
        header.putShort(16, (short) type).putShort(18, (short) machine).putInt(20, 1)
                .putLong(32, 64).putShort(52, (short) 64).putShort(54, (short) 56).putShort(56, (short) phnum);
        int at = 64;
        header.putInt(at, 4).putInt(at + 4, 4).putLong(at + 8, notesAt).putLong(at + 32, noteBytes.size()).putLong(at + 48, 4);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (Load l : loads) {
            at += 56;
            header.putInt(at, 1).putInt(at + 4, l.flags()).putLong(at + 8, dataAt + data.size()).putLong(at + 16, l.address())
                    .putLong(at + 32, l.data().length).putLong(at + 40, l.memorySize()).putLong(at + 48, 4096);
            data.writeBytes(l.data());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header.array());
        out.writeBytes(noteBytes.toByteArray());
        out.writeBytes(data.toByteArray());
        return out.toByteArray();
    }

    private byte[] fileNote() {
        ByteArrayOutputStream names = new ByteArrayOutputStream();
        files.forEach(f -> names.writeBytes((f.path() + "\0").getBytes(StandardCharsets.UTF_8)));
        ByteBuffer desc = little(16 + 24 * files.size() + names.size());
        desc.putLong(files.size()).putLong(pageSize);
        files.forEach(f -> desc.putLong(f.start()).putLong(f.end()).putLong(f.pageOffset()));
        desc.put(names.toByteArray());
        return desc.array();
    }

    static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    private static ByteBuffer little(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static int align4(int n) {
        return (n + 3) & ~3;
    }
}
