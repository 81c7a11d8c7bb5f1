package dev.remora.app.agent;

import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.StackErrors;
import org.junit.jupiter.api.Test;

import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class WindowQueueTest {

    static ProfileWindow window(int pid, long fromMillis, int bytes) {
        return new ProfileWindow(pid, new ProcessLabels("svc", new TreeMap<>()), ProfileMode.WALL, 100, fromMillis,
                fromMillis + 10_000, java.util.Map.of(WireFormat.PPROF, new byte[bytes]), 1, StackErrors.NONE);
    }

    @Test
    void aFullQueuePushesOutItsOldestWindowsNeverTheNewest() throws Exception {
        WindowQueue queue = new WindowQueue(3 * (1000 + 256));
        for (int i = 0; i < 5; i++) {
            queue.add(window(1, i * 10_000L, 1000));
        }
        assertThat(queue.size()).isEqualTo(3);
        assertThat(queue.dropped()).isEqualTo(2);
        assertThat(queue.oldest(0).orElseThrow().fromMillis()).isEqualTo(20_000L);
    }

    @Test
    void aWindowLargerThanTheBoundIsStillKeptAlone() throws Exception {
        WindowQueue queue = new WindowQueue(100);
        queue.add(window(1, 0, 1000));
        queue.add(window(1, 10_000, 1000));
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.oldest(0).orElseThrow().fromMillis()).isEqualTo(10_000L);
    }

    @Test
    void aWindowPushedOutWhileItWasBeingDeliveredIsNotRemovedTwiceNorCountedAsDropped() throws Exception {
        WindowQueue queue = new WindowQueue(2 * (1000 + 256));
        ProfileWindow first = window(1, 0, 1000);
        queue.add(first);
        queue.add(window(1, 10_000, 1000));
        queue.add(window(1, 20_000, 1000)); // pushes out the first, as its delivery goes on
        assertThat(queue.dropped()).isEqualTo(1);
        queue.remove(first);
        assertThat(queue.size()).isEqualTo(2);
        assertThat(queue.oldest(0).orElseThrow().fromMillis()).isEqualTo(10_000L);
        assertThat(queue.dropped()).as("delivered after all: not lost").isZero();
    }
}
