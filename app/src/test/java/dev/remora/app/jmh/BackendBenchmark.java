package dev.remora.app.jmh;

import dev.remora.adapters.procmem.ProcMemMemory;
import dev.remora.adapters.procmem.ProcfsProcessImage;
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

/** The cost of one remote read through each backend, for a frame-sized and a page-sized range. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class BackendBenchmark {

    @Param({"vmreadv", "procmem"})
    String backend;

    @Param({"88", "4096"})
    int bytes;

    private Process target;
    private RemoteMemory memory;
    private long address;
    private byte[] buffer;

    @Setup(Level.Trial)
    public void start() throws Exception {
        target = new ProcessBuilder(List.of("sleep", "3600")).start();
        int pid = (int) target.pid();
        MemoryMapping writable = ProcfsProcessImage.of(pid).mappings().stream()
                .filter(m -> m.readable() && m.writable() && m.size() >= 8192).findFirst().orElseThrow();
        address = writable.start();
        memory = backend.equals("vmreadv") ? VmReadvMemory.open(pid) : ProcMemMemory.open(pid);
        buffer = new byte[bytes];
    }

    @Benchmark
    public byte[] read() throws Exception {
        memory.read(address, buffer, 0, bytes);
        return buffer;
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        memory.close();
        target.destroyForcibly().waitFor();
    }
}
