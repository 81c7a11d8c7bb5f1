package dev.remora.app.jmh;

import dev.remora.domain.linetable.LineTable;
import dev.remora.domain.linetable.SourceLocation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;

/** Cost of one location lookup, by how far into a table the instruction sits. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LineTableBenchmark {

    /** Entries before the looked-up instruction: a small function, a long one, a huge module body. */
    @Param({"8", "64", "1024"})
    int entries;

    private byte[] table;
    private int lastIndex;

    @Setup
    public void buildTable() {
        // A mix of the entry kinds compilers emit: short forms, one-line forms, a long form now and then.
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        for (int i = 0; i < entries; i++) {
            switch (i % 4) {
                case 0, 1 -> { // short form, 2 code units
                    t.write(0x80 | (i % 10) << 3 | 1);
                    t.write(0x24);
                }
                case 2 -> { // one-line form, next line, 3 code units
                    t.write(0x80 | 11 << 3 | 2);
                    t.write(4);
                    t.write(20);
                }
                default -> { // long form: line +2, end line +1, columns 4..30
                    t.write(0x80 | 14 << 3);
                    t.write(4);
                    t.write(1);
                    t.write(5);
                    t.write(31);
                }
            }
            lastIndex += i % 4 == 2 ? 3 : i % 4 == 3 ? 1 : 2;
        }
        table = t.toByteArray();
        lastIndex--;
    }

    @Benchmark
    public SourceLocation locateLastInstruction() {
        return LineTable.locate(table, table.length, 1, lastIndex);
    }
}
