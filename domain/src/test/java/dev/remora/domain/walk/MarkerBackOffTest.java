package dev.remora.domain.walk;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The back-off of marker moves, walk by walk: a frame address that every walk finds again, each time
 * a new call gone before the next walk (a loop calling one function), must not draw a move on every
 * walk however long it runs; a frame that really stays must still get the marker.
 */
class MarkerBackOffTest {

    private static final long FRAME = 0x7f00_0000_1000L;
    private static final long CALLER = 0x7f00_0000_0f00L;
    private static final long CODE = 0x5555_0000L;

    /** One thread's walks, all beginning at FRAME, as the walker drives the chain. */
    private static final class Walks {
        final MarkedChain chain = new MarkedChain();
        long marker = CALLER;

        /** Runs walks; returns how many moved the marker onto FRAME. */
        int run(int walks, boolean callStays) {
            int moves = 0;
            for (int walk = 0; walk < walks; walk++) {
                chain.markerSeen(marker);
                // The walker moves the marker only onto a current frame it does not already stand on.
                if (marker != FRAME && chain.stayedOn(FRAME, CODE)) {
                    moves++;
                    chain.moveEnded(true, FRAME);
                    marker = FRAME;
                }
                chain.provenOn(FRAME, CODE);
                if (!callStays) {
                    marker = CALLER; // the call returned: the target moved the marker to its caller
                }
            }
            return moves;
        }
    }

    @Test
    void aNewCallAtTheSameAddressEveryWalkDrawsFewMovesEvenInALongRun() {
        int walks = 1_000_000;
        assertThat(new Walks().run(walks, false)).isLessThan(walks / 500);
    }

    @Test
    void aFrameThatStaysGetsTheMarkerAtOnceAndKeepsIt() {
        Walks walks = new Walks();
        assertThat(walks.run(2, true)).isEqualTo(1);
        assertThat(walks.run(1000, true)).isZero();
    }

    @Test
    void aFrameThatStaysAfterManyUndoneMovesStillGetsTheMarker() {
        Walks walks = new Walks();
        walks.run(100_000, false);
        assertThat(walks.run(5_000, true)).isPositive();
    }
}
