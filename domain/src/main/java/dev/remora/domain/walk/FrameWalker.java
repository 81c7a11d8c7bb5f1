package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.ports.MemoryAccessException;

import java.util.Optional;

/**
 * Walks one thread's chain of {@code _PyInterpreterFrame}s from its current frame outwards. Entry and
 * C-stack frames carry no Python code: they are skipped (or shown as {@code <native>}) and the walk
 * goes on through them.
 */
final class FrameWalker {

    private static final Optional<String> CHANGED = Optional.of("the stack changed while it was read");

    /** Deeper than any real stack (Python frames do not use the C stack since 3.11). */
    static final int MAX_DEPTH = 1 << 18;

    private final SnapshotReader reader;
    private final DebugOffsets.Frame offsets;
    private final VersionLayout layout;
    private final byte[] frame;
    private final ChainGuard guard = new ChainGuard(MAX_DEPTH, 0);
    private final ChainCheck check;
    private final byte[] codeUnit = new byte[2];
    private final boolean[] entryOwner = new boolean[256];

    FrameWalker(SnapshotReader reader, DebugOffsets offsets) {
        this.reader = reader;
        this.offsets = offsets.frame();
        this.layout = offsets.layout();
        this.frame = new byte[(int) this.offsets.size()];
        this.check = new ChainCheck(offsets);
        // Asked for every frame of every sample: a table instead of the layout's list.
        for (int owner = 0; owner < entryOwner.length; owner++) {
            entryOwner[owner] = layout.isEntryFrameOwner(owner);
        }
    }

    /**
     * Sends the thread's frames, innermost first, to {@code visitor}.
     *
     * @param gcFrame the frame that started a running garbage collection, or 0
     * @return why the walk stopped early, if it did
     */
    Optional<String> walk(long first, long currentFrameField, CodeObjects codes, FrameCache cache,
                          SnapshotOptions options, long gcFrame, StackVisitor visitor) throws MemoryAccessException {
        ChainGuard guard = this.guard.restart(MAX_DEPTH, first);
        long address = first;
        int emitted = 0;
        check.begin();
        try {
            while (address != 0) {
                reader.read(address, frame, 0, frame.length);
                check.add(address, Bytes.getLong(frame, offsets.previous()), Bytes.getLong(frame, offsets.executable()),
                        Bytes.getLong(frame, offsets.instrPtr()));
                int owner = frame[(int) offsets.owner()] & 0xFF;
                if (owner > layout.maxFrameOwner()) {
                    return Optional.of("frame at 0x%x has an invalid owner %d".formatted(address, owner));
                }
                long executable = layout.untagExecutable(Bytes.getLong(frame, offsets.executable()));
                long previous = Bytes.getLong(frame, offsets.previous());
                if (entryOwner[owner]) {
                    // C code called back into Python here; mark it only between two Python frames.
                    if (options.nativeFrames() && emitted > 0 && previous != 0 && previous != gcFrame) {
                        visitor.frame(PseudoFrames.NATIVE);
                        emitted++;
                    }
                } else if (executable != 0) {
                    if (options.gcFrames() && address == gcFrame) {
                        visitor.frame(PseudoFrames.GC);
                    }
                    long instrPtr = Bytes.getLong(frame, offsets.instrPtr());
                    if (options.opcodes() && emitted == 0) {
                        // Straight from the target: the address moves every sample and must not join the replayed ranges.
                        reader.memory().read(instrPtr, codeUnit, 0, 2);
                        visitor.opcode(layout.opcodeName(Bytes.getUnsignedShort(codeUnit, 0)));
                    }
                    visitor.frame(resolve(codes, cache, address, executable, instrPtr));
                    emitted++;
                }
                if (previous != 0 && !guard.step(previous)) {
                    return Optional.of(guard.tooLong()
                            ? "stack deeper than %d frames".formatted(MAX_DEPTH)
                            : "frame chain loops at 0x%x".formatted(previous));
                }
                address = previous;
            }
            return check.holds(reader, currentFrameField, first) ? Optional.empty() : CHANGED;
        } catch (MalformedObjectException e) {
            return Optional.of(e.getMessage());
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            // The target moved on under the walk, or the chain is garbage: report, don't fail the snapshot.
            return Optional.of("stack unreadable at 0x%x after %d frames: %s".formatted(address, emitted, e.getMessage()));
        } finally {
            cache.finishWalk();
        }
    }

    private static FrameInfo resolve(CodeObjects codes, FrameCache cache, long address, long executable, long instrPtr)
            throws MemoryAccessException, MalformedObjectException {
        FrameInfo known = cache.lookup(address, executable, instrPtr, codes.epoch());
        if (known == null) {
            known = codes.get(executable).frameAt(instrPtr);
            // Read the epoch after get(): decoding may itself have dropped the cache.
            cache.remember(address, executable, instrPtr, codes.epoch(), known);
        }
        return known;
    }
}
