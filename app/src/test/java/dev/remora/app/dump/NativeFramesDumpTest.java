package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.CoreFiles;
import dev.remora.app.testing.DetachedTarget;
import dev.remora.app.testing.GdbStacks;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dump --native-frames}: each thread's C frames are the frames gdb finds on the same process
 * (or core), its Python frames are those a plain dump shows, and each Python frame sits under the C
 * frame that called into it: a Python callback under libc's qsort, a sort key under sorted().
 */
@Tag("targets")
class NativeFramesDumpTest {

    @TempDir
    Path cores;

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void cFramesAreGdbsAndPythonFramesSitUnderTheCFramesThatCalledThem(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-native-")) {
            try (DetachedTarget target = DetachedTarget.start(python, dir, "native_parked.py", List.of(), "READY")) {
                long pid = target.pid();
                JsonNode live = settledDump(pid, python);
                Map<Long, JsonNode> plain = DumpJson.parse(RemoraCli.run("dump", "-a", "--format", "json", pid).out()).threads();
                assertPythonFramesAsPlainDump(live, plain);
                assertCalledFromC(live, pid, python);
                assertSourceLines(live, python);

                Path core = python.chrooted() ? CoreFiles.kernelCore(pid, cores) : CoreFiles.gcore(pid, cores);
                List<Object> args = new ArrayList<>(List.of("dump", "--core", core, "--native-all", "--internal-frames",
                        "--format", "json"));
                if (python.chrooted()) {
                    args.addAll(List.of("--sysroot", python.root()));
                }
                JsonNode fromCore = json(args.toArray());
                assertThat(entries(fromCore)).as("the core's stacks against the live process's")
                        .isEqualTo(entries(live));
            }
        }
    }

    /** With the default hiding, interpreter frames go and the frames a user waits in stay. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void interpreterFramesAreHiddenUnlessAskedFor(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-native-")) {
            try (DetachedTarget target = DetachedTarget.start(python, dir, "native_parked.py", List.of(), "READY")) {
                RemoraCli text = RemoraCli.run("dump", "--native-frames", target.pid());
                assertThat(text.exitCode()).as(text.err()).isZero();
                assertThat(text.out()).containsPattern("\\(C\\) \\S*qsort\\S*\\+0x[0-9a-f]+ \\(libc(\\.so\\.6|-[0-9.]+\\.so)\\)")
                        .contains("interpreter frames hidden: --internal-frames shows them")
                        .doesNotContain("_PyEval_EvalFrameDefault");
                assertThat(text.out().indexOf("  compare (")).isPositive()
                        .isLessThan(text.out().indexOf("qsort"));
            }
        }
    }

    /**
     * A process that died in C: its kernel core shows the thread that took the signal first, marked
     * with it, and its C frames from where it crashed down to the Python frames that called into C.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("crashes")
    void aCoreOfAProcessThatDiedInCShowsTheCrashFirst(TargetInterpreter python, String how) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-crash-");
             DetachedTarget target = DetachedTarget.start(python, dir, "native_parked.py", List.of(how), "READY")) {
            Path core = CoreFiles.kernelCore(target.pid(), cores, "USR1");
            List<Object> args = new ArrayList<>(List.of("dump", "--core", core, "--native-frames", "-a"));
            if (python.chrooted()) {
                args.addAll(List.of("--sysroot", python.root()));
            }
            JsonNode dump = json(withJson(args));
            JsonNode first = dump.get("interpreters").get(0).get("threads").get(0);
            String signal = how.equals("crash-segv") ? "SIGSEGV" : "SIGABRT";
            assertThat(first.get("thread_id").asLong()).as("the crashing thread comes first").isEqualTo(target.pid());
            assertThat(first.get("signal").asText()).isEqualTo(signal);
            List<String> names = names(first);
            assertThat(names.getFirst()).as("innermost frame of %s", names).startsWith("C ");
            // 3.11 on qualify the signal handler as main.<locals>.<lambda>.
            List<String> pythonFrames = names.stream().filter(n -> n.startsWith("py ")).map(n -> n.replace("main.<locals>.", "")).toList();
            assertThat(pythonFrames).containsSubsequence("py crash", "py <lambda>", "py main", "py <module>");
            RemoraCli text = RemoraCli.run(args.toArray());
            // 3.13 on the target has a second interpreter, and the dump names each thread's.
            assertThat(text.out()).containsPattern("(Interpreter 0, thread|Thread) %d \"MainThread\" \\(main thread[^)]*; received %s"
                    .formatted(target.pid(), signal));
        }
    }

    static List<Object[]> crashes() {
        List<Object[]> cases = new ArrayList<>();
        for (TargetInterpreter python : TargetInterpreters.all()) {
            cases.add(new Object[] {python, "crash-segv"});
            cases.add(new Object[] {python, "crash-abort"});
        }
        return cases;
    }

    private static Object[] withJson(List<Object> args) {
        List<Object> all = new ArrayList<>(args);
        all.addAll(List.of("--format", "json"));
        return all.toArray();
    }

    private static JsonNode json(Object... args) {
        RemoraCli run = RemoraCli.run(args);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return DumpJson.parse(run.out()).root();
    }

    /** Every thread, Python or not, by id. */
    private static Map<Long, JsonNode> threads(JsonNode dump) {
        Map<Long, JsonNode> threads = new LinkedHashMap<>(new DumpJson(dump).threads());
        for (JsonNode thread : dump.path("native_threads")) {
            threads.put(thread.get("thread_id").asLong(), thread);
        }
        return threads;
    }

    /**
     * A dump whose C frames are those gdb finds right after it. The target says READY a moment before
     * its last thread blocks, and on a busy machine that moment can be long: a thread still on its way
     * to its lock shows other frames to each reader, so both read again, a few times, until they agree.
     */
    private static JsonNode settledDump(long pid, TargetInterpreter python) throws InterruptedException {
        JsonNode dump = null;
        Map<Long, List<Long>> gdb = Map.of();
        for (int attempt = 0; attempt < 5; attempt++) {
            dump = json("dump", "--native-all", "--internal-frames", "--format", "json", pid);
            gdb = GdbStacks.live(pid, python);
            if (cFrames(dump).equals(gdb)) {
                return dump;
            }
            Thread.sleep(300);
        }
        assertMatchesGdb(dump, gdb, "live");
        return dump;
    }

    private static void assertMatchesGdb(JsonNode dump, Map<Long, List<Long>> gdb, String source) {
        Map<Long, JsonNode> threads = threads(dump);
        assertThat(threads.keySet()).as("threads, %s", source).isEqualTo(gdb.keySet());
        Map<Long, List<Long>> ours = cFrames(dump);
        for (var thread : threads.entrySet()) {
            assertThat(hex(ours.get(thread.getKey()))).as("C frames of thread %d, %s (%s)", thread.getKey(), source,
                    thread.getValue().path("native_problem").asText()).isEqualTo(hex(gdb.get(thread.getKey())));
        }
    }

    /** Each thread's C frames as their addresses, innermost first. */
    private static Map<Long, List<Long>> cFrames(JsonNode dump) {
        Map<Long, List<Long>> all = new LinkedHashMap<>();
        for (var thread : threads(dump).entrySet()) {
            List<Long> pcs = new ArrayList<>();
            for (JsonNode frame : thread.getValue().get("frames")) {
                if (frame.get("kind").asText().equals("native")) {
                    pcs.add(Long.parseUnsignedLong(frame.get("address").asText().substring(2), 16));
                }
            }
            all.put(thread.getKey(), pcs);
        }
        return all;
    }

    private static void assertPythonFramesAsPlainDump(JsonNode dump, Map<Long, JsonNode> plain) {
        Map<Long, JsonNode> threads = new DumpJson(dump).threads();
        assertThat(threads.keySet()).isEqualTo(plain.keySet());
        for (long id : plain.keySet()) {
            List<String> merged = new ArrayList<>();
            for (JsonNode frame : threads.get(id).get("frames")) {
                if (frame.get("kind").asText().equals("python")) {
                    merged.add(frame.get("function").asText() + ":" + frame.get("line").asText());
                }
            }
            List<String> alone = new ArrayList<>();
            for (JsonNode frame : plain.get(id).get("frames")) {
                alone.add(frame.get("function").asText() + ":" + frame.get("line").asText());
            }
            assertThat(merged).as("Python frames of thread %d", id).isEqualTo(alone);
            assertThat(threads.get(id).has("native_problem")).as("thread %d: %s", id,
                    threads.get(id).path("native_problem").asText()).isFalse();
        }
    }

    /**
     * The callback under qsort, the key function under sorted(), the event loop in epoll, the second
     * interpreter's thread (3.13+) with its C frames, pause() on the C thread.
     */
    private static void assertCalledFromC(JsonNode dump, long pid, TargetInterpreter python) {
        List<String> main = names(new DumpJson(dump).threads().get(pid));
        assertThat(main).containsSubsequence("py compare", "C qsort", "py sort_with_qsort", "py main");
        JsonNode sortedKey = null;
        for (JsonNode thread : new DumpJson(dump).threads().values()) {
            if (names(thread).contains("py key_of")) {
                sortedKey = thread;
            }
        }
        assertThat(sortedKey).as("the sorted-key thread").isNotNull();
        List<String> keyThread = names(sortedKey);
        int key = keyThread.indexOf("py key_of");
        int caller = keyThread.indexOf("py sorted_key");
        assertThat(keyThread.subList(key, caller)).as("C frames between key_of and sorted_key").anyMatch(n -> n.startsWith("C "));
        List<String> loop = threadWith(dump, "C epoll_wait");
        assertThat(loop.subList(loop.indexOf("C epoll_wait"), loop.size())).as("the event loop's thread")
                .anyMatch(n -> n.startsWith("py ") && n.endsWith("select"));
        JsonNode sub = null;
        for (JsonNode thread : new DumpJson(dump).threads().values()) {
            if (names(thread).contains("py sub_park")) {
                sub = thread;
            }
        }
        assertThat(sub != null).as("a thread in the second interpreter").isEqualTo(python.isAtLeast(3, 13));
        if (sub != null) {
            List<String> subNames = names(sub);
            assertThat(subNames.indexOf("py sub_park")).as("C frames under the second interpreter's frame: %s", subNames)
                    .isGreaterThan(0);
            assertThat(subNames.getFirst()).startsWith("C ");
        }
        assertThat(dump.get("native_threads")).hasSize(1);
        assertThat(names(dump.get("native_threads").get(0))).anyMatch(n -> n.contains("pause"));
    }

    /**
     * pyenv's builds carry line tables: time.sleep's C function is at its line in timemodule.c (as gdb
     * says); Debian's stripped builds carry none, and their frames have no file.
     */
    private static void assertSourceLines(JsonNode dump, TargetInterpreter python) {
        List<JsonNode> sleeps = new ArrayList<>();
        for (JsonNode thread : new DumpJson(dump).threads().values()) {
            for (JsonNode frame : thread.get("frames")) {
                if (frame.path("symbol").asText().equals("time_sleep")) {
                    sleeps.add(frame);
                }
            }
        }
        if (python.chrooted()) {
            assertThat(sleeps).allMatch(frame -> !frame.has("line"));
            return;
        }
        assertThat(sleeps).as("time.sleep's C frames").isNotEmpty().allSatisfy(frame -> {
            assertThat(frame.get("file").asText()).endsWith("/Modules/timemodule.c");
            assertThat(frame.get("line").asInt()).isPositive();
        });
    }

    /** The names of the first thread that has the frame {@code name}. */
    private static List<String> threadWith(JsonNode dump, String name) {
        for (JsonNode thread : new DumpJson(dump).threads().values()) {
            if (names(thread).contains(name)) {
                return names(thread);
            }
        }
        throw new AssertionError("no thread has " + name);
    }

    /** "py NAME" for Python frames, "C SYMBOL" for C frames (a qsort variant's name shortened to qsort). */
    private static List<String> names(JsonNode thread) {
        List<String> names = new ArrayList<>();
        for (JsonNode frame : thread.get("frames")) {
            if (frame.get("kind").asText().equals("python")) {
                names.add("py " + frame.get("function").asText());
            } else {
                String symbol = frame.path("symbol").asText("??");
                names.add("C " + (symbol.contains("qsort") ? "qsort" : symbol));
            }
        }
        return names;
    }

    /** Each thread's frames as kind, address or function, and line: what a core must repeat of the live process. */
    private static Map<Long, List<String>> entries(JsonNode dump) {
        Map<Long, List<String>> all = new LinkedHashMap<>();
        for (var thread : threads(dump).entrySet()) {
            List<String> frames = new ArrayList<>();
            for (JsonNode frame : thread.getValue().get("frames")) {
                frames.add(frame.get("kind").asText().equals("native")
                        ? "C " + frame.get("address").asText() + " " + frame.path("symbol").asText("??")
                        : "py " + frame.get("function").asText() + ":" + frame.get("line").asText());
            }
            all.put(thread.getKey(), frames);
        }
        return all;
    }

    private static List<String> hex(List<Long> pcs) {
        return pcs.stream().map(pc -> "0x" + Long.toHexString(pc)).toList();
    }
}
