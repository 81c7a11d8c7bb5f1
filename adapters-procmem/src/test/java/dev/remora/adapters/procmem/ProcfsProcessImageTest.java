package dev.remora.adapters.procmem;

import dev.remora.ports.testing.PythonTarget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.remora.ports.CpuState;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** Describes a live python3 child through /proc and checks against what the child reports. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProcfsProcessImageTest {

    private PythonTarget target;
    private ProcfsProcessImage image;
    private Path spaced;
    private Path deleted;
    private byte[] spacedContent;
    private byte[] deletedContent;

    @BeforeAll
    void startTarget(@TempDir Path dir) throws Exception {
        Random random = new Random(3);
        spaced = dir.resolve("with space (x) ).bin");
        spacedContent = new byte[10_000];
        random.nextBytes(spacedContent);
        Files.write(spaced, spacedContent);
        deleted = dir.resolve("soon gone.bin");
        deletedContent = new byte[5_000];
        random.nextBytes(deletedContent);
        Files.write(deleted, deletedContent);

        target = PythonTarget.start("map=" + spaced, "map_deleted=" + deleted, "threads=1");
        image = ProcfsProcessImage.of(target.pid());
    }

    @AfterAll
    void stopTarget() throws Exception {
        target.close();
    }

    @Test
    void mappingsShowTheInterpreterAndTheStack() throws Exception {
        List<MemoryMapping> mappings = image.mappings();
        List<String> paths = mappings.stream().flatMap(m -> m.path().stream()).toList();

        assertThat(paths).contains(target.text("exe"), "[stack]");
        if (target.number("shared_libpython") == 1) {
            assertThat(paths).anyMatch(p -> Path.of(p).getFileName().toString().startsWith("libpython"));
        }
        assertThat(mappings).anyMatch(m -> m.path().isEmpty());
        assertThat(mappings).allMatch(m -> Long.compareUnsigned(m.start(), m.end()) < 0);
        assertThat(mappings).filteredOn(m -> m.path().equals(Optional.of(target.text("exe"))))
                .anyMatch(m -> m.permissions().contains("x"));
    }

    @Test
    void mappingsKeepSpacesAndMarkDeletedFiles() throws Exception {
        List<MemoryMapping> mappings = image.mappings();
        assertThat(mappings).filteredOn(m -> m.path().equals(Optional.of(spaced.toString())))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.deleted()).isFalse();
                    assertThat(m.readable()).isTrue();
                    assertThat(m.size()).isGreaterThanOrEqualTo(spacedContent.length);
                });
        assertThat(mappings).filteredOn(m -> m.path().equals(Optional.of(deleted.toString())))
                .singleElement()
                .satisfies(m -> assertThat(m.deleted()).isTrue());
    }

    @Test
    void mappingsShowTheHoleTheTargetPunched() throws Exception {
        long edge = target.number("edge_addr");
        long page = target.number("page_size");
        List<MemoryMapping> mappings = image.mappings();
        assertThat(mappings).anyMatch(m -> m.contains(edge) && m.contains(edge + 2 * page - 1) && m.writable());
        assertThat(mappings).noneMatch(m -> m.contains(edge + 2 * page));
        assertThat(mappings).anyMatch(m -> m.contains(edge + 3 * page));
    }

    @Test
    void opensAFileThroughTheTargetsRoot() throws Exception {
        try (FileBytes file = image.openFile(spaced.toString()).orElseThrow()) {
            assertThat(file.size()).isEqualTo(spacedContent.length);
            byte[] dst = new byte[1000];
            int n = file.read(4000, dst, 0, dst.length);
            assertThat(n).isEqualTo(1000);
            assertThat(dst).isEqualTo(Arrays.copyOfRange(spacedContent, 4000, 5000));
            assertThat(file.read(spacedContent.length, dst, 0, 10)).isEqualTo(-1);
        }
    }

    @Test
    void opensTheInterpreterBinary() throws Exception {
        try (FileBytes exe = image.openFile(target.text("exe")).orElseThrow()) {
            byte[] magic = new byte[4];
            assertThat(exe.read(0, magic, 0, 4)).isEqualTo(4);
            assertThat(magic).containsExactly(0x7f, 'E', 'L', 'F');
        }
    }

    @Test
    void opensTheMappedCopyOfADeletedFile() throws Exception {
        Files.write(deleted, "a different file now".getBytes());
        try {
            // The tests run as root, as the tool itself needs to; map_files is readable then.
            assertThat(Files.isReadable(Path.of("/proc/self/map_files")))
                    .as("map_files needs CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE").isTrue();
            try (FileBytes file = image.openFile(deleted.toString()).orElseThrow()) {
                byte[] dst = new byte[deletedContent.length];
                assertThat(file.read(0, dst, 0, dst.length)).isEqualTo(dst.length);
                assertThat(dst).isEqualTo(deletedContent);
            }
        } finally {
            Files.deleteIfExists(deleted);
        }
    }

    @Test
    void pseudoAndMissingPathsOpenNothing() {
        assertThat(image.openFile("[heap]")).isEmpty();
        assertThat(image.openFile("/no/such/file/anywhere")).isEmpty();
        assertThat(image.openFile("/tmp/../etc/passwd")).isEmpty();
    }

    @Test
    void threadIdsIncludeTheProcessAndItsThreads() throws Exception {
        assertThat(image.threadIds())
                .contains((long) target.pid(), target.number("busy_tid"), target.number("sleep_tid"))
                .isSorted();
    }

    @Test
    void spinningThreadIsRunningAndSleepingThreadIsIdle() throws Exception {
        long busy = target.number("busy_tid");
        CpuState seen = CpuState.UNKNOWN;
        // The state is a sample: a spinning thread can be caught off-CPU now and then.
        for (int i = 0; i < 100 && seen != CpuState.RUNNING; i++) {
            seen = image.cpuState(busy);
            Thread.sleep(10);
        }
        assertThat(seen).isEqualTo(CpuState.RUNNING);
        assertThat(image.cpuState(target.number("sleep_tid"))).isEqualTo(CpuState.IDLE);
        assertThat(image.cpuState(target.pid())).isEqualTo(CpuState.IDLE); // main thread waits on stdin
        assertThat(image.cpuState(Integer.MAX_VALUE)).isEqualTo(CpuState.UNKNOWN);
    }

    @Test
    void onlyProcessIdsExist() throws Exception {
        assertThat(ProcfsProcessImage.exists(target.pid())).isTrue();
        assertThat(ProcfsProcessImage.exists(Math.toIntExact(target.number("busy_tid")))).isFalse();
        assertThat(ProcfsProcessImage.exists(-1)).isFalse();
        assertThat(image.pid()).isEqualTo(target.pid());
    }

    @Test
    void exitedProcessIsReportedAsMissing() throws Exception {
        ProcfsProcessImage doomedImage;
        int pid;
        try (PythonTarget doomed = PythonTarget.start()) {
            pid = doomed.pid();
            doomedImage = ProcfsProcessImage.of(pid);
            assertThat(doomedImage.mappings()).isNotEmpty();
            doomed.exitAndReap();
        }
        var fromMappings = catchThrowableOfType(ProcessImageException.class, doomedImage::mappings);
        assertThat(fromMappings.reason()).isEqualTo(ProcessImageException.Reason.NO_SUCH_PROCESS);
        assertThat(fromMappings).hasMessage("no process with pid " + pid);
        var fromThreads = catchThrowableOfType(ProcessImageException.class, doomedImage::threadIds);
        assertThat(fromThreads.reason()).isEqualTo(ProcessImageException.Reason.NO_SUCH_PROCESS);
        var fromFactory = catchThrowableOfType(ProcessImageException.class, () -> ProcfsProcessImage.of(pid));
        assertThat(fromFactory.reason()).isEqualTo(ProcessImageException.Reason.NO_SUCH_PROCESS);
        assertThat(fromFactory).hasMessage("no process with pid " + pid);
        assertThat(doomedImage.cpuState(pid)).isEqualTo(CpuState.UNKNOWN);
    }
}
