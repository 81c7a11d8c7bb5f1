package dev.remora.domain.testing;

import dev.remora.domain.discovery.ElfSections;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.ports.FileBytes;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The statically initialised {@code _Py_DebugOffsets} of the provisioned Debian interpreters, read
 * straight from their {@code .PyRuntime} section on disk.
 */
public final class DebianRuntimeSections {

    static final Path ROOT = Path.of(System.getenv().getOrDefault("REMORA_SID_ROOT", "/var/cache/remora/sid-root"));

    private DebianRuntimeSections() {}

    public static byte[] debugOffsets(String minor) {
        Path exe = ROOT.resolve("usr/bin/python" + minor);
        if (!Files.isRegularFile(exe)) {
            throw new IllegalStateException(exe + " is missing: run scripts/provision-targets.sh");
        }
        try (RandomAccessFile raf = new RandomAccessFile(exe.toFile(), "r")) {
            FileBytes file = new FileBytes() {
                @Override
                public long size() {
                    try {
                        return raf.length();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public int read(long position, byte[] dst, int offset, int length) throws IOException {
                    raf.seek(position);
                    return raf.read(dst, offset, length);
                }

                @Override
                public void close() {}
            };
            ElfSections.Section section = ElfSections.find(file, ".PyRuntime").orElseThrow();
            // A non-PIE-relative address: find the file offset of the section's bytes via the load base.
            long fileOffset = fileOffsetOf(raf, section);
            byte[] raw = new byte[DebugOffsetsDecoder.MAX_STRUCT_SIZE];
            raf.seek(fileOffset);
            raf.readFully(raw);
            return raw;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Maps a load-relative address back to a file offset through the PT_LOAD that covers it. */
    private static long fileOffsetOf(RandomAccessFile raf, ElfSections.Section section) throws IOException {
        byte[] eh = new byte[64];
        raf.seek(0);
        raf.readFully(eh);
        long phoff = le(eh, 0x20, 8);
        int phentsize = (int) le(eh, 0x36, 2);
        int phnum = (int) le(eh, 0x38, 2);
        long base = -1;
        for (int i = 0; i < phnum; i++) {
            byte[] ph = new byte[phentsize];
            raf.seek(phoff + (long) i * phentsize);
            raf.readFully(ph);
            if (le(ph, 0, 4) != 1) {
                continue;
            }
            long offset = le(ph, 0x08, 8), vaddr = le(ph, 0x10, 8), filesz = le(ph, 0x20, 8), align = le(ph, 0x30, 8);
            if (base < 0) {
                base = vaddr - vaddr % align;
            }
            long address = base + section.relativeAddress();
            if (address >= vaddr && address < vaddr + filesz) {
                return offset + (address - vaddr);
            }
        }
        throw new IllegalStateException("section not in any PT_LOAD");
    }

    private static long le(byte[] b, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xFF);
        }
        return v;
    }
}
