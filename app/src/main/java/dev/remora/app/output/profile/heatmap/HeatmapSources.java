package dev.remora.app.output.profile.heatmap;

import java.util.List;
import java.util.Optional;

/** The text of a sampled file, as the target saw it, when it can be read. */
@FunctionalInterface
public interface HeatmapSources {

    Optional<List<String>> lines(String file);
}
