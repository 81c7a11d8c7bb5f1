package dev.remora.adapters.coredump;

import dev.remora.ports.CpuState;
import dev.remora.ports.FatalSignal;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ThreadRegisters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Synthetic cores: where each byte comes from, and what the image reports. */
class CoreDumpTest {

    private static final String LIB = "/usr/lib/libx.so";
    /** Three pages and a bit: the last page of the file is partial. */
    private static final byte[] LIB_BYTES = elf(3 * 4096 + 100);

    @TempDir
    Path dir;

    @Test
    void readsSegmentsAndReadsAcrossAdjacentOnes() throws Exception {
        byte[] a = CoreBuilder.bytes(0x2000, 1);
        byte[] b = CoreBuilder.bytes(0x1000, 2);
        try (CoreDump dump = open(new CoreBuilder().prstatus(7).load(0x10000, a, 0x2000, "rw").load(0x12000, b, 0x1000, "r"), null)) {
            byte[] got = new byte[0x20];
            dump.memory().read(0x11ff0, got, 0, got.length);
            assertThat(Arrays.copyOfRange(got, 0, 0x10)).isEqualTo(Arrays.copyOfRange(a, 0x1ff0, 0x2000));
            assertThat(Arrays.copyOfRange(got, 0x10, 0x20)).isEqualTo(Arrays.copyOfRange(b, 0, 0x10));
            assertThat(dump.memory().backendName()).isEqualTo("core");
        }
    }

    @Test
    void addressesOutsideEverySegmentAndMappingAreUnmapped() throws Exception {
        try (CoreDump dump = open(new CoreBuilder().prstatus(7).load(0x10000, new byte[0x1000], 0x1000, "rw"), null)) {
            assertThatThrownBy(() -> dump.memory().read(0x9000, new byte[8], 0, 8))
                    .isInstanceOf(MemoryAccessException.Unmapped.class);
            // Starts inside, runs out: fails where the segment ends.
            assertThatThrownBy(() -> dump.memory().read(0x10ff8, new byte[16], 0, 16))
                    .isInstanceOf(MemoryAccessException.Unmapped.class)
                    .satisfies(e -> assertThat(((MemoryAccessException) e).address()).isEqualTo(0x11000));
            assertThatThrownBy(() -> dump.memory().read(0xfffffffffffffff8L, new byte[16], 0, 16))
                    .isInstanceOf(MemoryAccessException.Unmapped.class);
        }
    }

    @Test
    void bytesTheCoreLeftOutComeFromTheMappedFileUnderTheSysroot() throws Exception {
        Path root = sysrootWithLib(LIB_BYTES);
        try (CoreDump dump = open(libCore(), root)) {
            assertThat(dump.unavailableFiles()).isEmpty();
            // Kernel style: a segment with p_filesz 0.
            assertThat(read(dump, 0x401000, 64)).isEqualTo(Arrays.copyOfRange(LIB_BYTES, 4096, 4096 + 64));
            // gdb style: no segment at all, only the NT_FILE entry.
            assertThat(read(dump, 0x403000, 100)).isEqualTo(Arrays.copyOfRange(LIB_BYTES, 3 * 4096, 3 * 4096 + 100));
            // Past the end of the file, to the end of its last page, a mapping reads zeros.
            assertThat(read(dump, 0x403064, 16)).containsOnly(0);
            assertThatThrownBy(() -> read(dump, 0x404000, 8))
                    .isInstanceOf(MemoryAccessException.Unavailable.class)
                    .hasMessageContaining("past the end of " + LIB);
            // A read that starts in the core's bytes and ends in the file's.
            assertThat(read(dump, 0x400ff0, 32)).isEqualTo(Arrays.copyOfRange(LIB_BYTES, 4096 - 16, 4096 + 16));
            assertThat(dump.missedFiles()).isEmpty();
        }
    }

    @Test
    void aMissingFileMakesItsLeftOutBytesUnavailableAndIsNamed() throws Exception {
        try (CoreDump dump = open(libCore(), Files.createDirectories(dir.resolve("empty-root")))) {
            assertThat(dump.unavailableFiles()).extracting(UnavailableFile::path, UnavailableFile::reason)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(LIB, UnavailableFile.Reason.NOT_FOUND));
            assertThat(read(dump, 0x400000, 4)).isEqualTo(new byte[] {0x7f, 'E', 'L', 'F'});
            assertThat(dump.missedFiles()).isEmpty();
            assertThatThrownBy(() -> read(dump, 0x401000, 8))
                    .isInstanceOf(MemoryAccessException.Unavailable.class)
                    .hasMessageContaining(LIB + " is not on this machine (looked for " + dir.resolve("empty-root") + LIB + ")")
                    .hasMessageContaining("--sysroot");
            assertThat(dump.missedFiles()).extracting(UnavailableFile::path).containsExactly(LIB);
        }
    }

    @Test
    void aFileOfAnotherBuildIsNotReadAsTheTargets() throws Exception {
        byte[] other = LIB_BYTES.clone();
        other[100] ^= 1;
        Path root = sysrootWithLib(other);
        try (CoreDump dump = open(libCore(), root)) {
            assertThat(dump.unavailableFiles()).extracting(UnavailableFile::reason).containsExactly(UnavailableFile.Reason.DIFFERENT_FILE);
            assertThatThrownBy(() -> read(dump, 0x401000, 8)).hasMessageContaining("is not the file the process mapped");
            assertThat(dump.image().openFile(LIB)).isEmpty();
        }
    }

    @Test
    void aPathAlreadyInsideTheSysrootIsTakenAsRecorded() throws Exception {
        Path root = sysrootWithLib(LIB_BYTES);
        String hostPath = root + LIB;
        CoreBuilder core = new CoreBuilder().prstatus(7)
                .load(0x400000, Arrays.copyOf(LIB_BYTES, 4096), 0x1000, "r").load(0x401000, new byte[0], 0x1000, "rx")
                .file(0x400000, 0x401000, 0, hostPath).file(0x401000, 0x402000, 1, hostPath);
        try (CoreDump dump = open(core, root)) {
            assertThat(dump.unavailableFiles()).isEmpty();
            assertThat(read(dump, 0x401000, 8)).isEqualTo(Arrays.copyOfRange(LIB_BYTES, 4096, 4096 + 8));
        }
    }

    @Test
    void memoryTheDumpLeftOutWithNoFileIsUnavailable() throws Exception {
        try (CoreDump dump = open(new CoreBuilder().prstatus(7).load(0x10000, new byte[0], 0x1000, ""), null)) {
            assertThatThrownBy(() -> read(dump, 0x10000, 8))
                    .isInstanceOf(MemoryAccessException.Unavailable.class)
                    .hasMessageContaining("not in the core");
        }
    }

    @Test
    void theImageReportsProcessThreadsAndMappings() throws Exception {
        CoreBuilder core = libCore().prstatus(12).prstatus(9).prstatus(12).prpsinfo(9, "python3.14")
                .load(0x600000, new byte[16], 0x1000, "rw").file(0x700000, 0x702000, 2, "/tmp/gone.so (deleted)");
        try (CoreDump dump = open(core, sysrootWithLib(LIB_BYTES))) {
            assertThat(dump.pid()).isEqualTo(9);
            assertThat(dump.image().pid()).isEqualTo(9);
            assertThat(dump.image().threadIds()).containsExactly(7L, 9L, 12L);
            assertThat(dump.image().threadName(9)).contains("python3.14");
            assertThat(dump.image().threadName(12)).isEmpty();
            assertThat(dump.image().cpuState(9)).isEqualTo(CpuState.UNKNOWN);
            List<MemoryMapping> maps = dump.image().mappings();
            assertThat(maps).containsExactly(
                    new MemoryMapping(0x400000, 0x401000, "r--p", 0, Optional.of(LIB), false),
                    new MemoryMapping(0x401000, 0x403000, "r-xp", 0x1000, Optional.of(LIB), false),
                    new MemoryMapping(0x403000, 0x405000, "r--p", 0x3000, Optional.of(LIB), false),
                    new MemoryMapping(0x600000, 0x601000, "rw-p", 0, Optional.empty(), false),
                    new MemoryMapping(0x700000, 0x702000, "r--p", 0x2000, Optional.of("/tmp/gone.so"), true));
            assertThat(dump.unavailableFiles()).extracting(UnavailableFile::reason).containsExactly(UnavailableFile.Reason.DELETED);
        }
    }

    @Test
    void eachThreadsRegistersAndTheSignalTheFirstTookComeFromItsNotes() throws Exception {
        long[] crashed = new long[27];
        crashed[16] = 0x401234; // rip
        crashed[19] = 0x7ffc0000; // rsp
        crashed[4] = 0x7ffc0040; // rbp
        long[] other = new long[27];
        other[16] = 0x405678;
        CoreBuilder core = new CoreBuilder().prstatus(21, 11, crashed).prstatus(20, 0, other).siginfo(11, 0x10)
                .prpsinfo(20, "python3").load(0x10000, new byte[8], 0x1000, "r");
        try (CoreDump dump = open(core, null)) {
            ThreadRegisters registers = dump.image().registers(21).orElseThrow();
            assertThat(registers.pc()).isEqualTo(0x401234);
            assertThat(registers.sp()).isEqualTo(0x7ffc0000L);
            assertThat(registers.get(ThreadRegisters.RBP)).isEqualTo(0x7ffc0040L);
            assertThat(dump.image().registers(20).orElseThrow().pc()).isEqualTo(0x405678);
            assertThat(dump.image().registers(99)).isEmpty();
            assertThat(dump.image().fatalSignal()).contains(new FatalSignal(21, 11, 0x10));
            assertThat(dump.image().fatalSignal().orElseThrow().name()).isEqualTo("SIGSEGV");
        }
    }

    @Test
    void aCoreOfAProcessThatTookNoSignalNamesNone() throws Exception {
        // gcore leaves the SIGSTOP gdb stopped the process with in the status: not what ended it.
        try (CoreDump dump = open(new CoreBuilder().prstatus(7, 19, new long[27]).load(0x10000, new byte[8], 0x1000, "r"), null)) {
            assertThat(dump.image().fatalSignal()).isEmpty();
            assertThat(dump.image().registers(7)).get().extracting(ThreadRegisters::pc).isEqualTo(0L);
        }
    }

    @Test
    void withoutNtPrpsinfoThePidIsTheFirstThreads() throws Exception {
        try (CoreDump dump = open(new CoreBuilder().prstatus(30).prstatus(20).load(0x10000, new byte[8], 0x1000, "r"), null)) {
            assertThat(dump.pid()).isEqualTo(30);
            assertThat(dump.image().threadName(30)).isEmpty();
        }
    }

    @Test
    void openFileResolvesUnderTheSysrootAndRefusesPathsThatCannotNameAFile() throws Exception {
        Path root = sysrootWithLib(LIB_BYTES);
        Files.writeString(Files.createDirectories(root.resolve("tmp")).resolve("t.py"), "print(1)\n");
        try (CoreDump dump = open(libCore(), root)) {
            try (FileBytes f = dump.image().openFile("/tmp/t.py").orElseThrow()) {
                assertThat(f.size()).isEqualTo(9);
            }
            assertThat(dump.image().openFile("/tmp/../tmp/t.py")).isEmpty();
            assertThat(dump.image().openFile("tmp/t.py")).isEmpty();
            assertThat(dump.image().openFile("[heap]")).isEmpty();
            assertThat(dump.image().openFile("/tmp/none.py")).isEmpty();
        }
    }

    /** The mapping is one MemorySegment: offsets past 2 and 4 GiB work (the file is sparse, so this costs no disk). */
    @Test
    void readsSegmentsBeyondFourGiB() throws Exception {
        byte[] data = CoreBuilder.bytes(4096, 9);
        byte[] small = new CoreBuilder().prstatus(7).load(0x10000, data, 0x1000, "rw").build();
        long far = (9L << 29); // 4.5 GiB
        ByteBuffer patched = ByteBuffer.wrap(small, 0, small.length - data.length).order(ByteOrder.LITTLE_ENDIAN);
        patched.putLong(64 + 56 + 8, far); // p_offset of the PT_LOAD
        Path file = dir.resolve("big.core");
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.write(ByteBuffer.wrap(small, 0, small.length - data.length), 0);
            out.write(ByteBuffer.wrap(data), far);
        }
        try (CoreDump dump = CoreDump.open(file, Optional.empty())) {
            assertThat(read(dump, 0x10000, 4096)).isEqualTo(data);
        }
    }

    @Test
    void closingTheMemoryClosesTheDump() throws Exception {
        CoreDump dump = open(new CoreBuilder().prstatus(7).load(0x10000, new byte[8], 0x1000, "r"), null);
        dump.memory().close();
        dump.close(); // a second close is harmless
        assertThatThrownBy(() -> read(dump, 0x10000, 8)).isInstanceOf(IllegalStateException.class);
    }

    /** The library's first page in the core, its second and third as a kernel segment with no bytes, then gdb's way. */
    private static CoreBuilder libCore() {
        return new CoreBuilder().prstatus(7)
                .load(0x400000, Arrays.copyOf(LIB_BYTES, 4096), 0x1000, "r")
                .load(0x401000, new byte[0], 0x2000, "rx")
                .file(0x400000, 0x401000, 0, LIB).file(0x401000, 0x403000, 1, LIB).file(0x403000, 0x405000, 3, LIB);
    }

    private Path sysrootWithLib(byte[] content) throws IOException {
        Path root = dir.resolve("root");
        Path lib = root.resolve(LIB.substring(1));
        Files.createDirectories(lib.getParent());
        Files.write(lib, content);
        return root;
    }

    private CoreDump open(CoreBuilder core, Path sysroot) throws IOException, CoreFileException {
        Path file = Files.createTempFile(dir, "core", "");
        Files.write(file, core.build());
        return CoreDump.open(file, Optional.ofNullable(sysroot));
    }

    private static byte[] read(CoreDump dump, long address, int length) throws MemoryAccessException {
        byte[] b = new byte[length];
        dump.memory().read(address, b, 0, length);
        return b;
    }

    private static byte[] elf(int length) {
        byte[] b = CoreBuilder.bytes(length, 5);
        b[0] = 0x7f;
        b[1] = 'E';
        b[2] = 'L';
        b[3] = 'F';
        return b;
    }
}
