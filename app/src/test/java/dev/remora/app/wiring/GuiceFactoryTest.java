package dev.remora.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.AbstractModule;
import com.google.inject.CreationException;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** Commands come from the injector only when they take something; the injector may still be building. */
class GuiceFactoryTest {

    static final class Nothing {}

    record Source(String name) {}

    static final class TakesSource {
        final Source source;

        @Inject
        TakesSource(Source source) {
            this.source = source;
        }
    }

    /** Binds a source, but only once {@code release} is counted down. */
    private static final class SlowModule extends AbstractModule {
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        protected void configure() {
            try {
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            bind(Source.class).toInstance(new Source("bound"));
        }
    }

    @Test
    void aClassThatTakesNothingIsCreatedWhileTheInjectorIsStillBeingBuilt() throws Exception {
        SlowModule module = new SlowModule();
        AtomicBoolean afterwards = new AtomicBoolean();
        GuiceFactory factory = GuiceFactory.buildingInBackground(module, () -> afterwards.set(true));

        assertThat(factory.create(Nothing.class)).isNotNull();
        assertThat(module.release.getCount()).isEqualTo(1);

        module.release.countDown();
        assertThat(factory.create(TakesSource.class).source.name()).isEqualTo("bound");
    }

    @Test
    void whatRunsAfterTheInjectorRunsOnceItIsBuilt() throws Exception {
        SlowModule module = new SlowModule();
        CountDownLatch ran = new CountDownLatch(1);
        GuiceFactory.buildingInBackground(module, ran::countDown);

        assertThat(ran.await(200, TimeUnit.MILLISECONDS)).isFalse();
        module.release.countDown();
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void anInjectorThatFailsToBuildFailsTheCommandThatNeedsIt() {
        GuiceFactory factory = GuiceFactory.buildingInBackground(new AbstractModule() {
            @Override
            protected void configure() {
                bind(Source.class).toProvider(() -> null);
                addError("no sources here");
            }
        }, () -> {});

        assertThatThrownBy(() -> factory.create(TakesSource.class))
                .isInstanceOf(CreationException.class)
                .hasMessageContaining("no sources here");
    }

    @Test
    void aFailureOfWhatRunsAfterwardsStaysOnItsThread() throws Exception {
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        CountDownLatch uncaught = new CountDownLatch(1);
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> uncaught.countDown());
        try {
            CountDownLatch failed = new CountDownLatch(1);
            GuiceFactory factory = GuiceFactory.buildingInBackground(new AbstractModule() {
                @Override
                protected void configure() {
                    bind(Source.class).toInstance(new Source("bound"));
                }
            }, () -> {
                failed.countDown();
                throw new UnsupportedOperationException("no process_vm_readv here");
            });

            assertThat(factory.create(TakesSource.class).source.name()).isEqualTo("bound");
            assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(uncaught.await(500, TimeUnit.MILLISECONDS)).isFalse();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
