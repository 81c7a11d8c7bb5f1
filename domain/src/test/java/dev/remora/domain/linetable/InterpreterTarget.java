package dev.remora.domain.linetable;

import java.util.ArrayList;
import java.util.List;

/** One CPython interpreter to test against: run as {@code chroot root executable}, or directly when root is "/". */
record InterpreterTarget(String name, String root, String executable) {

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
