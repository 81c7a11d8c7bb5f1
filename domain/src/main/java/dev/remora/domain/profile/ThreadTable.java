package dev.remora.domain.profile;

import dev.remora.domain.memory.LongIntMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** The threads a profile met, numbered in order of first appearance. */
public final class ThreadTable {

    /**
     * One profiled thread: its OS id, interpreter, and a name where one was learnt.
     *
     * @param processId its process, in a profile of several processes (a merged process tree)
     */
    public record ProfiledThread(long threadId, long interpreterId, Optional<String> name, OptionalInt processId) {}

    private final LongIntMap indexByThread = new LongIntMap(16);
    private record InInterpreter(long threadId, long interpreterId) {}

    /** Subinterpreters' threads are rare: a plain map serves them. */
    private final Map<InInterpreter, Integer> indexInSubinterpreters = new HashMap<>();
    private final List<ProfiledThread> threads = new ArrayList<>();

    /** One OS thread can hold a thread state in several interpreters: each pair is its own thread here. */
    int index(long threadId, long interpreterId) {
        if (interpreterId == 0) {
            int index = indexByThread.get(threadId);
            if (index == LongIntMap.ABSENT) {
                index = add(threadId, interpreterId);
                indexByThread.put(threadId, index);
            }
            return index;
        }
        return indexInSubinterpreters.computeIfAbsent(new InInterpreter(threadId, interpreterId), k -> add(threadId, interpreterId));
    }

    private int add(long threadId, long interpreterId) {
        threads.add(new ProfiledThread(threadId, interpreterId, Optional.empty(), OptionalInt.empty()));
        return threads.size() - 1;
    }

    /** Records a thread's name (the app learns it from the OS). */
    public void name(int index, String name) {
        ProfiledThread t = threads.get(index);
        threads.set(index, new ProfiledThread(t.threadId(), t.interpreterId(), Optional.of(name), t.processId()));
    }

    /** Records the process of a thread, in a profile of several processes. */
    public void process(int index, int processId) {
        ProfiledThread t = threads.get(index);
        threads.set(index, new ProfiledThread(t.threadId(), t.interpreterId(), t.name(), OptionalInt.of(processId)));
    }

    public ProfiledThread get(int index) {
        return threads.get(index);
    }

    public int size() {
        return threads.size();
    }
}
