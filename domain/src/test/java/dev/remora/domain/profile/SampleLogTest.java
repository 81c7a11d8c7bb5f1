package dev.remora.domain.profile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SampleLogTest {

    @Test
    void foldingKeepsOneEntryPerStackStatusAndInstructionWithItsCountAndFirstTime() {
        SampleLog log = new SampleLog();
        log.add(10, 1, 3, -1);
        log.add(20, 2, 3, -1);
        log.add(30, 1, 3, -1);
        log.add(40, 1, 1, -1); // another status: its own entry
        log.add(50, 1, 3, 7);  // another instruction: its own entry
        log.fold();

        assertThat(log.size()).isEqualTo(4);
        assertThat(log.total()).isEqualTo(5);
        assertThat(log.node(0)).isEqualTo(1);
        assertThat(log.weight(0)).isEqualTo(2);
        assertThat(log.time(0)).isEqualTo(10);
        assertThat(log.weight(1)).isEqualTo(1);
        assertThat(log.status(2)).isEqualTo(1);
        assertThat(log.opcode(3)).isEqualTo(7);
        assertThat(log.lastTime()).isEqualTo(50);
    }

    @Test
    void samplesAfterAFoldFollowTheFoldedOnesUntilTheNextFoldMergesThem() {
        SampleLog log = new SampleLog();
        log.add(10, 1, 3, -1);
        log.fold();
        log.add(20, 1, 3, -1);
        log.add(30, 5, 3, -1);
        // The window since the fold is the raw samples after the folded entries.
        assertThat(log.size()).isEqualTo(3);
        assertThat(log.node(1)).isEqualTo(1);
        assertThat(log.weight(1)).isEqualTo(1);

        log.fold();
        assertThat(log.size()).isEqualTo(2);
        assertThat(log.weight(0)).isEqualTo(2);
        assertThat(log.node(1)).isEqualTo(5);
        assertThat(log.total()).isEqualTo(3);
    }

    @Test
    void aLongRunOfFewStacksStaysAsLargeAsItsStacksAcrossChunks() {
        SampleLog log = new SampleLog();
        for (int second = 0; second < 50; second++) {
            for (int i = 0; i < 40_000; i++) {
                log.add(second * 1_000_000_000L + i, i % 7, 3, -1);
            }
            log.fold();
            assertThat(log.size()).isEqualTo(7);
        }
        assertThat(log.total()).isEqualTo(2_000_000);
        long sum = 0;
        for (int i = 0; i < log.size(); i++) {
            sum += log.weight(i);
        }
        assertThat(sum).isEqualTo(2_000_000);
    }
}
