package dev.remora.app.output.dump;

import dev.remora.domain.nativestack.MixedStack;
import dev.remora.domain.nativestack.ThreadKey;
import dev.remora.ports.FatalSignal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The C side of a dump: each Python thread state's merged stack (by interpreter and OS thread id), the threads with no Python
 * state ({@code --native-all}), and the signal a core's process died of.
 */
public record NativeDump(Map<ThreadKey, MixedStack> stacks, List<CThread> cThreads, Optional<FatalSignal> signal) {

    /** A thread the interpreter does not know (started by C code), with its C frames. */
    public record CThread(long threadId, Optional<String> name, MixedStack stack) {}

    public NativeDump {
        stacks = Map.copyOf(stacks);
        cThreads = List.copyOf(cThreads);
    }

    /** A dump without C frames. */
    public static NativeDump none() {
        return new NativeDump(Map.of(), List.of(), Optional.empty());
    }

    public boolean present() {
        return !stacks.isEmpty() || !cThreads.isEmpty();
    }

    /** The line that says a thread took the signal that ended the process, if it did. */
    Optional<String> signalOf(long threadId) {
        return signal.filter(s -> s.threadId() == threadId).map(s -> s.faultAddress() != 0 || s.signal() == 11 || s.signal() == 7
                ? "received %s at 0x%x".formatted(s.name(), s.faultAddress()) : "received " + s.name());
    }
}
