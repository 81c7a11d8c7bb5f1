package dev.remora.app.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;

/** Remora's one module, installed once per run: where commands get their targets from. */
public final class RemoraModule extends AbstractModule {
    @Override
    protected void configure() {
        bind(TargetSource.class).to(AdapterTargets.class).in(Singleton.class);
    }
}
