package dev.remora.domain.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statically initialised {@code _Py_DebugOffsets} of Debian sid's static interpreters, and their
 * {@code AsyncioDebug} sections (3.14+), committed as test resources ({@code
 * debug-offsets/debian-sid-3.1x.bin}, the first {@code MAX_STRUCT_SIZE} bytes of each {@code
 * .PyRuntime} section, and {@code debian-sid-3.1x-asyncio.bin}) so that tests of the decoders and of
 * walks over them run without root or provisioned targets. {@code DebugOffsetsFixturesTest} and
 * {@code AsyncioSectionFixturesTest} check them against the provisioned binaries and say how to
 * capture them again when Debian moves on.
 */
public final class DebugOffsetsFixtures {

    /** The versions with a fixture, and the Debian packages their bytes came from. */
    public static final List<String> MINORS = List.of("3.13", "3.14", "3.15");
    public static final List<String> CAPTURED_FROM = List.of("python3.13-minimal 3.13.18-1",
            "python3.14-minimal 3.14.10-1", "python3.15-minimal 3.15.2-1");

    private DebugOffsetsFixtures() {}

    /** Where the fixture of {@code minor} lives among the test resources. */
    public static String resource(String minor) {
        return "/debug-offsets/debian-sid-" + minor + ".bin";
    }

    /** Where the {@code AsyncioDebug} fixture of {@code minor} lives among the test resources. */
    public static String asyncioResource(String minor) {
        return "/debug-offsets/debian-sid-" + minor + "-asyncio.bin";
    }

    public static byte[] debugOffsets(String minor) {
        return bytes(resource(minor), minor);
    }

    /** The {@code AsyncioDebug} section of 3.14 and 3.15. */
    public static byte[] asyncioSection(String minor) {
        return bytes(asyncioResource(minor), minor);
    }

    /**
     * Checks that a committed fixture holds what the provisioned binary does; where it does not, writes
     * the binary's bytes under {@code target/} and fails saying where to copy them.
     */
    public static void assertSameAsProvisioned(String resource, byte[] provisioned, String what) throws IOException {
        byte[] committed = bytes(resource, what);
        if (!Arrays.equals(provisioned, committed)) {
            Path fresh = Path.of("target", resource.substring(1));
            Files.createDirectories(fresh.getParent());
            Files.write(fresh, provisioned);
            assertThat(provisioned).as("%s has changed: copy %s to domain/src/test/resources%s and"
                    + " name its package in DebugOffsetsFixtures.CAPTURED_FROM", what, fresh.toAbsolutePath(), resource)
                    .isEqualTo(committed);
        }
    }

    private static byte[] bytes(String resource, String minor) {
        try (InputStream in = DebugOffsetsFixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + resource + " for CPython " + minor);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
