package dev.remora.app.testing;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Every thread's Python stack in one process; {@code version} is "major.minor.micro". */
public record ExpectedProcess(long pid, String version, List<ExpectedThread> threads) {

    public ExpectedProcess {
        threads = List.copyOf(threads);
    }

    public Set<Long> threadIds() {
        return threads.stream().map(ExpectedThread::threadId).collect(Collectors.toUnmodifiableSet());
    }

    public ExpectedThread thread(long threadId) {
        return threads.stream().filter(t -> t.threadId() == threadId).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no thread " + threadId + " in " + threadIds()));
    }

    public ExpectedThread threadNamed(String name) {
        return threads.stream().filter(t -> name.equals(t.name())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no thread named " + name + " in "
                        + threads.stream().map(ExpectedThread::name).toList()));
    }
}
