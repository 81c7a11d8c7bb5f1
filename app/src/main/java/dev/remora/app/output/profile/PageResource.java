package dev.remora.app.output.profile;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The text of a page's file on the class path (HTML, CSS, script), read to be inlined. */
public final class PageResource {

    private PageResource() {}

    /** @throws IllegalStateException when the build left the file out */
    public static String text(String path) {
        try (InputStream in = PageResource.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("class path resource " + path + " is missing");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
