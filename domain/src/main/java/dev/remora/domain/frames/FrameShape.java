package dev.remora.domain.frames;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.FrameOwners;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.ports.MemoryAccessException;

/**
 * How to read a frame's header: one implementation per shape of frame CPython has had, so that the
 * walk, the stack copy's checks and asyncio's readers read frames through one decoder and carry no
 * version branches of their own. Every method reads the header that starts at {@code at} in
 * {@code bytes}.
 */
public abstract sealed class FrameShape permits FrameObjects, InterpreterFrames {

    /** Frames in a chain deeper than any real stack (Python frames do not use the C stack since 3.11): garbage. */
    public static final int MAX_DEPTH = 1 << 18;

    private final DebugOffsets.Frame offsets;
    private final VersionLayout layout;
    private final FrameOwners owners;
    /** Asked for every frame of every sample: tables instead of the layout's lists. */
    private final boolean[] entryOwner = new boolean[256];
    private final boolean[] bottomOwner = new boolean[256];

    FrameShape(DebugOffsets.Frame offsets, VersionLayout layout) {
        this.offsets = offsets;
        this.layout = layout;
        this.owners = layout.owners();
        for (int owner = 0; owner < entryOwner.length; owner++) {
            entryOwner[owner] = owners.isEntry(owner);
            bottomOwner[owner] = owners.isBottom(owner);
        }
    }

    /** The shape of {@code offsets}' frames: 3.10's heap frame objects, or the interpreter frames of 3.11 on. */
    public static FrameShape of(DebugOffsets offsets) {
        return offsets.frame().frameObject().isPresent() ? new FrameObjects(offsets) : new InterpreterFrames(offsets);
    }

    /** The bytes of a header. */
    public final int size() {
        return (int) offsets.size();
    }

    /** The caller's frame, or 0. */
    public final long previous(byte[] bytes, int at) {
        return Bytes.getLong(bytes, at + (int) offsets.previous());
    }

    /** The code object as stored, tag bits included (3.14+ keeps a tagged stack reference). */
    public final long rawExecutable(byte[] bytes, int at) {
        return Bytes.getLong(bytes, at + (int) offsets.executable());
    }

    /** The code object's address. */
    public final long executable(byte[] bytes, int at) {
        return layout.untagStackRef(rawExecutable(bytes, at));
    }

    /** The code object a stored (maybe tagged) reference names. */
    public final long untag(long rawExecutable) {
        return layout.untagStackRef(rawExecutable);
    }

    /** The instruction the frame is at, as an address (3.10's index stands in as one: see {@link FrameObjects}). */
    public abstract long instrPtr(byte[] bytes, int at);

    /**
     * Whether the frame has made a call from its own eval loop (its {@code return_offset} is set by the
     * call, and 0 in a frame just pushed); {@link CallsMade#UNKNOWN} where the layout does not say.
     */
    public final CallsMade callsMade(byte[] bytes, int at) {
        if (offsets.returnOffset().isEmpty()) {
            return CallsMade.UNKNOWN;
        }
        return Bytes.getUnsignedShort(bytes, at + (int) offsets.returnOffset().getAsLong()) == 0 ? CallsMade.NONE : CallsMade.SOME;
    }

    /** What a frame's {@code return_offset} says of the calls it made. */
    public enum CallsMade {
        /** It has called a Python function (or resumed a generator) from its eval loop. */
        SOME,
        /** Just pushed, or its last call raised: it is no Python frame's caller now. */
        NONE,
        /** The layout does not say where {@code return_offset} lies (3.13 and before). */
        UNKNOWN
    }

    /** Who owns the frame ({@link FrameOwners}); a value above {@link #validOwner} marks garbage. */
    public abstract int owner(byte[] bytes, int at);

    public final boolean validOwner(int owner) {
        return owner <= owners.max();
    }

    /** Whether a frame of this owner is an entry frame C code pushed: no Python code of its own. */
    public final boolean entry(int owner) {
        return entryOwner[owner];
    }

    /** Whether a frame of this owner can be the first of a thread's stack. */
    public final boolean bottom(int owner) {
        return bottomOwner[owner];
    }

    /** Whether the frame lives on the thread's data stack (not in a generator, nor on the C stack). */
    public final boolean onThreadStack(int owner) {
        return owner == owners.thread();
    }

    /** Whether the frame is owned by a generator or coroutine (3.11+; 3.10 cannot tell). */
    public final boolean ownedByGenerator(int owner) {
        return owner == owners.generator();
    }

    /** What the frame's link to its caller may do while the frame lives. */
    public abstract CallerLink callerLink(int owner);

    /**
     * Whether a frame that is not the innermost one, read on its own, can still be a caller in a
     * thread's chain (3.10: its state; later shapes cannot tell).
     */
    public abstract boolean mayBeCaller(byte[] bytes, int at);

    /**
     * Whether the frame holds a call in progress, as its slot read: its code set (3.14+ clears it as the
     * frame returns). 3.10 keeps the code of a freed frame object, whose state says it no longer runs.
     */
    public boolean running(byte[] bytes, int at) {
        return executable(bytes, at) != 0;
    }

    /**
     * Whether the frame reads as a frame object freed after its call returned (3.10 keeps the code of a
     * freed one, and reuses it for a later call). Later shapes' frames are slots, never freed apart.
     */
    public boolean freedObject(byte[] bytes, int at) {
        return false;
    }

    /**
     * Whether the frame reads as one whose call has returned: its code cleared (3.14+), or a frame
     * object freed. Neither running nor returned, a frame reads as something else (torn, or garbage).
     */
    public boolean returned(byte[] bytes, int at) {
        return executable(bytes, at) == 0;
    }

    /** Whether the frame has no caller because it is a generator's, suspended. */
    public abstract boolean suspendedGenerator(byte[] bytes, int at);

    /** Whether the frame was entered from C code (3.11's {@code is_entry}; later shapes push entry frames). */
    public abstract boolean calledFromC(byte[] bytes, int at);

    /**
     * Whether the eval-loop call that runs this frame runs no frame below it: 3.10 calls the eval loop
     * once per frame; 3.11 once per frame marked {@code is_entry} and the frames it calls inline. (3.12
     * on push an entry frame under each call's frames, which {@link #entry} names.)
     */
    public abstract boolean lastOfEvalCall(byte[] bytes, int at);

    /** The name of the instruction whose code unit is {@code codeUnit}, or empty for an unknown opcode. */
    public final String opcodeName(int codeUnit) {
        return layout.opcodeName(codeUnit);
    }

    /** Where the code unit of the instruction {@link #instrPtr} names lies in the target, or 0 before the first. */
    public abstract long codeUnit(SnapshotReader reader, long executable, long instrPtr) throws MemoryAccessException;
}
