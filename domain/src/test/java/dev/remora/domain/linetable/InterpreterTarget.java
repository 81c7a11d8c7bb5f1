package dev.remora.domain.linetable;

import dev.remora.domain.offsets.LineTableFormat;

import java.util.ArrayList;
import java.util.List;

/** One CPython interpreter to test against: run as {@code chroot root executable}, or directly when root is "/". */
record InterpreterTarget(String name, String root, String executable) {

    /** What the target's line tables hold: 3.8's and 3.9's line notes, 3.10's line ranges, or the location table of later versions. */
    LineTableFormat lineTableFormat() {
        if (executable.endsWith("python3.8") || executable.endsWith("python3.9")) {
            return LineTableFormat.LINE_NOTES;
        }
        return executable.endsWith("python3.10") ? LineTableFormat.LINES : LineTableFormat.LOCATIONS;
    }

    List<String> command(List<String> arguments) {
        List<String> command = new ArrayList<>();
        if (!root.equals("/")) {
            command.add("chroot");
            command.add(root);
        }
        command.add(executable);
        command.addAll(arguments);
        return command;
    }
}
