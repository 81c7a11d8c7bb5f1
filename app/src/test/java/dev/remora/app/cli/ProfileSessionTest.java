package dev.remora.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProfileSessionTest {

    @Test
    void durationsAreShownInSecondsWithoutTrailingZeros() {
        assertThat(ProfileSession.seconds(50)).isEqualTo("0.05");
        assertThat(ProfileSession.seconds(2000)).isEqualTo("2");
        assertThat(ProfileSession.seconds(1500)).isEqualTo("1.5");
        assertThat(ProfileSession.seconds(1)).isEqualTo("0.001");
        assertThat(ProfileSession.seconds(0)).isEqualTo("0");
        assertThat(ProfileSession.seconds(123_456)).isEqualTo("123.456");
    }
}
