package dev.remora.adapters.procmem;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.PtraceAdvice;
import dev.remora.ports.RemoteMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A live Linux process's memory, read from {@code /proc/PID/mem} with positional reads. Slower than
 * {@code process_vm_readv} for many small reads, but works where that call is blocked.
 *
 * <p>The file is opened on the first read, so open failures surface as typed read failures.
 * Thread-safe: positional reads on one channel may run concurrently.
 */
public final class ProcMemMemory implements RemoteMemory {

    private static final String EIO_MESSAGE = "Input/output error";

    private final int pid;
    private final Path memFile;
    private final Object openLock = new Object();
    private volatile FileChannel channel;
    /** Opened only when something asks to write: most users never do. */
    private FileChannel writeChannel;
    /** The process's start time when the file was opened, to tell its exit from pid reuse. */
    private volatile OptionalLong startTime = OptionalLong.empty();
    private volatile boolean closed;

    private ProcMemMemory(int pid) {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive, got " + pid);
        }
        this.pid = pid;
        this.memFile = Procfs.dir(pid).resolve("mem");
    }

    /** Memory of process {@code pid}; does not touch the process until the first read. */
    public static ProcMemMemory open(int pid) {
        return new ProcMemMemory(pid);
    }

    public int pid() {
        return pid;
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        Objects.checkFromIndexSize(offset, length, dst.length);
        if (length == 0) {
            return;
        }
        if (address < 0) {
            // Above Long.MAX_VALUE: kernel space on every Linux target, and no file position reaches it.
            throw new MemoryAccessException.Unmapped(address);
        }
        FileChannel ch = channel(address);
        ByteBuffer buffer = ByteBuffer.wrap(dst, offset, length);
        long position = address;
        while (buffer.hasRemaining()) {
            if (position < 0) {
                throw new MemoryAccessException.Unmapped(position);
            }
            int n;
            try {
                n = ch.read(buffer, position);
            } catch (ClosedChannelException e) {
                throw new IllegalStateException("memory of process " + pid + " is closed", e);
            } catch (IOException e) {
                throw failure("reading", position, e);
            }
            if (n <= 0) {
                // The kernel ends the read early at a hole, and returns nothing once the process is gone.
                throw gone() ? new MemoryAccessException.ProcessGone(position)
                        : new MemoryAccessException.Unmapped(position);
            }
            position += n;
        }
    }

    private MemoryAccessException failure(String what, long position, IOException e) {
        if (gone()) {
            return new MemoryAccessException.ProcessGone(position);
        }
        String message = Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName());
        if (message.contains(EIO_MESSAGE)) {
            return new MemoryAccessException.Unmapped(position);
        }
        return new MemoryAccessException.Unavailable(position,
                "%s %s at 0x%x failed: %s".formatted(what, memFile, position, message));
    }

    /** Whether the process this file was opened for has exited (its pid may already be reused). */
    private boolean gone() {
        return Procfs.stat(pid)
                .map(now -> now.exited() || (startTime.isPresent() && !now.startTime().equals(startTime)))
                .orElse(true);
    }

    private FileChannel channel(long address) throws MemoryAccessException {
        FileChannel ch = channel;
        if (ch != null) {
            return ch;
        }
        synchronized (openLock) {
            if (closed) {
                throw new IllegalStateException("memory of process " + pid + " is closed");
            }
            if (channel == null) {
                startTime = Procfs.stat(pid).map(ProcStat::startTime).orElse(OptionalLong.empty());
                channel = openFile(address, StandardOpenOption.READ);
            }
            return channel;
        }
    }

    private FileChannel openFile(long address, StandardOpenOption mode) throws MemoryAccessException {
        try {
            return FileChannel.open(memFile, mode);
        } catch (NoSuchFileException e) {
            throw new MemoryAccessException.ProcessGone(address);
        } catch (AccessDeniedException e) {
            throw new MemoryAccessException.PermissionDenied(address, PtraceAdvice.message(pid));
        } catch (FileSystemException e) {
            if ("Operation not permitted".equals(e.getReason())) {
                throw new MemoryAccessException.PermissionDenied(address, PtraceAdvice.message(pid));
            }
            throw new MemoryAccessException.Unavailable(address, "cannot open " + memFile + ": " + e.getMessage());
        } catch (IOException e) {
            throw new MemoryAccessException.Unavailable(address, "cannot open " + memFile + ": " + e.getMessage());
        }
    }

    @Override
    public boolean writable() {
        return true;
    }

    @Override
    public void write(long address, byte[] src, int offset, int length) throws MemoryAccessException {
        Objects.checkFromIndexSize(offset, length, src.length);
        if (address < 0) {
            throw new MemoryAccessException.Unmapped(address);
        }
        FileChannel ch;
        synchronized (openLock) {
            if (closed) {
                throw new IllegalStateException("memory of process " + pid + " is closed");
            }
            if (writeChannel == null) {
                writeChannel = openFile(address, StandardOpenOption.WRITE);
            }
            ch = writeChannel;
        }
        ByteBuffer buffer = ByteBuffer.wrap(src, offset, length);
        try {
            while (buffer.hasRemaining()) {
                if (ch.write(buffer, address + buffer.position() - offset) <= 0) {
                    throw new MemoryAccessException.Unmapped(address);
                }
            }
        } catch (IOException e) {
            throw failure("writing", address, e);
        }
    }

    @Override
    public String backendName() {
        return "procmem";
    }

    @Override
    public void close() {
        synchronized (openLock) {
            closed = true;
            for (FileChannel ch : new FileChannel[] {channel, writeChannel}) {
                if (ch != null) {
                    try {
                        ch.close();
                    } catch (IOException e) {
                        // Nothing buffered: writes go straight to the target.
                    }
                }
            }
        }
    }
}
