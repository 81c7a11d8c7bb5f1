package dev.remora.app.output.profile;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleKeeping;

import static dev.remora.app.output.profile.ProfileFixture.frame;

/** The profiles the format tests share. */
public final class Stacks {

    public static final FrameInfo SLEEPER = frame("sleeper", "/app/t.py", 23);
    public static final FrameInfo MAIN_30 = frame("main", "/app/t.py", 30);
    public static final FrameInfo MAIN_31 = frame("main", "/app/t.py", 31);
    public static final FrameInfo MODULE = frame("<module>", "/app/t.py", 40);
    public static final FrameInfo GCWORK = frame("gcwork", "/app/t.py", 17);
    public static final FrameInfo REC_5 = frame("rec", "/lib/r.py", 5);
    public static final FrameInfo REC_5_OTHER_COLUMN = frame("rec", "/lib/r.py", 5, 20);
    public static final FrameInfo REC_9 = frame("rec", "/lib/r.py", 9);
    public static final FrameInfo RUN = frame("run", "/lib/r.py", 2);
    /** Same basename, function and line as {@link #SLEEPER}: one row once directories are stripped. */
    public static final FrameInfo OTHER_SLEEPER = frame("sleeper", "/other/t.py", 23);

    private Stacks() {}

    /**
     * Eight samples on two threads: a leaf with two callers' lines, a GC pseudo frame, recursion on
     * one line (counted once per stack), and a file whose basename collides with another's.
     */
    public static Profile small() {
        return new ProfileFixture()
                .repeat(3, 1, SLEEPER, MAIN_30, MODULE)
                .repeat(2, 1, PseudoFrames.GC, GCWORK, MAIN_31, MODULE)
                .sample(1, GCWORK, MAIN_31, MODULE)
                .sample(2, REC_5, REC_5_OTHER_COLUMN, REC_9, RUN)
                .sample(2, OTHER_SLEEPER, RUN)
                .finish();
    }

    /**
     * A profile with something for every rule of the table: ties under every order, units that
     * differ between the two time columns, non-ASCII and quoted names for the name order, frames
     * without a line, more rows than the default limit.
     */
    public static Profile varied(ProfileMode mode) {
        return varied(mode, SampleKeeping.EVERY_SAMPLE);
    }

    /** {@link #varied(ProfileMode)}, kept as {@code keeping} says, with windows ending between its stacks. */
    public static Profile varied(ProfileMode mode, SampleKeeping keeping) {
        FrameInfo root = frame("_run_module_as_main", "<frozen runpy>", 198);
        FrameInfo runCode = frame("_run_code", "<frozen runpy>", 88);
        FrameInfo module = frame("<module>", "/srv/app/main.py", 3);
        FrameInfo cafe = frame("café.brew", "/srv/app/caf\u00e9.py", 12);
        FrameInfo stop = frame("停止", "/srv/app/停.py", 7);
        FrameInfo deseret = frame("\uD801\uDC00plain", "/srv/app/d.py", 1);
        FrameInfo quoted = frame("it's", "/srv/app/q.py", 4);
        FrameInfo bothQuotes = frame("say \"it's\"", "/srv/app/q.py", 5);
        FrameInfo noLine = new FrameInfo("synthetic", "/srv/app/gen.py", SourceLocation.NONE);
        FrameInfo sameBase = frame("work", "/srv/lib/util.py", 10);
        FrameInfo sameBase2 = frame("work", "/opt/other/util.py", 10);
        ProfileFixture f = new ProfileFixture(ProfileFixture.PID, mode, 1_000_000, keeping);
        f.repeat(900, 1, frame("sleeper", "/srv/app/t.py", 23), module, runCode, root);
        f.window();
        f.repeat(52, 1, frame("gcwork", "/srv/app/t.py", 17), module, runCode, root);
        f.repeat(7, 1, PseudoFrames.GC, frame("gcwork", "/srv/app/t.py", 17), module, runCode, root);
        f.repeat(400, 3, cafe, module, runCode, root);
        f.repeat(100, 3, stop, cafe, module, runCode, root);
        f.repeat(100, 3, deseret, module, runCode, root);
        f.window();
        f.repeat(30, 4, quoted, bothQuotes, noLine, module, runCode, root);
        f.repeat(30, 4, bothQuotes, quoted, noLine, module, runCode, root);
        f.repeat(12, 4, sameBase, sameBase2, module, runCode, root);
        f.repeat(12, 5, sameBase2, PseudoFrames.NATIVE, sameBase, module, runCode, root);
        f.repeat(3, 5, noLine, noLine, noLine, root);
        f.sample(5, runCode, root);
        f.sample(6, root);
        return f.finish();
    }

    public static Profile empty(ProfileMode mode) {
        return new ProfileFixture(mode, 1_000_000).finish();
    }
}
