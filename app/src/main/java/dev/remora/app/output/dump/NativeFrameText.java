package dev.remora.app.output.dump;

import dev.remora.domain.nativestack.NativeFrame;

/** A C frame as a line of a text dump, the way gdb and pystack name one. */
final class NativeFrameText {

    private NativeFrameText() {}

    static String of(NativeFrame frame) {
        String library = frame.library().orElse("?");
        if (frame.symbol().isPresent()) {
            return "(C) %s+0x%x (%s)".formatted(frame.symbol().get(), frame.offset(), library);
        }
        return frame.path().isPresent()
                ? "(C) 0x%x (%s+0x%x)".formatted(frame.pc(), library, frame.offset())
                : "(C) 0x%x".formatted(frame.pc());
    }
}
