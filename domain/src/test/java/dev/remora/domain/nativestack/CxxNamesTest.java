package dev.remora.domain.nativestack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * C++ names read as gdb and c++filt show them, checked against c++filt's own output for hand-made
 * cases and for real libraries' symbols ({@code cxx-names.tsv}); a name it does not read is left as it
 * is, never shown wrong; and garbage never escapes as an exception or runs away.
 */
class CxxNamesTest {

    private record Pair(String mangled, String shown) {}

    private static List<Pair> pairs() throws IOException {
        try (InputStream in = CxxNamesTest.class.getResourceAsStream("cxx-names.tsv")) {
            List<Pair> pairs = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    String[] f = line.split("\t", 2);
                    pairs.add(new Pair(f[0], f[1]));
                }
            }
            return pairs;
        }
    }

    @Test
    void everyNameIsShownAsCxxfiltShowsItOrLeftAsItIs() throws IOException {
        List<Pair> pairs = pairs();
        List<String> wrong = new ArrayList<>();
        int shown = 0;
        for (Pair p : pairs) {
            String got = CxxNames.demangle(p.mangled());
            if (got.equals(p.shown())) {
                shown++;
            } else if (!got.equals(p.mangled())) {
                wrong.add("%s%n  want %s%n  got  %s".formatted(p.mangled(), p.shown(), got));
            }
        }
        assertThat(wrong).as("names shown otherwise than c++filt shows them").isEmpty();
        assertThat(shown).as("of %d names", pairs.size()).isGreaterThanOrEqualTo(pairs.size() * 99 / 100);
    }

    @Test
    void theFormsUsersMeetMostAreShown() {
        assertThat(CxxNames.demangle("_ZNKSt6vectorIiSaIiEE4sizeEv")).isEqualTo("std::vector<int, std::allocator<int> >::size() const");
        assertThat(CxxNames.demangle("_ZZ4mainENKUlvE_clEv")).isEqualTo("main::{lambda()#1}::operator()() const");
        assertThat(CxxNames.demangle("_ZN3foo3barEv.cold")).isEqualTo("foo::bar() [clone .cold]");
        assertThat(CxxNames.demangle("_ZN12_GLOBAL__N_13fooEv")).isEqualTo("(anonymous namespace)::foo()");
        assertThat(CxxNames.demangle("_Z1fIJiiEEvDpT_")).isEqualTo("void f<int, int>(int, int)");
        assertThat(CxxNames.demangle("_ZThn8_N3foo3Bar1fEv")).isEqualTo("non-virtual thunk to foo::Bar::f()");
    }

    @Test
    void cNamesAndNamesThatAreNotWellFormedAreLeftAsTheyAre() {
        for (String name : List.of("PyObject_Vectorcall", "_PyEval_EvalFrameDefault", "main", "_Z", "_Zx", "_Z3fo",
                "_Z1fS_", "_Z1fT_", "_ZN1A1B", "_Z1fv.", "_Z1fIiEv", "_Z1fPA10")) {
            assertThat(CxxNames.demangle(name)).as(name).isEqualTo(name);
        }
    }

    @Test
    void nestingPastTheLimitAndNamesPastTheLengthLimitAreLeftAsTheyAre() {
        String deep = "_Z1f" + "P".repeat(CxxNames.MAX_DEPTH + 10) + "i";
        assertThat(CxxNames.demangle(deep)).isEqualTo(deep);
        String pointers = "_Z1f" + "P".repeat(20) + "i";
        assertThat(CxxNames.demangle(pointers)).isEqualTo("f(int" + "*".repeat(20) + ")");
        String longName = "_Z" + (CxxNames.MAX_MANGLED) + "x".repeat(CxxNames.MAX_MANGLED) + "v";
        assertThat(CxxNames.demangle(longName)).isEqualTo(longName);
    }

    @Test
    void substitutionsThatWouldDoubleTheNameAtEachStepStopAtTheShownLengthLimit() {
        // Each template argument list repeats the one before it twice: the shown name would grow as 2^n.
        StringBuilder mangled = new StringBuilder("_Z1f1AIiE");
        for (int i = 0; i < 40; i++) {
            mangled.append("S").append(i == 0 ? "" : Integer.toString(i - 1, 36).toUpperCase()).append("_");
        }
        String name = mangled.toString();
        String shown = CxxNames.demangle(name);
        assertThat(shown.length()).isLessThanOrEqualTo(CxxNames.MAX_DEMANGLED);
        String doubling = "_Z1f" + "1AIS_S_E".repeat(1) + "IS0_S0_E".repeat(30);
        assertThat(CxxNames.demangle(doubling).length()).isLessThanOrEqualTo(Math.max(doubling.length(), CxxNames.MAX_DEMANGLED));
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void damagedNamesNeverThrowNorRunAway() throws IOException {
        List<Pair> pairs = pairs();
        Random random = new Random(0xc0ffee);
        String alphabet = "_ZNKSEIJTLPRODFAMvicjlmSt0123456789abcdefUlBCDEXsrpT_S_";
        for (int i = 0; i < 200_000; i++) {
            char[] name = pairs.get(random.nextInt(pairs.size())).mangled().toCharArray();
            int edits = 1 + random.nextInt(4);
            StringBuilder b = new StringBuilder(new String(name));
            for (int e = 0; e < edits && !b.isEmpty(); e++) {
                int at = random.nextInt(b.length());
                switch (random.nextInt(3)) {
                    case 0 -> b.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> b.deleteCharAt(at);
                    default -> b.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String damaged = b.toString();
            String shown = CxxNames.demangle(damaged);
            assertThat(shown.length()).as(damaged).isLessThanOrEqualTo(Math.max(damaged.length(), CxxNames.MAX_DEMANGLED + 64));
        }
    }
}
