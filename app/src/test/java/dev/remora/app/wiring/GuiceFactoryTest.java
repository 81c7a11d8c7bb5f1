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
import java.util.concurrent.atomic.AtomicReference;

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
            configured = true;
        }

        volatile boolean configured;
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
        AtomicBoolean afterConfigure = new AtomicBoolean();
        GuiceFactory.buildingInBackground(module, () -> {
            afterConfigure.set(module.configured);
            ran.countDown();
        });

        module.release.countDown();
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(afterConfigure).as("the module was configured before it ran").isTrue();
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
            AtomicReference<Thread> wiring = new AtomicReference<>();
            GuiceFactory factory = GuiceFactory.buildingInBackground(new AbstractModule() {
                @Override
                protected void configure() {
                    bind(Source.class).toInstance(new Source("bound"));
                }
            }, () -> {
                wiring.set(Thread.currentThread());
                failed.countDown();
                throw new UnsupportedOperationException("no process_vm_readv here");
            });

            assertThat(factory.create(TakesSource.class).source.name()).isEqualTo("bound");
            assertThat(failed.await(30, TimeUnit.SECONDS)).isTrue();
            // An uncaught exception reaches the handler on its own thread before that thread ends.
            wiring.get().join();
            assertThat(uncaught.getCount()).as("failures given to the default handler").isEqualTo(1);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
