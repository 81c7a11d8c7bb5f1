package dev.remora.adapters.coredump;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every kind of bad core fails with its own typed exception and a one-line message naming the file. */
class CoreFileErrorsTest {

    /** Offsets into a core built by {@link CoreBuilder} with one PT_LOAD: the note segment follows the headers. */
    private static final int PHDRS = 64;
    private static final int NOTES = 64 + 2 * 56;

    @TempDir
    Path dir;

    @Test
    void missingEmptyAndDirectory() throws IOException {
        assertFails(dir.resolve("nope"), CoreFileException.Unreadable.class, "cannot read core %s: no such file");
        assertFails(write(new byte[0]), CoreFileException.NotElf.class, "%s is empty, not a core file");
        assertFails(dir, CoreFileException.Unreadable.class, "%s is not a regular file");
    }

    @Test
    void notElf() throws IOException {
        assertFails(write("#!/bin/sh\necho hi\n".getBytes()), CoreFileException.NotElf.class,
                "%s is not a core file: it does not start with the ELF magic");
        assertFails(write(new byte[] {0x7f, 'E'}), CoreFileException.NotElf.class, "%s is not a core file");
    }

    @Test
    void otherKindsOfElf() throws IOException {
        assertFails(write(valid().ident(1, 1).build()), CoreFileException.Unsupported.class,
                "%s is a 32-bit ELF file; only 64-bit x86-64 cores are supported");
        assertFails(write(valid().ident(2, 2).build()), CoreFileException.Unsupported.class,
                "%s is a big-endian ELF file");
        assertFails(write(valid().type(3).build()), CoreFileException.NotCore.class,
                "%s is not a core file: it is an ELF shared object or executable (ET_DYN)");
        assertFails(write(valid().type(2).build()), CoreFileException.NotCore.class, "%s is not a core file: it is an ELF executable");
        assertFails(write(valid().machine(183).build()), CoreFileException.Unsupported.class,
                "%s is a core of another machine (AArch64)");
    }

    @Test
    void truncatedAnywhere() throws IOException {
        byte[] core = valid().build();
        assertFails(write(Arrays.copyOf(core, 40)), CoreFileException.Truncated.class, "%s is truncated: the ELF header");
        assertFails(write(Arrays.copyOf(core, 100)), CoreFileException.Truncated.class, "%s is truncated: the program header table");
        assertFails(write(Arrays.copyOf(core, NOTES + 8)), CoreFileException.Truncated.class, "%s is truncated: a note segment");
        assertFails(write(Arrays.copyOf(core, core.length - 1)), CoreFileException.Truncated.class,
                "%s is truncated: the segment at 0x10000");
    }

    @Test
    void notesThatClaimMoreThanTheirSegment() throws IOException {
        byte[] core = valid().build();
        put32(core, NOTES + 4, 1 << 20); // descsz of the first note
        assertFails(write(core), CoreFileException.Corrupt.class, "%s is corrupt: the note at offset " + NOTES);
    }

    @Test
    void badFileNotes() throws IOException {
        byte[] count = fileNote(b -> b.putLong(0, 1000));
        assertFails(write(count), CoreFileException.Corrupt.class, "%s is corrupt: its NT_FILE note lists 1000 files but has room for at most 1");
        byte[] pageSize = fileNote(b -> b.putLong(8, 3));
        assertFails(write(pageSize), CoreFileException.Corrupt.class, "%s is corrupt: its NT_FILE note has a page size of 3");
        byte[] reversed = fileNote(b -> b.putLong(16, 0x20000));
        assertFails(write(reversed), CoreFileException.Corrupt.class, "%s is corrupt: NT_FILE entry 0 maps 0x20000-0x11000");
        byte[] offset = fileNote(b -> b.putLong(32, Long.MAX_VALUE / 2));
        assertFails(write(offset), CoreFileException.Corrupt.class, "%s is corrupt: NT_FILE entry 0 has a file offset of");
        byte[] unterminated = fileNote(b -> b.put(b.capacity() - 4, (byte) 'x').put(b.capacity() - 3, (byte) 'x')
                .put(b.capacity() - 2, (byte) 'x').put(b.capacity() - 1, (byte) 'x'));
        assertFails(write(unterminated), CoreFileException.Corrupt.class, "%s is corrupt: NT_FILE path 1 of 1 has no end");
    }

    @Test
    void overlappingOrImpossibleSegments() throws IOException {
        assertFails(write(new CoreBuilder().prstatus(1).load(0x10000, new byte[8], 0x2000, "r").load(0x11000, new byte[8], 0x1000, "r").build()),
                CoreFileException.Corrupt.class, "%s is corrupt: segments overlap at 0x11000");
        assertFails(write(new CoreBuilder().prstatus(1).load(0x10000, new byte[32], 16, "r").build()),
                CoreFileException.Corrupt.class, "%s is corrupt: the segment at 0x10000 holds more bytes in the file than in memory");
        assertFails(write(new CoreBuilder().prstatus(1).load(0xfffffffffffff000L, new byte[8], 0x2000, "r").build()),
                CoreFileException.Corrupt.class, "runs past the end of the address space");
        assertFails(write(new CoreBuilder().prstatus(1).file(0x10000, 0x12000, 0, "/a").file(0x11000, 0x13000, 0, "/b").build()),
                CoreFileException.Corrupt.class, "%s is corrupt: NT_FILE mappings overlap at 0x11000");
    }

    @Test
    void aCoreThatNamesNoProcess() throws IOException {
        assertFails(write(new CoreBuilder().load(0x10000, new byte[8], 0x1000, "r").build()), CoreFileException.Corrupt.class,
                "%s is corrupt: it has neither an NT_PRPSINFO nor an NT_PRSTATUS note");
        assertFails(write(new CoreBuilder().prstatus(0).build()), CoreFileException.Corrupt.class, "names process id 0");
        assertFails(write(new CoreBuilder().note("CORE", 1, new byte[20]).build()), CoreFileException.Corrupt.class,
                "an NT_PRSTATUS note has 20 bytes, fewer than the 36 it needs");
    }

    @Test
    void programHeaderCountFromSectionZeroWhenThereAreManyMappings() throws Exception {
        byte[] core = valid().build();
        // e_phnum = PN_XNUM; section header 0 (appended) carries the real count, 2, in sh_info.
        byte[] withSection = Arrays.copyOf(core, core.length + 64);
        ByteBuffer b = ByteBuffer.wrap(withSection).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort(56, (short) 0xffff).putLong(40, core.length).putShort(58, (short) 64).putShort(60, (short) 1);
        b.putInt(core.length + 44, 2);
        try (CoreDump dump = CoreDump.open(write(withSection), Optional.empty())) {
            assertThat(dump.image().threadIds()).containsExactly(5L);
        }
        b.putInt(core.length + 44, 1 << 30);
        assertFails(write(withSection), CoreFileException.Truncated.class, "%s is truncated: the program header table");
    }

    private static CoreBuilder valid() {
        return new CoreBuilder().prstatus(5).load(0x10000, new byte[64], 0x1000, "rw");
    }

    /** A core whose only note is an NT_FILE of one entry, edited by {@code edit} (offsets into its descriptor). */
    private static byte[] fileNote(java.util.function.Consumer<ByteBuffer> edit) {
        byte[] core = new CoreBuilder().prstatus(5).file(0x10000, 0x11000, 1, "/lib.so").build();
        ByteBuffer b = ByteBuffer.wrap(core).order(ByteOrder.LITTLE_ENDIAN);
        int notes = 64 + 56;
        int first = notes + 12 + 8 + 336; // past the NT_PRSTATUS note
        int desc = first + 12 + 8;
        int size = b.getInt(first + 4);
        edit.accept(b.slice(desc, size).order(ByteOrder.LITTLE_ENDIAN));
        return core;
    }

    private Path write(byte[] bytes) throws IOException {
        Path file = Files.createTempFile(dir, "core", "");
        Files.write(file, bytes);
        return file;
    }

    private static void put32(byte[] b, int at, int value) {
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
    }

    private static void assertFails(Path core, Class<? extends CoreFileException> type, String message) {
        assertThatThrownBy(() -> CoreDump.open(core, Optional.empty()).close())
                .isInstanceOf(type)
                .hasMessageStartingWith(message.contains("%s") ? message.formatted(core) : message.substring(0, 0))
                .hasMessageContaining(message.contains("%s") ? "" : message)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
