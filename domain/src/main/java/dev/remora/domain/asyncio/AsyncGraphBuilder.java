package dev.remora.domain.asyncio;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.locals.FrameVariablesReader;
import dev.remora.domain.InspectionException.AsyncioUnavailable;
import dev.remora.domain.InspectionException.AsyncioUnavailable.Reason;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsLayout;
import dev.remora.domain.threads.Interpreters;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.ProcessImage;

import java.util.List;
import java.util.Optional;

/**
 * Reads the asyncio task graph of an attached process: which tasks exist, where each one's
 * coroutines are suspended, and which tasks wait on which. Asyncio's layout comes from its
 * {@code AsyncioDebug} section, looked for again on each reading until the target has imported
 * asyncio. Not thread-safe: it shares the process's reader.
 */
public final class AsyncGraphBuilder {

    /**
     * A running target changes under a reading; attempts right after one another usually give a
     * clean one (each starts with one batched read of what the last one read). Waiting between
     * attempts made a churning loop fail more often, not less.
     */
    private static final int ATTEMPTS = 20;
    /** The C module that keeps tasks where this reader finds them. */
    private static final String ASYNCIO_MODULE = "_asyncio";
    /** A field only the CPython versions that export asyncio's layout have. */
    private static final String FIRST_ASYNCIO_FIELD = "gen_object.gi_iframe";

    private final ProcessImage image;
    private final SnapshotReader reader;
    private final ObjectReader objects;
    private final DebugOffsets offsets;
    private final Interpreters interpreters;
    private final CodeResolver codes;
    private AsyncioOffsets asyncio;
    /** Whether the target is known to have imported asyncio (it cannot un-import its C module). */
    private boolean imported;

    /**
     * @param reader the process's reader; it is reset before each reading
     * @param interpreters the process's interpreters and threads, read with {@code reader}
     */
    public AsyncGraphBuilder(ProcessImage image, SnapshotReader reader, ObjectReader objects, DebugOffsets offsets,
                             Interpreters interpreters, CodeResolver codes) {
        this.image = image;
        this.reader = reader;
        this.objects = objects;
        this.offsets = offsets;
        this.interpreters = interpreters;
        this.codes = codes;
    }

    /** A builder whose asyncio layout is already known, for tests without ELF files to search. */
    static AsyncGraphBuilder withLayout(ProcessImage image, SnapshotReader reader, ObjectReader objects,
                                        DebugOffsets offsets, Interpreters interpreters, CodeResolver codes,
                                        AsyncioOffsets layout) {
        AsyncGraphBuilder builder = new AsyncGraphBuilder(image, reader, objects, offsets, interpreters, codes);
        builder.asyncio = layout;
        builder.imported = true;
        return builder;
    }

    /**
     * One consistent reading of the task graph.
     *
     * @throws AsyncioUnavailable when the target's CPython exports no asyncio layout (before 3.14) or
     *     the target has not imported asyncio
     * @throws InspectionException.CorruptTarget when no attempt read a graph that holds together
     */
    public AsyncSnapshot snapshot(AsyncMode mode) throws InspectionException {
        return snapshot(mode, Optional.empty());
    }

    /** As {@link #snapshot(AsyncMode)}; with {@code variables}, each task frame's variables too. */
    public AsyncSnapshot snapshot(AsyncMode mode, Optional<FrameVariablesReader> variables) throws InspectionException {
        requireSupportedVersion();
        AsyncContext context = new AsyncContext(reader, objects, offsets, layout(), codes);
        String problem = "";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            reader.reset();
            codes.newReading();
            try {
                return read(context, mode, variables);
            } catch (InconsistentGraph | MalformedObjectException e) {
                problem = e.getMessage();
            } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                problem = e.getMessage();
            } catch (MemoryAccessException e) {
                throw Failures.from(e, image.pid());
            }
        }
        throw new InspectionException.CorruptTarget("the asyncio tasks of process %d could not be read consistently in %d attempts: %s"
                .formatted(image.pid(), ATTEMPTS, problem));
    }

    private AsyncSnapshot read(AsyncContext context, AsyncMode mode, Optional<FrameVariablesReader> variables)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph, InspectionException {
        Interpreters.Listing listing = interpreters.listing();
        TypeFacts types = new TypeFacts(reader, offsets);
        if (!imported) {
            if (!SysModules.anyHas(context, types, listing.interpreters(), ASYNCIO_MODULE)) {
                throw new AsyncioUnavailable(Reason.NOT_IMPORTED, "process %d has not imported asyncio (no %s in sys.modules)"
                        .formatted(image.pid(), ASYNCIO_MODULE));
            }
            imported = true;
        }
        GraphReading graph = new GraphReading(context, types, variables);
        List<AsyncThread> threads = switch (mode) {
            case ALL -> graph.all(listing);
            case RUNNING -> graph.running(listing);
        };
        return new AsyncSnapshot(image.pid(), offsets.version(), mode, threads);
    }

    /** Asyncio's layout needs the generator, list and set records that came with 3.14's debug offsets. */
    private void requireSupportedVersion() throws AsyncioUnavailable {
        if (offsets.generator().isEmpty() || offsets.llistNode().isEmpty() || offsets.set().isEmpty()
                || offsets.frame().stackPointer().isEmpty() || offsets.layout().awaitedStackDepth().isEmpty()) {
            throw new AsyncioUnavailable(Reason.NEEDS_NEWER_PYTHON,
                    "asyncio introspection needs CPython %s or newer (process %d runs %s)".formatted(
                            DebugOffsetsLayout.firstWith(FIRST_ASYNCIO_FIELD).orElse("a newer version"),
                            image.pid(), offsets.version()));
        }
    }

    /** The section, found once; where it lives in asyncio's own module, that proves the import. */
    private AsyncioOffsets layout() throws InspectionException {
        if (asyncio == null) {
            Optional<AsyncioSection.Found> found = AsyncioSection.find(image, reader.memory(), offsets);
            if (found.isEmpty()) {
                throw new AsyncioUnavailable(Reason.NOT_IMPORTED, "process %d has not imported asyncio (no %s section mapped)"
                        .formatted(image.pid(), AsyncioSection.NAME.substring(1)));
            }
            asyncio = found.get().offsets();
            imported = found.get().inModule();
        }
        return asyncio;
    }
}
