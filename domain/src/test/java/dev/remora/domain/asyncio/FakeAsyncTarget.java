package dev.remora.domain.asyncio;

import dev.remora.domain.testing.DebugOffsetsFixtures;
import dev.remora.domain.testing.EmptyProcessImage;
import dev.remora.domain.threads.Interpreters;
import dev.remora.domain.InspectionException;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.GeneratorStates;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A made-up CPython process with one interpreter and one thread (native id {@link #THREAD_ID}),
 * laid out with the real Debian offsets of one version, in which a test places tasks, coroutines,
 * names and waiter sets. Code objects are not decoded: frame {@code code} resolves to
 * {@code FrameInfo("code@<address>")}.
 */
final class FakeAsyncTarget {

    static final long THREAD_ID = 42;
    private static final int COMPACT_ASCII_KIND1 = 1 << 5 | 1 << 6 | 1 << 2;

    final DebugOffsets offsets;
    final AsyncioOffsets asyncio;
    final GeneratorStates states;
    final FakeMemory memory = new FakeMemory();
    final long runtime;
    final long interpreter;
    final long thread;
    private final long coroutineType;
    private final long strType;
    private final long intType;
    private final long iteratorType;
    private final Map<Long, Long> lastNode = new HashMap<>();

    FakeAsyncTarget(String minor) throws InspectionException {
        offsets = AsyncioOffsetsTest.offsets(minor);
        asyncio = AsyncioOffsets.decode(DebugOffsetsFixtures.asyncioSection(minor), offsets);
        states = offsets.layout().generatorStates().orElseThrow();
        runtime = memory.alloc(offsets.runtime().interpretersHead() + 8);
        interpreter = memory.alloc(Math.max(asyncio.interpreter().size(), offsets.interpreter().readLength()));
        thread = memory.alloc(Math.max(asyncio.thread().size(), offsets.thread().readLength()));
        memory.putLong(thread + offsets.thread().interp(), interpreter);
        memory.putLong(runtime + offsets.runtime().interpretersHead(), interpreter);
        memory.putLong(interpreter + offsets.interpreter().threadsHead(), thread);
        memory.putLong(thread + offsets.thread().nativeThreadId().getAsLong(), THREAD_ID);
        emptyList(interpreterTasks());
        emptyList(threadTasks());
        coroutineType = type("coroutine", 0);
        strType = type("str", TypeFacts.UNICODE_SUBCLASS);
        intType = type("int", TypeFacts.LONG_SUBCLASS);
        iteratorType = type("FutureIter", 0);
    }

    long threadTasks() {
        return thread + asyncio.thread().tasksHead();
    }

    long interpreterTasks() {
        return interpreter + asyncio.interpreter().tasksHead();
    }

    /** A task on the list at {@code head}, appended at its end. */
    long task(long head, long name, long coro) {
        long task = memory.alloc(asyncio.task().size());
        memory.putByte(task + asyncio.task().isTask(), 1);
        memory.putLong(task + asyncio.task().name(), name);
        memory.putLong(task + asyncio.task().coro(), coro);
        long node = task + asyncio.task().node();
        long last = lastNode.getOrDefault(head, head);
        memory.putLong(last + offsets.llistNode().orElseThrow().next(), node);
        memory.putLong(node + offsets.llistNode().orElseThrow().next(), head);
        lastNode.put(head, node);
        return task;
    }

    void awaitedBy(long task, long waiter) {
        memory.putLong(task + asyncio.task().awaitedBy(), waiter);
    }

    /** Waiters in a set whose table also holds a removed slot (key = dummy, hash = -1) between them. */
    void awaitedBySet(long task, long... waiters) {
        DebugOffsets.SetObject s = offsets.set().orElseThrow();
        long set = memory.alloc(s.size());
        long table = memory.alloc(8 * 16);
        long dummy = memory.alloc(16);
        memory.putLong(set + s.used(), waiters.length).putLong(set + s.mask(), 7).putLong(set + s.table(), table);
        int slot = 0;
        for (long w : waiters) {
            memory.putLong(table + 16L * slot, w).putLong(table + 16L * slot + 8, w >>> 4);
            slot++;
            memory.putLong(table + 16L * slot, dummy).putLong(table + 16L * slot + 8, -1);
            slot++;
        }
        memory.putLong(task + asyncio.task().awaitedBy(), set);
        memory.putByte(task + asyncio.task().awaitedByIsSet(), 1);
    }

    long str(String ascii) {
        byte[] bytes = ascii.getBytes(StandardCharsets.US_ASCII);
        DebugOffsets.Unicode u = offsets.unicode();
        long s = memory.alloc(u.asciiDataOffset() + bytes.length + 1);
        memory.putLong(s + offsets.object().obType(), strType);
        memory.putInt(s + u.state(), COMPACT_ASCII_KIND1);
        memory.putLong(s + u.length(), bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            memory.putByte(s + u.asciiDataOffset() + i, bytes[i]);
        }
        return s;
    }

    /** A one-digit int, as asyncio stores the number of an unnamed task. */
    long smallInt(int value) {
        DebugOffsets.LongObject l = offsets.longObject().orElseThrow();
        long i = memory.alloc(l.size());
        memory.putLong(i + offsets.object().obType(), intType);
        memory.putLong(i + l.lvTag(), 1 << 3);
        memory.putInt(i + l.obDigit(), value);
        return i;
    }

    /** An object that is not a coroutine (what a coroutine awaiting a future holds). */
    long iterator() {
        long o = memory.alloc(32);
        memory.putLong(o + offsets.object().obType(), iteratorType);
        return o;
    }

    long code() {
        return memory.alloc(16);
    }

    /** A coroutine in {@code state} running {@code code}; when {@code awaited} is not 0, it sits in its value stack. */
    long coroutine(long code, int state, long awaited) {
        DebugOffsets.Generator g = offsets.generator().orElseThrow();
        DebugOffsets.Frame f = offsets.frame();
        int depth = offsets.layout().awaitedStackDepth().orElseThrow();
        long coro = memory.alloc(g.size() + 8 * 8);
        long frame = coro + g.iframe();
        memory.putLong(coro + offsets.object().obType(), coroutineType);
        memory.putByte(coro + g.frameState(), state);
        memory.putByte(frame + f.owner().getAsLong(), offsets.layout().owners().generator());
        memory.putLong(frame + f.executable(), code);
        memory.putLong(frame + f.instrPtr(), code + 8);
        if (awaited != 0) {
            long stackPointer = frame + f.localsPlus() + 8L * depth;
            memory.putLong(frame + f.stackPointer().orElseThrow(), stackPointer);
            memory.putLong(stackPointer - 8L * depth, awaited);
        }
        return coro;
    }

    void setAwaited(long coro, long awaited) {
        DebugOffsets.Frame f = offsets.frame();
        long frame = coro + offsets.generator().orElseThrow().iframe();
        int depth = offsets.layout().awaitedStackDepth().orElseThrow();
        memory.putLong(frame + f.localsPlus(), awaited);
        memory.putLong(frame + f.stackPointer().orElseThrow(), frame + f.localsPlus() + 8L * depth);
    }

    /** A thread-owned frame running {@code code}, called from {@code previous}. */
    long threadFrame(long code, long previous) {
        DebugOffsets.Frame f = offsets.frame();
        long frame = memory.alloc(f.size());
        memory.putLong(frame + f.executable(), code).putLong(frame + f.instrPtr(), code + 8)
                .putLong(frame + f.previous(), previous);
        return frame;
    }

    long frameOf(long coro) {
        return coro + offsets.generator().orElseThrow().iframe();
    }

    /** The thread's loop runs {@code task}, and the thread's innermost frame is {@code currentFrame}. */
    void running(long task, long currentFrame) {
        memory.putLong(thread + asyncio.thread().runningLoop(), memory.alloc(16));
        memory.putLong(thread + asyncio.thread().runningTask(), task);
        memory.putLong(thread + offsets.thread().currentFrame(), currentFrame);
    }

    AsyncGraphBuilder builder() {
        SnapshotReader reader = new SnapshotReader(memory.target);
        return AsyncGraphBuilder.withLayout(new EmptyProcessImage(), reader, new ObjectReader(reader, offsets), offsets,
                new Interpreters(reader, offsets, runtime, 1), (interp, executable, instrPtr) -> name(executable), asyncio);
    }

    static FrameInfo name(long code) {
        return new FrameInfo("code@%x".formatted(code), "fake.py", SourceLocation.NONE);
    }

    private long type(String name, long flags) {
        long t = memory.alloc(offsets.type().size());
        memory.putLong(t + offsets.type().tpName(), memory.cString(name));
        memory.putLong(t + offsets.type().tpFlags(), flags);
        return t;
    }

    private void emptyList(long head) {
        memory.putLong(head + offsets.llistNode().orElseThrow().next(), head);
    }
}
