package dev.remora.domain.nativestack;

import dev.remora.domain.nativestack.LineProgramAssembler.FileEntry;
import dev.remora.domain.nativestack.LineProgramAssembler.Unit5;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Damaged and random line tables: building a table may only fail with the reader's own typed
 * failure, a lookup not at all, and neither may hang. Seeded, so a failure repeats.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LineTableGarbageTest {

    private static HostLibpython libpython;
    /** A few whole units from the start of libpython's .debug_line. */
    private static byte[] realUnits;

    @BeforeAll
    static void readLibpython() throws Exception {
        libpython = HostLibpython.load();
        int end = 0;
        while (end < 16 << 10) {
            end = LineProgramHeader.unitEnd(libpython.debugLine, end);
        }
        realUnits = Arrays.copyOf(libpython.debugLine, end);
    }

    @Test
    void damagedCopiesOfRealUnitsGiveATableOrATypedFailure() {
        Random random = new Random(0x11e5);
        long[] addresses = addressesOf(realUnits, libpython.debugLineStr, libpython.debugStr);
        int built = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] damaged = damage(realUnits, random);
            byte[] lineStr = random.nextInt(8) == 0 ? damage(libpython.debugLineStr, random) : libpython.debugLineStr;
            built += buildAndLookUp(damaged, lineStr, libpython.debugStr, addresses, random) ? 1 : 0;
        }
        // Most damage leaves most units readable.
        assertThat(built).isGreaterThan(1000);
    }

    @Test
    void damagedCopiesOfAssembledUnitsGiveATableOrATypedFailure() {
        Random random = new Random(0xdeb);
        LineProgramAssembler program = new LineProgramAssembler()
                .setAddress(0x1000).advanceLine(9).copy().special(4, 1).setFile(2).fixedAdvancePc(0x10).copy()
                .constAddPc().defineFile("gen.c", 1).setFile(4).advancePc(3).setDiscriminator(2).copy()
                .extended(0x80, new byte[] {1, 2, 3}).advancePc(8).endSequence()
                .setAddress(0x2000).copy().special(2, 7).advancePc(8).endSequence();
        byte[] v4 = program.unit4(4, List.of("src", "/usr/include"),
                List.of(new FileEntry("main.c", 0), new FileEntry("util.h", 1), new FileEntry("stdio.h", 2)));
        List<FileEntry> files = List.of(new FileEntry("main.c", 0), new FileEntry("./x.h", 1));
        Unit5 v5 = program.unit5(List.of("/build", "lib"), files);
        Unit5 v5wide = program.unit5(List.of("/build", "lib"), files, 8);
        byte[] all = LineProgramAssembler.concat(v4, v5.debugLine(), v5wide.debugLine());
        long[] addresses = {0x1000, 0x1004, 0x1014, 0x1025, 0x1028, 0x102f, 0x1030, 0x2000, 0x2008};
        for (int i = 0; i < 3000; i++) {
            buildAndLookUp(damage(all, random), damage(v5.debugLineStr(), random), v5.debugStr(), addresses, random);
        }
    }

    @Test
    void randomBytesGiveATableOrATypedFailure() {
        Random random = new Random(0x5eed);
        long[] addresses = {0, 1, 0x1000, -1L};
        for (int i = 0; i < 3000; i++) {
            byte[] bytes = new byte[random.nextInt(700)];
            for (int k = 0; k < bytes.length; k++) {
                // Many zeros: they end the header's name lists and make extended opcodes.
                bytes[k] = (byte) (random.nextInt(4) == 0 ? 0 : random.nextInt(256));
            }
            if (bytes.length >= 16 && random.nextInt(4) != 0) {
                // A plausible start: the unit's own length, a known version, a header length inside it.
                int version = 2 + random.nextInt(4);
                int headerLengthAt = version >= 5 ? 8 : 6;
                put32(bytes, 0, bytes.length - 4);
                bytes[4] = (byte) version;
                bytes[5] = 0;
                put32(bytes, headerLengthAt, random.nextInt(bytes.length - headerLengthAt - 4));
            }
            byte[] strings = new byte[random.nextInt(64)];
            random.nextBytes(strings);
            buildAndLookUp(bytes, strings, strings, addresses, random);
        }
    }

    @Test
    void randomProgramsUnderSoundHeadersGiveATableOrATypedFailure() {
        Random random = new Random(0xc0de);
        List<FileEntry> files = List.of(new FileEntry("main.c", 0), new FileEntry("x.h", 1));
        for (int i = 0; i < 3000; i++) {
            // Mostly small opcodes with small operands, so that programs set files, advance and end sequences.
            LineProgramAssembler program = new LineProgramAssembler().setAddress(random.nextInt(0x10000));
            for (int n = random.nextInt(400); n > 0; n--) {
                program.raw(random.nextInt(4) == 0 ? random.nextInt(256) : random.nextInt(16));
            }
            long[] addresses = new long[16];
            for (int k = 0; k < addresses.length; k++) {
                addresses[k] = random.nextInt(0x20000);
            }
            if (random.nextBoolean()) {
                buildAndLookUp(program.unit4(2 + random.nextInt(3), List.of("src"), files), new byte[0], new byte[0],
                        addresses, random);
            } else {
                Unit5 unit = program.unit5(List.of("/build", "src"), files);
                buildAndLookUp(unit.debugLine(), unit.debugLineStr(), unit.debugStr(), addresses, random);
            }
        }
    }

    @Test
    void aProgramOfHugeAdvancesAndNoEndFinishes() throws Exception {
        LineProgramAssembler program = new LineProgramAssembler().setAddress(0x1000).copy();
        for (int i = 0; i < 50_000; i++) {
            program.advancePc(Long.MAX_VALUE).advanceLine(Long.MIN_VALUE).special(16, 8).setFile(-1L);
        }
        byte[] open = program.unit4(4, List.of(), List.of(new FileEntry("a.c", 0)));
        byte[] ended = program.endSequence().unit4(4, List.of(), List.of(new FileEntry("a.c", 0)));

        assertThat(LineTable.of(open, new byte[0], new byte[0]).at(0x1000)).isEmpty();
        LineTable table = LineTable.of(ended, new byte[0], new byte[0]);
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            table.at(random.nextLong());
        }
    }

    @Test
    void aDirectoryCountBeyondTheHeaderIsATypedFailure() {
        LineProgramAssembler program = new LineProgramAssembler().setAddress(0x1000).copy().advancePc(4).endSequence();
        for (long count : new long[] {0x7fff_ffffL, 0xffff_ffffL, 1L << 40, -1L}) {
            Unit5 unit = program.unit5(List.of("/build"), List.of(new FileEntry("a.c", 0)), 4, count);

            assertThatThrownBy(() -> LineTable.of(unit.debugLine(), unit.debugLineStr(), unit.debugStr()))
                    .as("count 0x%x", count).isInstanceOf(NativeDataException.class);
        }
    }

    /** Builds a table and looks up known and random addresses; whether a table was built. */
    private static boolean buildAndLookUp(byte[] debugLine, byte[] lineStr, byte[] str, long[] addresses, Random random) {
        LineTable table;
        try {
            table = LineTable.of(debugLine, lineStr, str);
        } catch (NativeDataException e) {
            return false;
        }
        for (long a : addresses) {
            table.at(a);
            table.at(a + random.nextInt(64));
        }
        table.at(random.nextLong());
        return true;
    }

    /** Addresses the undamaged units give a line: the starts of their sequences and points inside. */
    private static long[] addressesOf(byte[] units, byte[] lineStr, byte[] str) {
        long[] out = new long[64];
        int n = 0;
        try {
            LineTable table = LineTable.of(units, lineStr, str);
            for (long pc = 0x10_0000; pc < 0x40_0000 && n < out.length; pc += 0x1000) {
                if (table.at(pc).isPresent()) {
                    out[n++] = pc;
                }
            }
        } catch (NativeDataException e) {
            throw new AssertionError(e);
        }
        assertThat(n).as("addresses with lines in the undamaged units").isGreaterThan(0);
        return Arrays.copyOf(out, n);
    }

    private static void put32(byte[] b, int at, int value) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (value >>> (8 * i));
        }
    }

    private static byte[] damage(byte[] original, Random random) {
        byte[] b = original.clone();
        int edits = 1 + random.nextInt(12);
        for (int e = 0; e < edits && b.length > 0; e++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(5)) {
                case 0 -> b[at] = (byte) random.nextInt(256);
                case 1 -> b[at] ^= (byte) (1 << random.nextInt(8));
                case 2 -> b[at] = (byte) (random.nextBoolean() ? 0 : 0xff);
                case 3 -> b = Arrays.copyOf(b, at); // truncated
                default -> {
                    // A run of bytes copied over another place, as a bad merge or a torn read leaves.
                    int from = random.nextInt(b.length);
                    int length = Math.min(random.nextInt(64), Math.min(b.length - from, b.length - at));
                    System.arraycopy(b, from, b, at, length);
                }
            }
        }
        return b;
    }
}
