package dev.remora.domain.asyncio;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The statically initialised {@code AsyncioDebug} section of the provisioned Debian interpreters,
 * read from disk: 3.14 keeps it in the {@code _asyncio} extension module, 3.15 in the interpreter.
 */
final class DebianAsyncioSections {

    static final Path ROOT = Path.of(System.getenv().getOrDefault("REMORA_SID_ROOT", "/var/cache/remora/sid-root"));

    private DebianAsyncioSections() {}

    static Path fileOf(String minor) {
        return switch (minor) {
            case "3.14" -> ROOT.resolve("usr/lib/python3.14/lib-dynload/_asyncio.cpython-314-x86_64-linux-gnu.so");
            case "3.15" -> ROOT.resolve("usr/bin/python3.15");
            default -> throw new IllegalArgumentException("no AsyncioDebug section in CPython " + minor);
        };
    }

    static byte[] raw(String minor) {
        Path file = fileOf(minor);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing: run scripts/provision-targets.sh");
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] eh = new byte[64];
            raf.readFully(eh);
            long shoff = le(eh, 0x28, 8);
            int shentsize = (int) le(eh, 0x3A, 2);
            int shnum = (int) le(eh, 0x3C, 2);
            int shstrndx = (int) le(eh, 0x3E, 2);
            byte[] names = section(raf, shoff + (long) shstrndx * shentsize, shentsize);
            for (int i = 0; i < shnum; i++) {
                byte[] sh = new byte[shentsize];
                raf.seek(shoff + (long) i * shentsize);
                raf.readFully(sh);
                if (name(names, (int) le(sh, 0, 4)).equals(AsyncioSection.NAME)) {
                    byte[] raw = new byte[(int) le(sh, 0x20, 8)];
                    raf.seek(le(sh, 0x18, 8));
                    raf.readFully(raw);
                    return raw;
                }
            }
            throw new IllegalStateException("no " + AsyncioSection.NAME + " in " + file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] section(RandomAccessFile raf, long header, int size) throws IOException {
        byte[] sh = new byte[size];
        raf.seek(header);
        raf.readFully(sh);
        byte[] bytes = new byte[(int) le(sh, 0x20, 8)];
        raf.seek(le(sh, 0x18, 8));
        raf.readFully(bytes);
        return bytes;
    }

    private static String name(byte[] names, int at) {
        int end = at;
        while (names[end] != 0) {
            end++;
        }
        return new String(names, at, end - at, StandardCharsets.US_ASCII);
    }

    private static long le(byte[] b, int at, int width) {
        long v = 0;
        for (int i = width - 1; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xFF);
        }
        return v;
    }
}
