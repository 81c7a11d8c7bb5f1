package dev.remora.app.jmh;

import dev.remora.adapters.procmem.ProcMemMemory;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.RemoteMemory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one remote read through each backend (vmreadv once per native binding), for a
 * frame-sized and a page-sized range, and of one readPrefix batch of {@link #BATCH} such ranges.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class BackendBenchmark {

    private static final int BATCH = 8;
    private static final String VMREADV = "vmreadv-";

    @Param({"vmreadv-ffm", "vmreadv-jna", "vmreadv-jnr", "procmem"})
    String backend;

    @Param({"88", "4096"})
    int bytes;

    private Process target;
    private RemoteMemory memory;
    private long address;
    private byte[] buffer;
    private final long[] addresses = new long[BATCH];
    private final int[] lengths = new int[BATCH];
    private final int[] offsets = new int[BATCH];
    private byte[] batchBuffer;

    @Setup(Level.Trial)
    public void start() throws Exception {
        target = new ProcessBuilder(List.of("sleep", "3600")).start();
        int pid = (int) target.pid();
        MemoryMapping writable = ProcfsProcessImage.of(pid).mappings().stream()
                .filter(m -> m.readable() && m.writable() && m.size() >= (long) BATCH * bytes).findFirst().orElseThrow();
        address = writable.start();
        memory = open(pid);
        buffer = new byte[bytes];
        batchBuffer = new byte[BATCH * bytes];
        for (int i = 0; i < BATCH; i++) {
            addresses[i] = address + (long) i * bytes;
            lengths[i] = bytes;
            offsets[i] = i * bytes;
        }
    }

    private RemoteMemory open(int pid) {
        if (backend.equals("procmem")) {
            return ProcMemMemory.open(pid);
        }
        if (!backend.startsWith(VMREADV)) {
            throw new IllegalArgumentException("unknown backend " + backend);
        }
        return VmReadvMemory.open(pid, NativeBinding.valueOf(backend.substring(VMREADV.length())));
    }

    @Benchmark
    public byte[] read() throws Exception {
        memory.read(address, buffer, 0, bytes);
        return buffer;
    }

    @Benchmark
    public int readPrefix() {
        int read = memory.readPrefix(addresses, lengths, batchBuffer, offsets, BATCH);
        if (read != BATCH) {
            throw new IllegalStateException("read " + read + " of " + BATCH + " ranges");
        }
        return read;
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        memory.close();
        target.destroyForcibly().waitFor();
    }
}
