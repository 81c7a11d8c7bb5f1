package dev.remora.app.output.profile;

import dev.remora.app.output.profile.collapsed.CollapsedWriter;
import dev.remora.app.output.profile.flamegraph.FlamegraphWriter;
import dev.remora.app.output.profile.pprof.PprofWriter;
import dev.remora.app.output.profile.pstats.PstatsRows;
import dev.remora.app.output.profile.pstats.PstatsTable;
import dev.remora.app.output.profile.pstats.PstatsWriter;
import dev.remora.app.output.profile.pstats.TableStyle;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleKeeping;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A profile that keeps counts, its samples folded window by window, writes every count format byte
 * for byte as the same samples kept one by one do: folding loses nothing those formats show.
 */
class FoldedCountsTest {

    @ParameterizedTest
    @EnumSource(ProfileMode.class)
    void everyCountFormatIsTheSameFromFoldedSamples(ProfileMode mode) throws IOException {
        Profile every = Stacks.varied(mode, SampleKeeping.EVERY_SAMPLE);
        Profile folded = Stacks.varied(mode, SampleKeeping.COUNTS);
        assertThat(folded.samples().size()).as("entries after folding").isLessThan(every.samples().size() / 10);
        assertThat(folded.samples().total()).isEqualTo(every.samples().total());
        assertThat(folded.countsPerNode()).isEqualTo(every.countsPerNode());

        assertThat(bytes(new CollapsedWriter(), folded)).as("collapsed").isEqualTo(bytes(new CollapsedWriter(), every));
        assertThat(bytes(new PstatsWriter(), folded)).as("pstats file").isEqualTo(bytes(new PstatsWriter(), every));
        assertThat(bytes(new PprofWriter(), folded)).as("pprof").isEqualTo(bytes(new PprofWriter(), every));
        assertThat(bytes(new FlamegraphWriter(), folded)).as("flamegraph").isEqualTo(bytes(new FlamegraphWriter(), every));
        for (TableStyle style : TableStyle.values()) {
            PstatsTable table = new PstatsTable(PstatsTable.DEFAULT_SORT, 100, true, PstatsRows.FUNCTIONS, style);
            assertThat(text(table, folded)).as("pstats table, %s", style).isEqualTo(text(table, every));
        }
    }

    private static byte[] bytes(ProfileWriter writer, Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(profile, out);
        return out.toByteArray();
    }

    private static String text(PstatsTable table, Profile profile) {
        StringWriter out = new StringWriter();
        table.print(profile, new PrintWriter(out));
        return out.toString();
    }
}
