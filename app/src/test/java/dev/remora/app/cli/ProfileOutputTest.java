package dev.remora.app.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a profile's output says when its file cannot be written. */
class ProfileOutputTest {

    @Test
    void aFailedWriteSaysWhyInWordsNotOnlyTheFilesName() {
        assertThat(ProfileOutput.why(new AccessDeniedException("/sys/x.html"))).isEqualTo("permission denied");
        assertThat(ProfileOutput.why(new NoSuchFileException("/nope/x.html"))).isEqualTo("no such file or directory");
        assertThat(ProfileOutput.why(new FileSystemException("/x", null, "No space left on device"))).isEqualTo("No space left on device");
        assertThat(ProfileOutput.why(new IOException("Stream closed"))).isEqualTo("Stream closed");
    }
}
