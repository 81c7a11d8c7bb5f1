package dev.remora.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --browser}: the opener on PATH gets the file; without one, the user gets the path. */
class BrowserOpenerTest {

    @Test
    void theOpenerOnThePathGetsTheFile(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path opened = dir.resolve("opened.txt");
        Path opener = bin.resolve("xdg-open");
        Files.writeString(opener, "#!/bin/sh\necho \"$1\" > " + opened + "\n");
        Files.setPosixFilePermissions(opener, PosixFilePermissions.fromString("rwxr-xr-x"));
        StringWriter err = new StringWriter();

        BrowserOpener.onPath("/nonexistent:" + bin).open(dir.resolve("flamegraph.html"), new PrintWriter(err));

        assertThat(err.toString()).startsWith("Opened " + dir.resolve("flamegraph.html") + " with xdg-open");
        for (int i = 0; i < 1000 && !(Files.exists(opened) && Files.size(opened) > 0); i++) {
            Thread.sleep(10); // the opener runs on by itself
        }
        assertThat(Files.readString(opened).strip()).isEqualTo(dir.resolve("flamegraph.html").toString());
    }

    @Test
    void anOpenerThatFailsIsNoOpenedFile(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        Path opener = bin.resolve("xdg-open");
        Files.writeString(opener, "#!/bin/sh\nexit 3\n"); // xdg-open's answer where no browser is set up
        Files.setPosixFilePermissions(opener, PosixFilePermissions.fromString("rwxr-xr-x"));
        StringWriter err = new StringWriter();

        BrowserOpener.onPath(bin.toString()).open(dir.resolve("f.html"), new PrintWriter(err));

        assertThat(err.toString()).startsWith("xdg-open could not open it (exit 3); open " + dir.resolve("f.html"))
                .doesNotContain("Opened");
    }

    @Test
    void withoutAnOpenerThePathIsShown(@TempDir Path dir) {
        StringWriter err = new StringWriter();
        BrowserOpener.onPath(dir.toString()).open(dir.resolve("f.html"), new PrintWriter(err));
        assertThat(err.toString()).contains("No xdg-open").contains(dir.resolve("f.html").toString());
    }
}
