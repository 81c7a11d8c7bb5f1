package dev.remora.app.output.profile.collapsed;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.Python;
import dev.remora.app.output.profile.Stacks;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;

class CollapsedWriterTest {

    static byte[] bytes(Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CollapsedWriter().write(profile, out);
        return out.toByteArray();
    }

    @Test
    void oneLinePerThreadStackRootFirstMostFrequentFirst() throws IOException {
        assertThat(new String(bytes(Stacks.small()), StandardCharsets.UTF_8)).isEqualTo("""
                tid:1;t.py:<module>:40;t.py:main:30;t.py:sleeper:23 3
                tid:1;t.py:<module>:40;t.py:main:31;t.py:gcwork:17;<GC> 2
                tid:1;t.py:<module>:40;t.py:main:31;t.py:gcwork:17 1
                tid:2;r.py:run:2;r.py:rec:9;r.py:rec:5;r.py:rec:5 1
                tid:2;r.py:run:2;t.py:sleeper:23 1
                """);
    }

    @Test
    void aMergedProcessTreeSaysEachStacksProcessFirst() throws IOException {
        assertThat(new String(bytes(ProfileFixture.mergedTree()), StandardCharsets.UTF_8)).isEqualTo("""
                pid:100;tid:7;process 100: python app.py;app.py:serve:3 1
                pid:200;tid:8;process 200: python job.py;job.py:work:5 1
                """);
    }

    @Test
    void cFramesAreTheirFunctionAndLibraryAndReadBackAsCFrames() throws IOException {
        FrameInfo qsort = FrameInfo.ofNative("qsort_r", "/usr/lib/libc.so.6");
        Profile profile = new ProfileFixture().sample(7, qsort, frame("sort", "/a/app.py", 3)).finish();
        String text = new String(bytes(profile), StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("tid:7;app.py:sort:3;qsort_r (libc.so.6) 1\n");
        Profile back = CollapsedReader.read(text.lines().toList(), "test");
        assertThat(back.frames().get(back.tree().frame(back.samples().node(0))))
                .isEqualTo(FrameInfo.ofNative("qsort_r", "libc.so.6"));
    }

    @Test
    void stacksThatReadTheSameAreOneLine() throws IOException {
        // Columns are not shown, nor directories: these four stacks are two lines.
        Profile profile = new ProfileFixture()
                .sample(7, frame("f", "/a/x.py", 3, 1), frame("main", "/a/m.py", 1))
                .sample(7, frame("f", "/a/x.py", 3, 9), frame("main", "/a/m.py", 1))
                .sample(7, frame("f", "/b/x.py", 3, 1), frame("main", "/a/m.py", 1))
                .sample(8, frame("f", "/a/x.py", 3, 1), frame("main", "/a/m.py", 1))
                .finish();
        assertThat(new String(bytes(profile), StandardCharsets.UTF_8))
                .isEqualTo("tid:7;m.py:main:1;x.py:f:3 3\ntid:8;m.py:main:1;x.py:f:3 1\n");
    }

    @Test
    void pseudoFramesAreBareNamesAndFramesWithoutALineSayZero() throws IOException {
        Profile profile = new ProfileFixture()
                .sample(1, PseudoFrames.GC, PseudoFrames.NATIVE, new FrameInfo("gen", "/g.py", SourceLocation.NONE))
                .finish();
        assertThat(new String(bytes(profile), StandardCharsets.UTF_8)).isEqualTo("tid:1;g.py:gen:0;<native>;<GC> 1\n");
    }

    @Test
    void utf8WithLoneSurrogatesKeptAndThreadIdsUnsigned() throws IOException {
        Profile profile = new ProfileFixture().sample(-1L, frame("\u00e9\u505c\uD801\uDC00\uD800", "/\u00e9.py", 2)).finish();
        byte[] expected = concat("tid:18446744073709551615;\u00e9.py:\u00e9\u505c\uD801\uDC00".getBytes(StandardCharsets.UTF_8),
                new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, ":2 1\n".getBytes(StandardCharsets.UTF_8));
        assertThat(bytes(profile)).isEqualTo(expected);
    }

    @Test
    void tiesOrderedByTextInCodePoints() throws IOException {
        // U+FF5E sorts before U+10400 in Python (code points), after it in UTF-16 order.
        Profile profile = new ProfileFixture()
                .sample(1, frame("\uD801\uDC00", "/a.py", 1))
                .sample(1, frame("\uFF5E", "/a.py", 1))
                .sample(1, frame("b", "/a.py", 1))
                .finish();
        assertThat(new String(bytes(profile), StandardCharsets.UTF_8))
                .isEqualTo("tid:1;a.py:b:1 1\ntid:1;a.py:\uFF5E:1 1\ntid:1;a.py:\uD801\uDC00:1 1\n");
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
