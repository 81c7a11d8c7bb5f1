package dev.remora.app.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** {@code remora --version}: the version and the commit the build was made from, as the build recorded them. */
public final class BuildVersion implements IVersionProvider {

    private static final String RESOURCE = "/dev/remora/app/version.properties";

    @Override
    public String[] getVersion() {
        Properties build = read();
        return new String[] {"remora %s (commit %s)".formatted(build.getProperty("version", "unknown"),
                build.getProperty("commit", "unknown"))};
    }

    /** The release's version, as {@code --version} gives it. */
    static String version() {
        return read().getProperty("version", "unknown");
    }

    private static Properties read() {
        Properties properties = new Properties();
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
