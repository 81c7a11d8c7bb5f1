package dev.remora.app.cli;

import dev.remora.app.live.LiveScreen;
import dev.remora.app.live.LiveTable;
import dev.remora.app.profiling.SamplerProgress;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.walk.SnapshotOptions;
import org.jline.terminal.Attributes;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.utils.AttributedString;
import org.jline.utils.Display;
import org.jline.utils.InfoCmp;
import org.jline.utils.NonBlockingReader;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code remora top} and {@code --live}: a full-screen table of the functions the target runs,
 * redrawn after each second of samples, with keys to sort, filter by thread, pause and quit. The
 * sampling thread only counts; drawing and keys run on a thread of their own. Quitting (q, Ctrl-C)
 * or the target exiting restores the terminal; the last table then stays on the normal screen.
 */
final class LiveView implements ProfileSink {

    private static final int FINAL_ROWS = 25;
    private static final int FINAL_WIDTH = 240;

    private final Terminal terminal;
    private final Attributes saved;
    private final Display display;
    private final PrintWriter out;
    private final LiveTable table = new LiveTable();
    private final AtomicBoolean quit = new AtomicBoolean();
    private final Object lock = new Object();
    private final Thread keys;
    private volatile List<LiveTable.ThreadCounts> counts = List.of();
    private volatile LiveScreen.Header header;
    private volatile SamplerProgress progress;
    private volatile LiveScreen.View view = new LiveScreen.View(LiveScreen.Sort.OWN, -1, false);
    /** New counts, a key or a resize wait to be drawn, by the key thread: sampling never waits on the terminal. */
    private volatile boolean dirty;
    private boolean ended;
    /** The alternate screen is taken at the first drawing, after the line saying that sampling began. */
    private boolean onScreen;
    private int pid;
    private String python = "?";
    private ProfileMode mode = ProfileMode.WALL;
    private long intervalNanos = 1_000_000;
    /** Which threads are sampled: the header must not say "all threads" of the main one alone. */
    private final SnapshotOptions.Threads sampled;

    private LiveView(Terminal terminal, PrintWriter out, SnapshotOptions.Threads sampled) {
        this.terminal = terminal;
        this.out = out;
        this.sampled = sampled;
        this.saved = terminal.enterRawMode();
        this.display = new Display(terminal, true);
        terminal.handle(Terminal.Signal.WINCH, s -> dirty = true);
        terminal.handle(Terminal.Signal.INT, s -> quit.set(true));
        this.keys = Thread.ofPlatform().daemon().name("remora-live-keys").start(this::readKeys);
    }

    /** The view on this process's terminal; a one-line error without one. */
    static LiveView open(PrintWriter out, SnapshotOptions.Threads sampled) {
        if (System.console() == null || !System.console().isTerminal()) {
            throw new UserError("the live view needs a terminal (stdin and stdout are not one); use attach with an output format instead",
                    UserErrorHandler.EXIT_USAGE);
        }
        try {
            Terminal terminal = TerminalBuilder.builder().system(true).build();
            if (Terminal.TYPE_DUMB.equals(terminal.getType()) || Terminal.TYPE_DUMB_COLOR.equals(terminal.getType())) {
                terminal.close();
                throw new UserError("the live view needs a terminal that can be redrawn (this one is 'dumb')",
                        UserErrorHandler.EXIT_USAGE);
            }
            return new LiveView(terminal, out, sampled);
        } catch (IOException e) {
            throw new UserError("cannot open the terminal for the live view: " + e.getMessage(), UserErrorHandler.EXIT_FAILURE);
        }
    }

    @Override
    public boolean ownsTerminal() {
        return true;
    }

    @Override
    public boolean stopRequested() {
        return quit.get();
    }

    @Override
    public void progress(SamplerProgress live) {
        this.progress = live;
    }

    @Override
    public void window(Profile profile, int from, int to) {
        pid = profile.info().pid();
        python = profile.info().pythonVersion();
        mode = profile.info().mode();
        intervalNanos = profile.info().intervalNanos();
        table.add(profile, from, to);
        if (!view.paused()) {
            counts = table.snapshot(profile);
            header = header();
        }
        dirty = true;
    }

    private LiveScreen.Header header() {
        SamplerProgress p = progress;
        return new LiveScreen.Header(pid, python, mode.name().toLowerCase(Locale.ROOT), p == null ? 0 : p.elapsedNanos() / 1e9,
                p == null ? 0 : p.rate(), p == null ? 0 : p.errorPercent(), p == null ? 0 : p.samples(),
                p == null || p.errors().total() == 0 ? "" : p.errors().describe(), sampled);
    }

    private void draw() {
        synchronized (lock) {
            if (ended) {
                return;
            }
            if (header == null) {
                header = header();
            }
            if (!onScreen) {
                terminal.puts(InfoCmp.Capability.enter_ca_mode);
                terminal.puts(InfoCmp.Capability.cursor_invisible);
                terminal.puts(InfoCmp.Capability.clear_screen);
                display.clear();
                onScreen = true;
            }
            Size size = terminal.getSize();
            int rows = Math.max(1, size.getRows());
            int columns = Math.max(10, size.getColumns());
            display.resize(Size.of(columns, rows));
            List<AttributedString> lines = LiveScreen.lines(header, counts, view, intervalNanos, columns, rows).stream()
                    .map(AttributedString::new).toList();
            display.update(lines, -1);
            terminal.flush();
        }
    }

    private void readKeys() {
        try {
            while (!quit.get()) {
                int c = terminal.reader().read(100);
                if (c == NonBlockingReader.EOF) {
                    quit.set(true); // the terminal is gone
                    break;
                }
                if (c < 0) {
                    if (dirty) {
                        dirty = false;
                        draw();
                    }
                    continue;
                }
                synchronized (lock) {
                    switch (c) {
                        case 'q', 'Q', 3 -> quit.set(true);
                        case '1', '2', '3', '4', '5' -> view = new LiveScreen.View(LiveScreen.Sort.values()[c - '1'], view.thread(), view.paused());
                        case 't', 'T' -> view = new LiveScreen.View(view.sort(), view.thread() + 1 >= counts.size() ? -1 : view.thread() + 1,
                                view.paused());
                        case 'p', 'P', ' ' -> view = new LiveScreen.View(view.sort(), view.thread(), !view.paused());
                        default -> {
                            continue;
                        }
                    }
                }
                // A key's effect shows at once, even while paused (on the counts shown when it paused).
                dirty = false;
                draw();
            }
        } catch (IOException e) {
            quit.set(true);
        }
    }

    @Override
    public void samplingEnded() {
        synchronized (lock) {
            ended = true;
        }
        quit.set(true);
        try {
            keys.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (onScreen) {
            terminal.puts(InfoCmp.Capability.cursor_visible);
            terminal.puts(InfoCmp.Capability.exit_ca_mode);
        }
        terminal.setAttributes(saved);
        terminal.flush();
        try {
            terminal.close();
        } catch (IOException ignored) {
            // The attributes are back; nothing else holds the terminal.
        }
    }

    /** The last table, on the normal screen, where it stays after Remora exits. */
    @Override
    public void write(Profile whole) {
        LiveScreen.View all = new LiveScreen.View(LiveScreen.Sort.OWN_TIME, -1, false);
        // On the normal screen, where long lines wrap rather than vanish.
        // Its percentages are of the whole run, not of the last second: this table is what the run leaves behind.
        List<LiveTable.ThreadCounts> counts = table.snapshot(whole).stream().map(LiveTable.ThreadCounts::wholeRun).toList();
        // Its header is the run's own statistics: the last progress report may be up to a second old.
        SamplingStats stats = whole.stats();
        progress = new SamplerProgress(stats.ticks(), stats.samples(), stats.errors(), stats.missed(), stats.elapsedNanos(), 0);
        pid = whole.info().pid();
        python = whole.info().pythonVersion();
        mode = whole.info().mode();
        List<String> lines = LiveScreen.lines(header(), counts, all, whole.info().intervalNanos(), FINAL_WIDTH, FINAL_ROWS);
        for (int i = 0; i < lines.size(); i++) {
            if (i != LiveScreen.KEYS_LINE) {
                out.println(lines.get(i));
            }
        }
        out.flush();
    }
}
