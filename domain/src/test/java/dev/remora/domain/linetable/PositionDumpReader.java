package dev.remora.domain.linetable;

import dev.remora.domain.linetable.DumpedCode.PositionRun;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/** Reads the binary format written by dump_positions.py (described there), one code object at a time. */
final class PositionDumpReader {

    private static final byte[] MAGIC = "RLTD".getBytes(StandardCharsets.US_ASCII);
    private static final int FIELDS = 4;

    private PositionDumpReader() {
    }

    static DumpTotals read(Path dump, Consumer<DumpedCode> consumer) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(dump));
        byte[] magic = new byte[MAGIC.length];
        in.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IllegalStateException(dump + ": not a positions dump");
        }
        String version = text(in, Short.toUnsignedInt(in.getShort()));
        String file = null;
        int codeObjects = 0;
        while (true) {
            byte tag = in.get();
            switch (tag) {
                case 'F' -> file = text(in, in.getInt());
                case 'C' -> {
                    consumer.accept(code(in, file));
                    codeObjects++;
                }
                case 'E' -> {
                    DumpTotals totals = new DumpTotals(version, in.getInt(), in.getInt(), in.getInt());
                    if (totals.codeObjects() != codeObjects || in.hasRemaining()) {
                        throw new IllegalStateException(dump + ": trailer " + totals + " does not match "
                                + codeObjects + " code objects read, " + in.remaining() + " bytes left");
                    }
                    return totals;
                }
                default -> throw new IllegalStateException(dump + ": unknown record tag " + tag + " at " + in.position());
            }
        }
    }

    private static DumpedCode code(ByteBuffer in, String file) {
        int firstLineNo = in.getInt();
        String qualname = text(in, Short.toUnsignedInt(in.getShort()));
        byte[] table = new byte[in.getInt()];
        in.get(table);
        int instructionCount = in.getInt();
        int runCount = in.getInt();
        List<PositionRun> runs = new ArrayList<>(runCount);
        for (int i = 0; i < runCount; i++) {
            int repeat = in.getInt();
            int absentMask = in.get();
            int[] fields = new int[FIELDS];
            for (int field = 0; field < FIELDS; field++) {
                int value = in.getInt();
                boolean absent = (absentMask & (1 << field)) != 0;
                // CPython reports exactly -1 as None, so an integer -1 would break the
                // one-to-one mapping SourceLocation relies on.
                if (!absent && value == SourceLocation.ABSENT) {
                    throw new IllegalStateException(file + " " + qualname + ": co_positions() gave an integer -1");
                }
                fields[field] = absent ? SourceLocation.ABSENT : value;
            }
            runs.add(new PositionRun(repeat, new SourceLocation(fields[0], fields[1], fields[2], fields[3])));
        }
        return new DumpedCode(file, qualname, firstLineNo, table, instructionCount, runs);
    }

    private static String text(ByteBuffer in, int length) {
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
