package dev.remora.archtests;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The layering of Remora: ports (JDK only) <- domain (pure logic) <- adapters (one per way of
 * reading a target, independent of each other) <- app (CLI and wiring). Rules keep ArchUnit's
 * default of failing when a rule selects no classes, so a renamed package cannot make them pass
 * vacuously.
 *
 * <p>Rules are checked from {@code @ArchTest} methods rather than {@code @ArchTest} fields:
 * Surefire 3.5.3 silently skips field-based ArchUnit tests (TNG/ArchUnit#1442).
 */
@AnalyzeClasses(packages = "dev.remora", importOptions = ImportOption.DoNotIncludeTests.class)
public class LayeringTest {

    static final String PORTS = "dev.remora.ports..";
    static final String DOMAIN = "dev.remora.domain..";
    static final String ADAPTERS = "dev.remora.adapters..";
    static final String APP = "dev.remora.app..";

    /** Guice (and the jakarta/javax.inject annotations it reads) and picocli: wiring and CLI only. */
    static final String[] FRAMEWORKS = {"com.google.inject..", "jakarta.inject..", "javax.inject..", "picocli.."};

    /** JDK APIs that reach the file system, the network or native memory: adapters' business. */
    static final DescribedPredicate<JavaClass> JDK_IO = resideInAnyPackage(
                    "java.nio.file..", "java.nio.channels..", "java.net..", "java.lang.foreign..")
            .or(resideInAPackage("java.io").and(simpleNameStartingWith("File")))
            .or(name("java.io.RandomAccessFile"))
            .as("file system, network or native access (java.io.File*, java.io.RandomAccessFile,"
                    + " java.nio.file, java.nio.channels, java.net, java.lang.foreign)");

    static final ArchRule DOMAIN_USES_ONLY_PORTS_AND_PLAIN_JDK = classes()
            .that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat(
                    resideInAnyPackage(DOMAIN, PORTS, "java..").and(not(JDK_IO))
                            .as("reside in domain, ports or java.. without " + JDK_IO.getDescription()))
            .because("the domain interprets bytes it is given; reading them is the adapters' job");

    static final ArchRule PORTS_USE_ONLY_JDK = classes()
            .that().resideInAPackage(PORTS)
            .should().onlyDependOnClassesThat().resideInAnyPackage(PORTS, "java..")
            .because("ports are the plain-JDK contract every other module builds on");

    static final ArchRule ADAPTERS_ARE_INDEPENDENT_OF_EACH_OTHER = slices()
            .matching("dev.remora.adapters.(*)..")
            .namingSlices("adapter $1")
            .should().notDependOnEachOther()
            .because("each adapter implements the ports on its own and is chosen by the app");

    static final ArchRule ADAPTERS_DEPEND_NEITHER_ON_DOMAIN_NOR_APP = noClasses()
            .that().resideInAPackage(ADAPTERS)
            .should().dependOnClassesThat().resideInAnyPackage(DOMAIN, APP)
            .because("adapters implement ports; only the app combines them with the domain");

    static final ArchRule ONLY_APP_USES_DI_AND_CLI_FRAMEWORKS = noClasses()
            .that().resideOutsideOfPackage(APP)
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("wiring and command line parsing live in the app module only");

    static final ArchRule NOTHING_DEPENDS_ON_APP = noClasses()
            .that().resideOutsideOfPackage(APP)
            .should().dependOnClassesThat().resideInAPackage(APP)
            .because("the app is the outermost layer");

    static final ArchRule TOP_LEVEL_PACKAGES_ARE_FREE_OF_CYCLES = slices()
            .matching("dev.remora.(*)..")
            .should().beFreeOfCycles();

    static final ArchRule DOMAIN_PACKAGES_ARE_FREE_OF_CYCLES = slices()
            .matching("dev.remora.domain.(*)..")
            .should().beFreeOfCycles()
            .because("each part of the domain (walk, asyncio, profile, ...) can be read on its own, from the bottom up");

    static final ArchRule PROFILE_FORMATS_ARE_INDEPENDENT_OF_EACH_OTHER = slices()
            .matching("dev.remora.app.output.profile.(*)..")
            .should().notDependOnEachOther()
            .because("each output format is written by its own package, sharing only what sits above them");

    /** The annotations Guice injects by; named, so the rules need no compile-time dependency on them. */
    static final String[] INJECT_ANNOTATIONS = {"jakarta.inject.Inject", "com.google.inject.Inject"};

    static final ArchRule NO_FIELD_IS_INJECTED = noFields()
            .should().beAnnotatedWith(INJECT_ANNOTATIONS[0]).orShould().beAnnotatedWith(INJECT_ANNOTATIONS[1])
            .because("picocli's factory creates a class with no constructor parameters itself, without the injector"
                    + " (GuiceFactory): what it needs must come through its constructor");

    static final ArchRule NO_METHOD_IS_INJECTED = noMethods()
            .should().beAnnotatedWith(INJECT_ANNOTATIONS[0]).orShould().beAnnotatedWith(INJECT_ANNOTATIONS[1])
            .because("picocli's factory creates a class with no constructor parameters itself, without the injector"
                    + " (GuiceFactory): what it needs must come through its constructor");

    @ArchTest
    static void dependenciesAreInjectedThroughConstructorsOnly(JavaClasses classes) {
        NO_FIELD_IS_INJECTED.check(classes);
        NO_METHOD_IS_INJECTED.check(classes);
    }

    @ArchTest
    static void profileFormatsAreIndependentOfEachOther(JavaClasses classes) {
        PROFILE_FORMATS_ARE_INDEPENDENT_OF_EACH_OTHER.check(classes);
    }

    @ArchTest
    static void domainUsesOnlyPortsAndPlainJdk(JavaClasses classes) {
        DOMAIN_USES_ONLY_PORTS_AND_PLAIN_JDK.check(classes);
    }

    @ArchTest
    static void portsUseOnlyJdk(JavaClasses classes) {
        PORTS_USE_ONLY_JDK.check(classes);
    }

    @ArchTest
    static void adaptersAreIndependentOfEachOther(JavaClasses classes) {
        ADAPTERS_ARE_INDEPENDENT_OF_EACH_OTHER.check(classes);
    }

    @ArchTest
    static void adaptersDependNeitherOnDomainNorApp(JavaClasses classes) {
        ADAPTERS_DEPEND_NEITHER_ON_DOMAIN_NOR_APP.check(classes);
    }

    @ArchTest
    static void onlyAppUsesDiAndCliFrameworks(JavaClasses classes) {
        ONLY_APP_USES_DI_AND_CLI_FRAMEWORKS.check(classes);
    }

    @ArchTest
    static void nothingDependsOnApp(JavaClasses classes) {
        NOTHING_DEPENDS_ON_APP.check(classes);
    }

    @ArchTest
    static void topLevelPackagesAreFreeOfCycles(JavaClasses classes) {
        TOP_LEVEL_PACKAGES_ARE_FREE_OF_CYCLES.check(classes);
    }

    @ArchTest
    static void domainPackagesAreFreeOfCycles(JavaClasses classes) {
        DOMAIN_PACKAGES_ARE_FREE_OF_CYCLES.check(classes);
    }

    /** Guards against the import silently missing a layer, which would make the rules above weaker. */
    @ArchTest
    static void importsEveryLayerAndNoTestCode(JavaClasses classes) {
        for (String layer : new String[] {PORTS, DOMAIN, APP}) {
            assertThat(classes.that(resideInAPackage(layer)))
                    .as("imported classes in %s", layer)
                    .isNotEmpty();
        }
        assertThat(classes.that(resideInAPackage("..archfixture..")))
                .as("test fixtures must not be part of the analysed code")
                .isEmpty();
    }
}
