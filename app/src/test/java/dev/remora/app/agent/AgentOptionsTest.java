package dev.remora.app.agent;

import dev.remora.app.dump.RemoraCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the agent refuses before it starts: one line saying why, and the usage exit code, never a stack trace. */
class AgentOptionsTest {

    private static void refused(List<String> args, String why) {
        RemoraCli run = RemoraCli.run(args.toArray());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains(why).doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(run.err().strip().lines().count()).as(run.err()).isEqualTo(1);
    }

    @Test
    void anAgentWithNowhereToSendIsRefused() {
        refused(List.of("agent"), "--pyroscope URL, --otlp URL and/or --directory DIR");
    }

    @Test
    void aSinkUrlThatIsNotHttpIsRefused() {
        refused(List.of("agent", "--pyroscope", "ftp://example.com"), "an http:// or https:// URL");
        refused(List.of("agent", "--otlp", "collector:4318"), "an http:// or https:// URL");
    }

    @Test
    void aTagNamePyroscopeWouldRefuseIsRefused() {
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--tag", "team-name=x"), "--tag team-name");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--tag", "pid=1"), "--tag pid");
    }

    @Test
    void aBadRegexOrTemplateOrLabelIsRefused() {
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--match", "("), "--match: not a regular expression");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--service-name", "{app}"), "the placeholders are");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--drop-label", "service_name"),
                "--drop-label service_name");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--mode", "gil"), "wall or cpu");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--directory-max-age", "-1"),
                "--directory-max-age must be positive");
    }

    @Test
    void anEnvironmentLabelWithoutAVariableOrWithATakenNameIsRefused() {
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--env-label", "=deploy"), "name an environment variable");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--env-label", "DEPLOY=pid"), "--env-label DEPLOY=pid");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--env-label", "ENV", "--tag", "env=prod"),
                "--env-label ENV=env");
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--env-label", "MY-VAR"), "give one, as MY-VAR=LABEL");
    }

    @Test
    void anOptionsFileThatIsADirectoryIsRefusedInOneLine(@TempDir Path dir) {
        RemoraCli run = RemoraCli.run("agent", "@" + dir);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("remora: options file %s cannot be read: a directory", dir);
    }

    @Test
    void anEscapedWordIsNoOptionsFile() {
        RemoraCli run = RemoraCli.run("agent", "@@missing.args");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("@missing.args").doesNotContain("options file");
    }

    @Test
    void anOptionsFileIsReadAsIfItsWordsWereOnTheCommandLine(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("agent.args"), """
                # what a service's unit names with @FILE
                --directory /tmp/remora-agent-options
                --tag team-name=x
                """);
        refused(List.of("agent", "@" + file), "--tag team-name");
    }

    @Test
    void anOptionsFileThatCannotBeReadIsNamedWithWhy(@TempDir Path dir) {
        RemoraCli run = RemoraCli.run("agent", "@" + dir.resolve("missing.args"));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err().lines().findFirst().orElse(""))
                .isEqualTo("remora: options file %s cannot be read: no such file", dir.resolve("missing.args"));
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void pyroscopesOwnOptionsWithoutPyroscopeAreRefused() {
        refused(List.of("agent", "--directory", "/tmp/remora-agent-options", "--tenant-id", "t"), "go with --pyroscope");
    }
}
