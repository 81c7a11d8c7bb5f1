package dev.remora.app.core;

import dev.remora.app.testing.CoreFiles;
import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.dump.DumpJson;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ExpectedFrame;
import dev.remora.app.testing.ExpectedProcess;
import dev.remora.app.testing.ExpectedThread;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same assertions on a live process and on its core (the Serviceability Agent's way): each target
 * is dumped live, then from a core, and both must equal the stacks it recorded of itself; thread ids
 * and statuses must agree, except that a core cannot tell whether a thread was on a CPU.
 *
 * <p>Which cores: gcore for every target. Targets in the Debian root also get a kernel core (the
 * process is killed with SIGABRT), whose NT_FILE paths are inside the root, so it needs --sysroot and
 * reads the text it left out from the root's files. gdb 13's gcore stops copying a mapping at the first
 * page it cannot read, and the root's glibc (2.42+) starts each thread stack with such a page
 * (MADV_GUARD_INSTALL): in gcore's cores of those targets every thread but the main one has a
 * zeroed stack, so only the main thread is compared there, and the kernel core carries the full comparison.
 */
@Tag("targets")
class LiveAndCoreDumpTest {

    @TempDir
    Path cores;

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aCoreDumpsLikeTheLiveProcess(TargetInterpreter python) {
        try (ParkedTarget target = ParkedThreads.start(python)) {
            DumpJson live = dump(target, "vmreadv", "dump", "-a", "--format", "json", target.pid());
            Path gcore = CoreFiles.gcore(target.pid(), cores);
            if (!python.chrooted()) {
                DumpJson core = dump(target, "core", "dump", "--core", gcore, "-a", "--format", "json");
                assertSameThreads(live, core);
                assertTextDumpHasSourceLines(target, "--core", gcore);
                return;
            }
            String root = python.root().toString();
            Path kernel = CoreFiles.kernelCore(target.pid(), cores);
            DumpJson core = dump(target, "core", "dump", "--core", kernel, "--sysroot", root, "-a", "--format", "json");
            assertSameThreads(live, core);
            assertTextDumpHasSourceLines(target, "--core", kernel, "--sysroot", root);

            // The host's gdb saves the threads' C stacks of Debian 12's glibc, not those of sid's.
            assertMainThreadOfGcoreCore(target, live, gcore, root, python.name().startsWith("debian-"));
            assertMissingSysrootIsNamed(kernel, python);
        }
    }

    /** What LiveDumpTest checks of a live dump, checked of any dump: every thread equals what the target recorded. */
    private static DumpJson dump(ParkedTarget target, String backend, Object... args) {
        RemoraCli run = RemoraCli.run(args);
        String source = backend + " " + List.of(args);
        assertThat(run.exitCode()).as(source + ": " + run.err()).isZero();
        assertThat(run.err()).as(source).isEmpty();
        DumpJson dump = DumpJson.parse(run.out());
        ExpectedProcess expected = target.expected();
        assertThat(dump.pid()).as(source).isEqualTo(target.pid());
        assertThat(dump.version()).as(source).isEqualTo(expected.version());
        assertThat(dump.backend()).as(source).isEqualTo(backend);

        Map<Long, JsonNode> threads = dump.threads();
        assertThat(threads.keySet()).as("thread ids, %s", source).isEqualTo(expected.threadIds());
        for (ExpectedThread want : expected.threads()) {
            JsonNode got = threads.get(want.threadId());
            assertThat(DumpJson.frames(got)).as("thread %s, %s", want.name(), source).containsExactlyElementsOf(want.frames());
            assertThat(got.has("incomplete")).as("thread %s marked incomplete, %s", want.name(), source).isFalse();
        }
        assertThat(expected.threadNamed(ParkedThreads.DEEP_RECURSION).frames()).hasSizeGreaterThan(ParkedThreads.DEFAULT_DEPTH);
        assertThat(DumpJson.status(threads.get(target.pid()))).as(source).contains("main_thread");
        return dump;
    }

    /** Same threads, same statuses, except that the core says "unknown" where the live process said on_cpu or nothing. */
    private static void assertSameThreads(DumpJson live, DumpJson core) {
        Map<Long, JsonNode> liveThreads = live.threads();
        Map<Long, JsonNode> coreThreads = core.threads();
        assertThat(coreThreads.keySet()).isEqualTo(liveThreads.keySet());
        for (long id : liveThreads.keySet()) {
            Set<String> fromLive = without(DumpJson.status(liveThreads.get(id)), "on_cpu");
            Set<String> fromCore = DumpJson.status(coreThreads.get(id));
            assertThat(fromCore).as("thread %d", id).contains("unknown");
            assertThat(without(fromCore, "unknown")).as("status of thread %d", id).isEqualTo(fromLive);
            assertThat(DumpJson.frames(coreThreads.get(id))).isEqualTo(DumpJson.frames(liveThreads.get(id)));
        }
    }

    /** The text dump reads source lines through the sysroot (or the paths themselves) like a live one through /proc/PID/root. */
    private static void assertTextDumpHasSourceLines(ParkedTarget target, Object... coreArgs) {
        List<Object> args = new ArrayList<>(List.of("dump", "-a"));
        args.addAll(List.of(coreArgs));
        RemoraCli run = RemoraCli.run(args.toArray());
        assertThat(run.exitCode()).as(run.err()).isZero();
        ExpectedFrame top = target.expected().thread(target.pid()).top();
        String topLine = "  main_park (%s:%d)".formatted(top.file(), top.line());
        assertThat(run.out())
                .startsWith("Stack dump for PID %d (Python %s, backend core)".formatted(target.pid(), target.expected().version()))
                .contains("Thread %d \"MainThread\" (main thread, CPU state unknown; most recent call first):%n%s%n".formatted(target.pid(), topLine));
        String source = run.out().substring(run.out().indexOf(topLine) + topLine.length()).lines().skip(1).findFirst().orElseThrow();
        assertThat(source.strip()).as("source line under main_park").contains("acquire");
    }

    /**
     * gcore's core of a target in the root: NT_FILE has the host's paths, which lie inside the sysroot
     * and are taken as they are; the main thread is whole, the others are cut where their C stack was
     * lost (3.11 and 3.12: with no frame at all, their current frame is named on the C stack), and
     * marked incomplete with the address that reads as zeros, in JSON and text.
     */
    private static void assertMainThreadOfGcoreCore(ParkedTarget target, DumpJson live, Path gcore, String root,
                                                    boolean stacksLost) {
        RemoraCli run = RemoraCli.run("dump", "--core", gcore, "--sysroot", root, "-a", "--format", "json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<Long, JsonNode> threads = DumpJson.parse(run.out()).threads();
        assertThat(threads.keySet()).isEqualTo(live.threads().keySet());
        JsonNode main = threads.get(target.pid());
        assertThat(DumpJson.frames(main)).containsExactlyElementsOf(target.expected().thread(target.pid()).frames());
        assertThat(without(DumpJson.status(main), "unknown"))
                .isEqualTo(without(DumpJson.status(live.threads().get(target.pid())), "on_cpu"));
        int cut = 0;
        for (ExpectedThread want : target.expected().threads()) {
            JsonNode thread = threads.get(want.threadId());
            List<ExpectedFrame> got = DumpJson.frames(thread);
            // 3.11 and 3.12 name the current frame in a record on the C stack: with it lost, no frame is known.
            if (!thread.path("incomplete").asText().contains("eval loop's C frame")) {
                assertThat(got).as("thread %s: innermost frames", want.name()).isNotEmpty();
            }
            assertThat(got).as("thread %s: innermost frames", want.name()).isEqualTo(want.frames().subList(0, got.size()));
            // A stack the core cut short says so, and where: never shown as whole.
            if (got.size() < want.frames().size()) {
                cut++;
                assertThat(thread.path("incomplete").asText()).as("thread %s, cut after %d frames", want.name(), got.size())
                        .containsPattern("frame at 0x[0-9a-f]+ reads as zeros");
            }
        }
        if (!stacksLost) {
            assertThat(cut).as("threads cut in a core that kept the C stacks").isZero();
            return;
        }
        assertThat(cut).as("threads whose C stack the core lost").isPositive();
        RemoraCli text = RemoraCli.run("dump", "--core", gcore, "--sysroot", root, "-a");
        assertThat(text.out()).containsPattern("\\[stack incomplete: (the eval loop's C )?frame at 0x[0-9a-f]+ reads as zeros");
    }

    /** The kernel core without --sysroot: one line naming the interpreter and the flag. */
    private static void assertMissingSysrootIsNamed(Path kernel, TargetInterpreter python) {
        RemoraCli run = RemoraCli.run("dump", "--core", kernel, "-a", "--format", "json");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        // 3.13+ find the runtime by its cookie and then miss the file; 3.11 and 3.12 need the file to find it.
        // A host that has a file of that name (another build) is told so.
        assertThat(run.err()).hasLineCount(1)
                .containsPattern("^remora: cannot (read the stacks|find the Python runtime) in core " + Pattern.quote(kernel + ": "
                        + python.exe()) + " (is not on this machine|on this machine is not the file the process mapped); pass --sysroot DIR")
                .contains("(DIR" + python.exe() + ")");
    }

    private static Set<String> without(Set<String> status, String label) {
        Set<String> rest = new TreeSet<>(status);
        rest.remove(label);
        return rest;
    }
}
