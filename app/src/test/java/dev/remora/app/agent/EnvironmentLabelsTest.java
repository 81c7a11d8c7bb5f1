package dev.remora.app.agent;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Labels from each process's own environment (--env-label), and the environment as /proc gives it. */
class EnvironmentLabelsTest {

    private static final List<String> COMMAND = List.of("/usr/bin/python3", "/srv/app.py");

    private static LabelSettings settings(Map<String, String> tags, Map<String, String> fromEnvironment) {
        return new LabelSettings("{name}", tags, fromEnvironment, Set.of(), "host-1");
    }

    @Test
    void aVariableTheProcessHasBecomesItsLabelAndOneItLacksOrHoldsEmptyGivesNone() {
        LabelSettings settings = settings(Map.of(), Map.of("DEPLOY", "deploy", "REGION", "region", "TEAM", "team"));

        ProcessLabels labels = settings.of(42, COMMAND, "3.12.1", Map.of("DEPLOY", "blue", "TEAM", ""));

        assertThat(labels.labels()).containsEntry("deploy", "blue").doesNotContainKeys("region", "team")
                .containsEntry("pid", "42");
    }

    @Test
    void aLongValueIsCut() {
        LabelSettings settings = settings(Map.of(), Map.of("BUILD", "build"));

        ProcessLabels labels = settings.of(42, COMMAND, "3.12.1", Map.of("BUILD", "x".repeat(10_000)));

        assertThat(labels.labels().get("build")).hasSize(LabelSettings.MAX_ENVIRONMENT_VALUE);
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        LabelSettings settings = settings(Map.of(), Map.of("BUILD", "build"));
        String value = "x".repeat(LabelSettings.MAX_ENVIRONMENT_VALUE - 1) + "\uD83D\uDE00" + "tail";

        String label = settings.of(42, COMMAND, "3.12.1", Map.of("BUILD", value)).labels().get("build");

        assertThat(label).isEqualTo("x".repeat(LabelSettings.MAX_ENVIRONMENT_VALUE - 1));
    }

    @Test
    void twoVariablesGivingOneLabelAreRefused() {
        assertThatThrownBy(() -> settings(Map.of(), Map.of("DEPLOY", "deploy", "COLOR", "deploy")))
                .hasMessageContaining("two variables give the label deploy");
    }

    @Test
    void aLabelNameThatIsNoLabelsOrIsTakenIsRefused() {
        assertThatThrownBy(() -> settings(Map.of(), Map.of("X", "has-dash"))).hasMessageContaining("--env-label X=has-dash");
        assertThatThrownBy(() -> settings(Map.of(), Map.of("X", "pid"))).hasMessageContaining("--env-label X=pid");
        assertThatThrownBy(() -> settings(Map.of(), Map.of("X", "service_name"))).hasMessageContaining("--env-label");
        assertThatThrownBy(() -> settings(Map.of("env", "prod"), Map.of("ENV", "env"))).hasMessageContaining("--tag");
    }

    @Test
    void theEnvironmentIsReadFromItsEntriesWhateverLiesAmongThem() {
        byte[] environ = "A=1\0NOEQUALS\0\0=x\0B=two=parts\0A=second\0C=\0D=last-without-nul".getBytes(StandardCharsets.UTF_8);

        Map<String, String> found = ProcessEnvironment.parse(environ, Set.of("A", "B", "C", "D", "NOEQUALS", ""));

        assertThat(found).containsExactlyInAnyOrderEntriesOf(Map.of("A", "1", "B", "two=parts", "C", "", "D", "last-without-nul"));
    }

    @Test
    void aProcesssEnvironmentIsWhatItWasStartedWith() throws Exception {
        ProcessBuilder start = new ProcessBuilder("sleep", "30");
        start.environment().put("REMORA_TEST_DEPLOY", "blue");
        Process child = start.start();
        try {
            int pid = (int) child.pid();

            assertThat(ProcessEnvironment.of(pid, Set.of("REMORA_TEST_DEPLOY", "REMORA_TEST_ABSENT")))
                    .containsExactly(Map.entry("REMORA_TEST_DEPLOY", "blue"));
            assertThat(ProcessEnvironment.of(pid, Set.of())).isEmpty();
            assertThat(ProcessEnvironment.of(Integer.MAX_VALUE, Set.of("REMORA_TEST_DEPLOY"))).as("no such process").isEmpty();
        } finally {
            child.destroyForcibly().waitFor();
        }
    }
}
