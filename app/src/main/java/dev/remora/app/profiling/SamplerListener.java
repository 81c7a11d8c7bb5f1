package dev.remora.app.profiling;

import dev.remora.domain.profile.Profile;

/** Hears from the sampling loop between samples: windows for streams, ticks for progress lines. */
public interface SamplerListener {

    /** About once a second; {@code live} says how the sampling has gone so far. */
    default void tick(Profile profile, SamplerProgress live) {}

    /** Samples {@code [from, to)} arrived since the last window. */
    default void window(Profile profile, int from, int to) {}
}
