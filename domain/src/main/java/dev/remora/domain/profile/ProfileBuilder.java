package dev.remora.domain.profile;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;

import java.util.Arrays;
import java.util.Optional;

/**
 * Turns walks of the target into a {@link Profile} as they happen: frames are interned, stacks become
 * call-tree nodes, and a sample is three numbers. Nothing is allocated per sample once the target's
 * stacks have been seen.
 */
public final class ProfileBuilder implements StackVisitor {

    private final Profile profile;
    private final ProfileMode mode;
    private int[] stack = new int[256];
    private int depth;
    private int threadIndex;
    private int status;
    private int opcode = -1;
    /** Samples of CPU time the thread's clock said its stack stands for; -1 where walks did not read it. */
    private int cpuSamples = -1;
    /** The node a thread's tail was last found at, by thread index: tails repeat sample after sample. */
    private long[] tailIds = new long[16];
    private int[] tailCounts = new int[16];
    private int[] tailNodes = new int[16];
    private int tailNode = -1;
    private long now;
    private final long[] errors = new long[StackProblem.Kind.values().length];
    private final SampleKeeping keeping;

    /** A profile that keeps every sample with its time. */
    public ProfileBuilder(ProfileInfo info) {
        this(info, SampleKeeping.EVERY_SAMPLE);
    }

    public ProfileBuilder(ProfileInfo info, SampleKeeping keeping) {
        this.profile = new Profile(info, new FrameTable(), new CallTree(), new ThreadTable(), new SampleLog());
        this.mode = info.mode();
        this.keeping = keeping;
    }

    /**
     * Says that the samples so far were handed on (to the live view, a stream): a profile that keeps
     * counts folds them now. Entries before the log's size afterwards are not a window's any more.
     */
    public void windowHandedOn() {
        if (keeping == SampleKeeping.COUNTS) {
            profile.samples().fold();
        }
    }

    /** The profile so far; it keeps growing while sampling goes on. */
    public Profile profile() {
        return profile;
    }

    /** Starts a walk taken at {@code nanosSinceStart}. */
    public void beginSample(long nanosSinceStart) {
        now = nanosSinceStart;
    }

    @Override
    public boolean beginThread(long interpreterId, long threadId, int status) {
        if (!mode.keeps(status)) {
            return false;
        }
        this.threadIndex = profile.threads().index(threadId, interpreterId);
        this.status = status;
        this.depth = 0;
        this.opcode = -1;
        this.cpuSamples = -1;
        this.tailNode = -1;
        return true;
    }

    @Override
    public void frame(FrameInfo frame) {
        if (depth == stack.length) {
            stack = Arrays.copyOf(stack, depth * 2);
        }
        stack[depth++] = profile.frames().intern(frame);
    }

    @Override
    public void tail(long tailId, FrameInfo[] outermostFirst, int count) {
        if (count == 0) {
            return;
        }
        if (threadIndex >= tailIds.length) {
            int capacity = Math.max(threadIndex + 1, tailIds.length * 2);
            tailIds = Arrays.copyOf(tailIds, capacity);
            tailCounts = Arrays.copyOf(tailCounts, capacity);
            tailNodes = Arrays.copyOf(tailNodes, capacity);
        }
        if (tailIds[threadIndex] == tailId && tailCounts[threadIndex] == count) {
            tailNode = tailNodes[threadIndex];
            return;
        }
        CallTree tree = profile.tree();
        int node = tree.root(threadIndex);
        for (int i = 0; i < count; i++) {
            node = tree.child(node, profile.frames().intern(outermostFirst[i]));
        }
        tailIds[threadIndex] = tailId;
        tailCounts[threadIndex] = count;
        tailNodes[threadIndex] = node;
        tailNode = node;
    }

    @Override
    public void opcode(String name) {
        opcode = profile.opcodeId(name);
    }

    @Override
    public void statusAfterWalk(int status, int cpuSamples) {
        this.status = status;
        this.cpuSamples = cpuSamples;
    }

    @Override
    public void endThread(Optional<StackProblem> problem) {
        // cpu mode keeps as many samples as the thread's CPU clock says the stack stands for.
        int copies = mode == ProfileMode.CPU && cpuSamples >= 0 ? cpuSamples : mode.keeps(status) ? 1 : 0;
        if (copies == 0) {
            return; // not this mode's sample after all: off a CPU while its stack was read
        }
        // A cut stack would be counted under a wrong parent: the tick is an error, with its reason.
        if (problem.isPresent()) {
            errors[problem.get().kind().ordinal()]++;
            return;
        }
        if (depth == 0 && tailNode < 0) {
            return;
        }
        CallTree tree = profile.tree();
        int node = tailNode >= 0 ? tailNode : tree.root(threadIndex);
        for (int i = depth - 1; i >= 0; i--) {
            node = tree.child(node, stack[i]);
        }
        for (int i = 0; i < copies; i++) {
            profile.samples().add(now, node, status, opcode);
        }
    }

    /** A tick whose walk failed before it reached the threads: an error for the whole tick. */
    public void tickFailed() {
        errors[StackProblem.Kind.WALK_FAILED.ordinal()]++;
    }

    /** The ticks so far that gave no complete stack, by reason. */
    public StackErrors errors() {
        return new StackErrors(errors);
    }

    /** How many errors so far, of every kind. */
    public long errorCount() {
        long total = 0;
        for (long n : errors) {
            total += n;
        }
        return total;
    }

    /** Records how the sampling went, when it is over. */
    public void finish(SamplingStats stats) {
        profile.stats(stats);
    }
}
