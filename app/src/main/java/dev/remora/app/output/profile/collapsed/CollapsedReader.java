package dev.remora.app.output.profile.collapsed;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads collapsed stacks back into a profile (a baseline to compare with): lines of
 * {@code [pid:P;][tid:T;]root;...;leaf COUNT}, frames as {@code file:function:line} (as Remora and
 * CPython's profiler write them) or bare names (as flamegraph.pl takes them).
 */
public final class CollapsedReader {

    /** A line this long is not a stack. */
    private static final int MAX_LINE = 1 << 20;
    /** Samples a baseline may hold in all: counts that are durations, not samples, would exceed it. */
    private static final long MAX_SAMPLES = 100_000_000;

    private CollapsedReader() {}

    /** @throws IllegalArgumentException naming the first line that is not a collapsed stack */
    public static Profile read(List<String> lines, String source) {
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(0, "", "collapsed", ProfileMode.WALL, 1_000_000, 0));
        Map<String, FrameInfo> frames = new HashMap<>();
        long samples = 0;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n).strip();
            if (line.isEmpty()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long count;
            try {
                count = space < 0 || line.length() > MAX_LINE ? -1 : Long.parseLong(line.substring(space + 1));
            } catch (NumberFormatException e) {
                count = -1;
            }
            if (count < 0) {
                throw new IllegalArgumentException("%s line %d is not a collapsed stack (frames;...;frames COUNT)".formatted(source, n + 1));
            }
            if (count > MAX_SAMPLES - samples) {
                throw new IllegalArgumentException("%s line %d brings the samples past %d (are its counts durations?)"
                        .formatted(source, n + 1, MAX_SAMPLES));
            }
            String[] parts = line.substring(0, space).split(";");
            int first = 0;
            long thread = 0;
            while (first < parts.length && (parts[first].startsWith("pid:") || parts[first].startsWith("tid:"))) {
                if (parts[first].startsWith("tid:")) {
                    thread = parseOr(parts[first].substring(4), 0);
                }
                first++;
            }
            for (long k = 0; k < count; k++) {
                builder.beginSample(samples * 1_000_000);
                builder.beginThread(0, thread, 0);
                for (int i = parts.length - 1; i >= first; i--) {
                    builder.frame(frames.computeIfAbsent(parts[i], CollapsedReader::frame));
                }
                builder.endThread(Optional.empty());
                samples++;
            }
        }
        builder.finish(new SamplingStats(samples, samples, StackErrors.NONE, 0, samples * 1_000_000));
        return builder.profile();
    }

    /** {@code file:function:line}, a C frame's {@code function (library)}, or a bare name. */
    private static FrameInfo frame(String text) {
        int libraryAt = text.lastIndexOf(" (");
        if (text.endsWith(")") && libraryAt > 0 && text.indexOf(':', libraryAt) < 0) {
            return FrameInfo.ofNative(text.substring(0, libraryAt), text.substring(libraryAt + 2, text.length() - 1));
        }
        if (text.equals(PseudoFrames.NATIVE.function())) {
            return PseudoFrames.NATIVE;
        }
        if (text.equals(PseudoFrames.GC.function())) {
            return PseudoFrames.GC;
        }
        int lineAt = text.lastIndexOf(':');
        int functionAt = lineAt <= 0 ? -1 : text.lastIndexOf(':', lineAt - 1);
        long line = lineAt < 0 ? -1 : parseOr(text.substring(lineAt + 1), -1);
        if (functionAt < 0 || line < 0 || line > Integer.MAX_VALUE) {
            return new FrameInfo(text, "", SourceLocation.NONE);
        }
        return new FrameInfo(text.substring(functionAt + 1, lineAt), text.substring(0, functionAt),
                new SourceLocation((int) line, (int) line, SourceLocation.ABSENT, SourceLocation.ABSENT));
    }

    private static long parseOr(String digits, long otherwise) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
