package dev.remora.app.output.profile.heatmap;

import dev.remora.app.output.profile.PageResource;
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
        String page = resource("heatmap.html");
        String css = resource("heatmap.css");
        String script = resource("heatmap.js");
        if (css.toLowerCase().contains("</style") || script.toLowerCase().contains("</script")) {
            throw new IllegalStateException("heatmap CSS or script contains its own closing tag");
        }
        String title = "Heatmap of pid " + profile.info().pid();
        // Replaced in one pass each, the data last: nothing in a value is taken for a placeholder.
        String html = page.replace("{{TITLE}}", title).replace("{{CSS}}", css).replace("{{SCRIPT}}", script);
        int at = html.indexOf("{{DATA}}");
        out.write((html.substring(0, at) + HeatmapData.json(profile, sources) + html.substring(at + "{{DATA}}".length()))
                .getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String resource(String name) {
        return PageResource.text("heatmap/" + name);
    }
}
