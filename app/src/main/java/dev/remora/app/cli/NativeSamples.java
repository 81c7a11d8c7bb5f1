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
 * (once a second at most, while it runs), and the library files parsed once for the whole run.
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

    NativeSamples(ProcessImage image, RemoteMemory memory, PythonProcess process, InternalFrames internal,
                  ProcessStopper stopper) throws InspectionException {
        this.image = image;
        this.memory = memory;
        this.process = process;
        this.merge = new StackMerge(process.interpreterFile(), internal);
        this.stopper = stopper;
        this.unwinder = NativeStacksReader.unwinder(image, memory, null);
        this.mappingsRead = System.nanoTime();
    }

    /** The visitor for one sample, read while the target is stopped; {@link #afterResume} sends it on. */
    CFramesVisitor around(StackVisitor builder) throws InspectionException {
        return new CFramesVisitor(builder, unwinder, merge, process.evalCalls(), stopper::registers);
    }

    /** Once the target runs again: the sample's C frames, then the mappings if they are due. */
    void afterResume(CFramesVisitor sample) {
        sample.flush();
        long now = System.nanoTime();
        if (now - mappingsRead > MAPPINGS_EVERY_NANOS) {
            try {
                unwinder = NativeStacksReader.unwinder(image, memory, unwinder);
            } catch (InspectionException e) {
                // The target went away or hid its mappings: the next stop says so.
            }
            mappingsRead = now;
        }
    }
}
