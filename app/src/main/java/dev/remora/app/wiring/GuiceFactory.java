package dev.remora.app.wiring;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import picocli.CommandLine;

import java.lang.reflect.Constructor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;

/**
 * Creates picocli's commands and mixins: those whose constructor takes what they need come from the
 * run's one injector; those with nothing to inject, and picocli's own helpers (collections,
 * converters), from picocli's default factory. Remora injects through constructors only (an
 * architecture rule holds it to that), so a class whose constructors take nothing has nothing Guice
 * would give it.
 */
public final class GuiceFactory implements CommandLine.IFactory {

    private static final String OWN_CLASSES = "dev.remora.";

    private final Supplier<Injector> injector;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    public GuiceFactory(Injector injector) {
        this.injector = () -> injector;
    }

    private GuiceFactory(Supplier<Injector> injector) {
        this.injector = injector;
    }

    /**
     * A factory whose injector is built on a thread of its own while picocli reads the commands, which
     * need it only for the few classes that take dependencies; {@code afterwards} runs on that thread
     * once the injector is built (work a start would otherwise wait for).
     */
    public static GuiceFactory buildingInBackground(Module module, Runnable afterwards) {
        // A FutureTask, not a CompletableFuture: the latter's class init sets up the common fork-join pool.
        FutureTask<Injector> built = new FutureTask<>(() -> Guice.createInjector(module));
        Thread.ofPlatform().daemon().name("remora-wiring").start(() -> {
            built.run();
            try {
                afterwards.run();
            } catch (RuntimeException | LinkageError e) {
                // Only a head start: the command that needs the work meets the failure itself and says why.
            }
        });
        return new GuiceFactory(() -> {
            try {
                return built.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the injector was built", e);
            }
        });
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        return type.getName().startsWith(OWN_CLASSES) && takesDependencies(type)
                ? injector.get().getInstance(type)
                : fallback.create(type);
    }

    private static boolean takesDependencies(Class<?> type) {
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (constructor.getParameterCount() > 0) {
                return true;
            }
        }
        return false;
    }
}
