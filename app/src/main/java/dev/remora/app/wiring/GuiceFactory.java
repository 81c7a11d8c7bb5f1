package dev.remora.app.wiring;

import com.google.inject.Injector;
import picocli.CommandLine;

/**
 * Creates picocli's commands and mixins through the run's one injector, so they get what they
 * {@code @Inject}; picocli's own helpers (collections, converters) come from its default factory.
 */
public final class GuiceFactory implements CommandLine.IFactory {

    private static final String OWN_CLASSES = "dev.remora.";

    private final Injector injector;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    public GuiceFactory(Injector injector) {
        this.injector = injector;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        return type.getName().startsWith(OWN_CLASSES) ? injector.getInstance(type) : fallback.create(type);
    }
}
