package dev.remora.archtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.remora.adapters.procmem.archfixture.OtherAdapterType;
import dev.remora.adapters.vmreadv.archfixture.ReachesIntoOtherAdapter;
import dev.remora.app.archfixture.InjectedMembers;
import dev.remora.domain.archfixture.CleanDomainCode;
import dev.remora.domain.archfixture.ReadsFileSystem;
import dev.remora.domain.archfixtureleft.Left;
import dev.remora.domain.archfixtureright.Right;
import org.junit.jupiter.api.Test;

/** Shows the rules catch what they are meant to, using small fixture classes from the test sources. */
class LayeringRulesDetectViolationsTest {

    private static JavaClasses importClasses(Class<?>... classes) {
        return new ClassFileImporter().importClasses(classes);
    }

    @Test
    void domainRuleReportsFileSystemAccess() {
        EvaluationResult result = LayeringTest.DOMAIN_USES_ONLY_PORTS_AND_PLAIN_JDK
                .evaluate(importClasses(ReadsFileSystem.class));

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(line -> line.contains("java.nio.file.Files"))
                .anyMatch(line -> line.contains("java.io.File"));
    }

    @Test
    void domainRuleAcceptsPlainJdkAndPorts() {
        EvaluationResult result = LayeringTest.DOMAIN_USES_ONLY_PORTS_AND_PLAIN_JDK
                .evaluate(importClasses(CleanDomainCode.class));

        assertThat(result.getFailureReport().getDetails()).isEmpty();
    }

    @Test
    void adapterRulesReportCrossAdapterAndDomainUse() {
        JavaClasses classes = importClasses(ReachesIntoOtherAdapter.class, OtherAdapterType.class);

        assertThat(LayeringTest.ADAPTERS_ARE_INDEPENDENT_OF_EACH_OTHER.evaluate(classes).hasViolation()).isTrue();
        assertThat(LayeringTest.ADAPTERS_DEPEND_NEITHER_ON_DOMAIN_NOR_APP.evaluate(classes).hasViolation()).isTrue();
    }

    @Test
    void domainCycleRuleReportsTwoPackagesUsingEachOther() {
        EvaluationResult result = LayeringTest.DOMAIN_PACKAGES_ARE_FREE_OF_CYCLES
                .evaluate(importClasses(Left.class, Right.class));

        assertThat(result.hasViolation()).isTrue();
    }

    @Test
    void injectionRulesReportAnInjectedFieldAndMethod() {
        JavaClasses classes = importClasses(InjectedMembers.class);

        assertThat(LayeringTest.NO_FIELD_IS_INJECTED.evaluate(classes).getFailureReport().getDetails())
                .anyMatch(line -> line.contains("InjectedMembers.source"));
        assertThat(LayeringTest.NO_METHOD_IS_INJECTED.evaluate(classes).getFailureReport().getDetails())
                .anyMatch(line -> line.contains("InjectedMembers.setSource"));
    }
}
