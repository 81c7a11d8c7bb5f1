package dev.remora.app.cli;

import dev.remora.domain.InspectionException;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.nativestack.CFramesVisitor;
import dev.remora.domain.nativestack.InternalFrames;
import dev.remora.domain.nativestack.NativeUnwinder;
import dev.remora.domain.nativestack.StackMerge;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessStopper;
import dev.remora.ports.RemoteMemory;

/**
 * {@code --native-frames} in a profile: each sample of the stopped target gets its threads' C frames,
 * from their registers. The mappings are read again when the target may have loaded a library since
 * (once a second at most), and the library files parsed once for the whole run.
 */
final class NativeSamples {

    private static final long MAPPINGS_EVERY_NANOS = 1_000_000_000L;

    private final ProcessImage image;
    private final RemoteMemory memory;
    private final PythonProcess process;
    private final StackMerge merge;
    private final ProcessStopper stopper;
    private NativeUnwinder unwinder;
    private long mappingsRead;

    NativeSamples(ProcessImage image, RemoteMemory memory, PythonProcess process, InternalFrames internal, ProcessStopper stopper) {
        this.image = image;
        this.memory = memory;
        this.process = process;
        this.merge = new StackMerge(process.interpreterFile(), internal);
        this.stopper = stopper;
    }

    /** The visitor for one sample, read while the target is stopped. */
    StackVisitor around(StackVisitor builder) throws InspectionException {
        long now = System.nanoTime();
        if (unwinder == null || now - mappingsRead > MAPPINGS_EVERY_NANOS) {
            unwinder = NativeStacksReader.unwinder(image, memory, unwinder);
            mappingsRead = now;
        }
        return new CFramesVisitor(builder, unwinder, merge, process.evalCalls(), stopper::registers);
    }
}
