package dev.remora.app.output.profile.flamegraph;

import dev.remora.app.output.profile.PageTemplate;
import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Writes a profile as one self-contained HTML page: an interactive flamegraph (zoom, search, thread
 * filter, inverted view) with its script, style and data inlined, so it opens offline from a file.
 */
public final class FlamegraphWriter implements ProfileWriter {

    private final PageTemplate template = PageTemplate.load("flamegraph");
    private final Optional<FlamegraphData.Baseline> baseline;

    public FlamegraphWriter() {
        this.baseline = Optional.empty();
    }

    /**
     * A differential flamegraph: each frame coloured by how its share of the samples changed since
     * {@code baseline} (named {@code name} on the page).
     */
    public FlamegraphWriter(String name, Profile baseline) {
        this.baseline = Optional.of(new FlamegraphData.Baseline(name, baseline.samples().total(), FlamegraphTree.of(baseline)));
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        String json = FlamegraphData.json(profile, FlamegraphTree.of(profile), baseline);
        out.write(template.fill(title(profile.info()), json).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private String title(ProfileInfo info) {
        String version = info.pythonVersion() == null ? "" : ", Python " + info.pythonVersion();
        return (baseline.isPresent() ? "Differential flamegraph of pid " : "Flamegraph of pid ") + info.pid() + version;
    }
}
