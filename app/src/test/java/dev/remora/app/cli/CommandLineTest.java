package dev.remora.app.cli;

import dev.remora.app.Main;
import dev.remora.app.dump.RemoraCli;
import org.junit.jupiter.api.Test;
import picocli.AutoComplete;

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

    @Test
    void completionCoversSubcommandsAndTheirOptions() {
        String script = AutoComplete.bash("remora", RemoraCommand.commandLine(Main.factory()));
        assertThat(script).contains("complete -F _complete_remora", "dump", "attach", "--flamegraph", "--core");
    }
}
