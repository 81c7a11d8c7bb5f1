package dev.remora.app.agent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServiceNamesTest {

    @Test
    void aScriptIsNamedWithoutItsDirectoryOrPySuffix() {
        assertThat(ServiceNames.derive(List.of("/usr/bin/python3", "-u", "/srv/shop/checkout.py", "--port", "80")))
                .isEqualTo("checkout");
    }

    @Test
    void aModuleIsNamedAsMinusMNamesIt() {
        assertThat(ServiceNames.derive(List.of("python3.12", "-X", "dev", "-m", "celery", "worker"))).isEqualTo("celery");
        assertThat(ServiceNames.derive(List.of("python3.12", "-mhttp.server"))).isEqualTo("http.server");
    }

    @Test
    void anOptionsValueIsNotTakenForTheScript() {
        assertThat(ServiceNames.derive(List.of("python3", "-W", "ignore", "app.py"))).isEqualTo("app");
    }

    @Test
    void aCommandStringOrAnEmbeddingProgramIsNamedByItsExecutable() {
        assertThat(ServiceNames.derive(List.of("/usr/bin/python3.11", "-c", "print(1)"))).isEqualTo("python3.11");
        assertThat(ServiceNames.derive(List.of("/usr/sbin/uwsgi", "--ini", "app.ini"))).isEqualTo("uwsgi");
    }

    @Test
    void aTemplateFillsItsPlaceholdersAndCleansWhatBackEndsRefuse() {
        assertThat(ServiceNames.expand("shop-{name}@{hostname}:{pid}", 42, List.of("python3", "web app.py"), "host1"))
                .isEqualTo("shop-web_app_host1_42");
    }

    @Test
    void anUnknownPlaceholderIsRefusedBeforeTheAgentStarts() {
        assertThatThrownBy(() -> ServiceNames.check("{service}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("{name}");
    }
}
