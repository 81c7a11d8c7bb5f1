package dev.remora.domain.locals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Expected texts were printed by CPython 3.11.7 and 3.12.1 ({@code repr(...)}), which agree on all of them. */
class PythonReprTest {

    private static final int NO_LIMIT = Integer.MAX_VALUE;

    @Test
    void choosesTheQuoteAsCPythonDoes() {
        assertThat(str("")).isEqualTo("''");
        assertThat(str("it's")).isEqualTo("\"it's\"");
        assertThat(str("say \"hi\"")).isEqualTo("'say \"hi\"'");
        assertThat(str("it's \"x\"")).isEqualTo("'it\\'s \"x\"'");
    }

    @Test
    void escapesBackslashWhitespaceAndAsciiControls() {
        assertThat(str("a\\b")).isEqualTo("'a\\\\b'");
        assertThat(str("\t\n\r")).isEqualTo("'\\t\\n\\r'");
        assertThat(PythonRepr.ofStr(new int[] {0x00, 0x1f, 0x7f}, NO_LIMIT)).isEqualTo("'\\x00\\x1f\\x7f'");
        assertThat(str(" x ")).isEqualTo("' x '");
    }

    @Test
    void escapesNonPrintableLatin1ButKeepsPrintableLetters() {
        assertThat(PythonRepr.ofStr(new int[] {0x80, 0xa0, 0xad}, NO_LIMIT)).isEqualTo("'\\x80\\xa0\\xad'");
        assertThat(str("\u00e9")).isEqualTo("'\u00e9'");
    }

    @Test
    void keepsPrintableCharactersOutsideLatin1() {
        assertThat(str("\u4e2d\u6587")).isEqualTo("'\u4e2d\u6587'");
        assertThat(PythonRepr.ofStr(new int[] {0x1F600}, NO_LIMIT)).isEqualTo("'\ud83d\ude00'");
    }

    @Test
    void escapesLoneSurrogatesOneByOne() {
        assertThat(PythonRepr.ofStr(new int[] {'a', 0xDC80, 'b'}, NO_LIMIT)).isEqualTo("'a\\udc80b'");
        assertThat(PythonRepr.ofStr(new int[] {0xD83D, 0xDE00}, NO_LIMIT)).isEqualTo("'\\ud83d\\ude00'");
    }

    @Test
    void escapesPrivateUseSeparatorsFormatAndUnassigned() {
        assertThat(PythonRepr.ofStr(new int[] {0xE000}, NO_LIMIT)).isEqualTo("'\\ue000'");
        assertThat(PythonRepr.ofStr(new int[] {0x2028}, NO_LIMIT)).isEqualTo("'\\u2028'");
        assertThat(PythonRepr.ofStr(new int[] {0x200B}, NO_LIMIT)).isEqualTo("'\\u200b'");
        assertThat(PythonRepr.ofStr(new int[] {0x0378}, NO_LIMIT)).isEqualTo("'\\u0378'");
        assertThat(PythonRepr.ofStr(new int[] {0x10FFFF}, NO_LIMIT)).isEqualTo("'\\U0010ffff'");
    }

    @Test
    void truncatesAfterTheClosingQuoteAndChoosesTheQuoteOnWhatIsShown() {
        assertThat(PythonRepr.ofStr("abcdef".codePoints().toArray(), 3)).isEqualTo("'abc'...");
        assertThat(PythonRepr.ofStr("x'y\"z".codePoints().toArray(), 2)).isEqualTo("\"x'\"...");
        assertThat(PythonRepr.ofStr("abc".codePoints().toArray(), 3)).isEqualTo("'abc'");
        assertThat(PythonRepr.ofStr("abc".codePoints().toArray(), 0)).isEqualTo("''...");
    }

    @Test
    void rejectsANegativeLimitAndValuesThatAreNoCodePoint() {
        assertThatThrownBy(() -> PythonRepr.ofStr(new int[0], -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PythonRepr.ofBytes(new byte[0], -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PythonRepr.ofStr(new int[] {0x110000}, NO_LIMIT))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bytesChooseTheQuoteAndEscapeAsCPythonDoes() {
        assertThat(bytes("")).isEqualTo("b''");
        assertThat(bytes("it's")).isEqualTo("b\"it's\"");
        assertThat(bytes("say \"hi\"")).isEqualTo("b'say \"hi\"'");
        assertThat(bytes("it's \"x\"")).isEqualTo("b'it\\'s \"x\"'");
        assertThat(bytes("a\\b\t\n\r")).isEqualTo("b'a\\\\b\\t\\n\\r'");
    }

    @Test
    void bytesOfEveryValue() {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }

        assertThat(PythonRepr.ofBytes(all, NO_LIMIT)).isEqualTo("b'\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08"
                + "\\t\\n\\x0b\\x0c\\r\\x0e\\x0f\\x10\\x11\\x12\\x13\\x14\\x15\\x16\\x17\\x18\\x19\\x1a\\x1b\\x1c"
                + "\\x1d\\x1e\\x1f !\"#$%&\\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`"
                + "abcdefghijklmnopqrstuvwxyz{|}~\\x7f\\x80\\x81\\x82\\x83\\x84\\x85\\x86\\x87\\x88\\x89\\x8a\\x8b"
                + "\\x8c\\x8d\\x8e\\x8f\\x90\\x91\\x92\\x93\\x94\\x95\\x96\\x97\\x98\\x99\\x9a\\x9b\\x9c\\x9d\\x9e"
                + "\\x9f\\xa0\\xa1\\xa2\\xa3\\xa4\\xa5\\xa6\\xa7\\xa8\\xa9\\xaa\\xab\\xac\\xad\\xae\\xaf\\xb0\\xb1"
                + "\\xb2\\xb3\\xb4\\xb5\\xb6\\xb7\\xb8\\xb9\\xba\\xbb\\xbc\\xbd\\xbe\\xbf\\xc0\\xc1\\xc2\\xc3\\xc4"
                + "\\xc5\\xc6\\xc7\\xc8\\xc9\\xca\\xcb\\xcc\\xcd\\xce\\xcf\\xd0\\xd1\\xd2\\xd3\\xd4\\xd5\\xd6\\xd7"
                + "\\xd8\\xd9\\xda\\xdb\\xdc\\xdd\\xde\\xdf\\xe0\\xe1\\xe2\\xe3\\xe4\\xe5\\xe6\\xe7\\xe8\\xe9\\xea"
                + "\\xeb\\xec\\xed\\xee\\xef\\xf0\\xf1\\xf2\\xf3\\xf4\\xf5\\xf6\\xf7\\xf8\\xf9\\xfa\\xfb\\xfc\\xfd"
                + "\\xfe\\xff'");
    }

    @Test
    void bytesTruncateAfterTheClosingQuote() {
        assertThat(PythonRepr.ofBytes(new byte[] {'a', 'b', 'c', 'd'}, 2)).isEqualTo("b'ab'...");
        assertThat(PythonRepr.ofBytes(new byte[] {'x', '\'', 'y', '"'}, 2)).isEqualTo("b\"x'\"...");
        assertThat(PythonRepr.ofBytes(new byte[] {'a', 'b'}, 2)).isEqualTo("b'ab'");
    }

    @ParameterizedTest
    @MethodSource("floats")
    void floatsAsCPythonPrintsThem(double value, String expected) {
        assertThat(PythonRepr.ofFloat(value)).isEqualTo(expected);
    }

    static Stream<Arguments> floats() {
        return Stream.of(
                Arguments.of(0.1, "0.1"),
                Arguments.of(1e16, "1e+16"),
                Arguments.of(1e15, "1000000000000000.0"),
                Arguments.of(123456789012345678.0, "1.2345678901234568e+17"),
                Arguments.of(0.0001, "0.0001"),
                Arguments.of(0.00001, "1e-05"),
                Arguments.of(5e-324, "5e-324"),
                Arguments.of(1e-323, "1e-323"),
                Arguments.of(1.5e-323, "1.5e-323"),
                Arguments.of(4.94e-322, "4.94e-322"),
                Arguments.of(1.7976931348623157e308, "1.7976931348623157e+308"),
                Arguments.of(2.2250738585072014e-308, "2.2250738585072014e-308"),
                Arguments.of(100.0, "100.0"),
                Arguments.of(-2.5, "-2.5"),
                Arguments.of(0.1 + 0.2, "0.30000000000000004"),
                Arguments.of(1.0 / 3, "0.3333333333333333"),
                Arguments.of(2.0 / 3 * 1e-10, "6.666666666666667e-11"),
                Arguments.of(123.456, "123.456"),
                Arguments.of(1e22, "1e+22"),
                Arguments.of(1e23, "1e+23"),
                Arguments.of(9007199254740993.0, "9007199254740992.0"),
                Arguments.of(-0.0, "-0.0"),
                Arguments.of(0.0, "0.0"),
                Arguments.of(Double.NaN, "nan"),
                Arguments.of(Double.POSITIVE_INFINITY, "inf"),
                Arguments.of(Double.NEGATIVE_INFINITY, "-inf"),
                Arguments.of(1.5e300, "1.5e+300"),
                Arguments.of(2.5e-7, "2.5e-07"),
                Arguments.of(9.5, "9.5"),
                Arguments.of(0.5, "0.5"),
                Arguments.of(1e100, "1e+100"),
                Arguments.of(-1e-100, "-1e-100"),
                Arguments.of(12345678.9, "12345678.9"),
                Arguments.of(6.02214076e23, "6.02214076e+23"),
                Arguments.of(0.001, "0.001"),
                Arguments.of(1234567890123456.7, "1234567890123456.8"),
                Arguments.of(12345678901234567.0, "1.2345678901234568e+16"),
                Arguments.of(3.14159, "3.14159"),
                Arguments.of(1e-4 * 3, "0.00030000000000000003"));
    }

    @Test
    void intsAreTheirDecimalText() {
        assertThat(PythonRepr.ofInt(BigInteger.ZERO)).isEqualTo("0");
        assertThat(PythonRepr.ofInt(new BigInteger("-123456789012345678901234567890")))
                .isEqualTo("-123456789012345678901234567890");
    }

    private static String str(String text) {
        return PythonRepr.ofStr(text.codePoints().toArray(), NO_LIMIT);
    }

    private static String bytes(String ascii) {
        byte[] data = new byte[ascii.length()];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ascii.charAt(i);
        }
        return PythonRepr.ofBytes(data, NO_LIMIT);
    }
}
