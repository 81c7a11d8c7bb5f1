package dev.remora.app.output.profile.heatmap;

import dev.remora.app.output.profile.PageTemplate;
import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.domain.profile.Profile;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code --heatmap}: one self-contained HTML page showing the source of every sampled file, each line
 * shaded by its samples, files listed by samples, and a jump from each function to its lines.
 */
public final class HeatmapWriter implements ProfileWriter {

    private final HeatmapSources sources;

    public HeatmapWriter(HeatmapSources sources) {
        this.sources = sources;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        String json = HeatmapData.json(profile, sources);
        out.write(PageTemplate.load("heatmap").fill("Heatmap of pid " + profile.info().pid(), json).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
