package dev.remora.app.cli;

import dev.remora.app.Main;
import dev.remora.app.dump.RemoraCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.AutoComplete;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line itself, without a target: version, help and the completion script. */
class CommandLineTest {

    @Test
    void versionNamesTheReleaseAndTheCommit() {
        RemoraCli run = RemoraCli.run("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip()).matches("remora \\d+\\.\\d+\\.\\d+\\S* \\(commit \\S+\\)");
    }

    @Test
    void helpListsEverySubcommandThoughEachStartBuildsOnlyItsOwn() {
        RemoraCli run = RemoraCli.run("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("run", "attach", "dump", "bench");
        assertThat(RemoraCommand.commandLine(Main.factory(), "dump", "-a", "1").getSubcommands()).containsOnlyKeys("dump");
        assertThat(RemoraCommand.commandLine(Main.factory(), "run", "x.py").getSubcommands().get("run").isStopAtPositional()).isTrue();
    }

    @Test
    void aMisspeltCommandOrOptionIsAnsweredWithTheNearestOne() {
        RemoraCli command = RemoraCli.run("atach", "123");
        assertThat(command.exitCode()).isEqualTo(2);
        assertThat(command.err()).contains("Did you mean: attach?");

        RemoraCli option = RemoraCli.run("dump", "--locls", "123");
        assertThat(option.exitCode()).isEqualTo(2);
        assertThat(option.err()).contains("Did you mean: --locals?");
    }

    /** A command whose PID is a positional parameter took a missing @FILE for a PID that is not a number. */
    @Test
    void aMissingOptionsFileIsNamedAsSuchWhereAPidWasDue(@TempDir Path dir) {
        for (String command : List.of("attach", "dump", "top")) {
            RemoraCli run = RemoraCli.run(command, "@" + dir.resolve("missing.args"));
            assertThat(run.exitCode()).as("%s: %s", command, run.err()).isEqualTo(2);
            assertThat(run.err().lines().findFirst().orElse("")).as(command)
                    .isEqualTo("remora: options file %s cannot be read: no such file", dir.resolve("missing.args"));
        }
        RemoraCli escaped = RemoraCli.run("attach", "@@12x");
        assertThat(escaped.err()).as("an escaped word is a word").contains("'@12x' is not an int").doesNotContain("options file");
    }

    @Test
    void completionCoversSubcommandsAndTheirOptions() {
        String script = AutoComplete.bash("remora", RemoraCommand.commandLine(Main.factory()));
        assertThat(script).contains("complete -F _complete_remora", "dump", "attach", "--flamegraph", "--core");
    }
}
