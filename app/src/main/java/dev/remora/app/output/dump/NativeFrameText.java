package dev.remora.app.output.dump;

import dev.remora.domain.nativestack.NativeFrame;

/** A C frame as a line of a text dump, the way gdb and pystack name one. */
final class NativeFrameText {

    private NativeFrameText() {}

    static String of(NativeFrame frame) {
        String library = frame.library().orElse("?");
        String where = frame.source().filter(s -> s.line() > 0).map(s -> " at %s:%d".formatted(s.file(), s.line())).orElse("");
        if (frame.symbol().isPresent()) {
            return "(C) %s+0x%x (%s)%s".formatted(frame.symbol().get(), frame.offset(), library, where);
        }
        return frame.path().isPresent()
                ? "(C) 0x%x (%s+0x%x)%s".formatted(frame.pc(), library, frame.offset(), where)
                : "(C) 0x%x".formatted(frame.pc());
    }
}
