package dev.remora.domain.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The threads a profile met, numbered in order of first appearance. */
public final class ThreadTable {

    /** One profiled thread: its OS id, interpreter, and a name where one was learnt. */
    public record ProfiledThread(long threadId, long interpreterId, Optional<String> name) {}

    private final Map<Long, Integer> indexById = new HashMap<>();
    private final List<ProfiledThread> threads = new ArrayList<>();

    int index(long threadId, long interpreterId) {
        Integer index = indexById.get(threadId);
        if (index == null) {
            index = threads.size();
            threads.add(new ProfiledThread(threadId, interpreterId, Optional.empty()));
            indexById.put(threadId, index);
        }
        return index;
    }

    /** Records a thread's name (the app learns it from the OS). */
    public void name(int index, String name) {
        ProfiledThread t = threads.get(index);
        threads.set(index, new ProfiledThread(t.threadId(), t.interpreterId(), Optional.of(name)));
    }

    public ProfiledThread get(int index) {
        return threads.get(index);
    }

    public int size() {
        return threads.size();
    }
}
