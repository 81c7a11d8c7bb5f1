package dev.remora.adapters.coredump;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A file the core says the process had mapped, which this machine cannot supply: the bytes of it that
 * the dump left out cannot be read, and the domain cannot read its ELF sections.
 *
 * @param path the path the core records
 * @param lookedAt where it was looked for (under the sysroot when one was given), when the path is a real one
 */
public record UnavailableFile(String path, Reason reason, Optional<Path> lookedAt) {

    public enum Reason {
        /** Nothing at the path (under the sysroot, when one was given). */
        NOT_FOUND,
        /** A file is there, but its first page differs from the core's copy: another build. */
        DIFFERENT_FILE,
        /** The core marks it "(deleted)": whatever is at the path now is not what was mapped. */
        DELETED,
        /** It is there but cannot be opened. */
        UNREADABLE
    }

    /** The right file may exist elsewhere: under a sysroot that holds the core's machine's files. */
    public boolean sysrootMayHelp() {
        return reason == Reason.NOT_FOUND || reason == Reason.DIFFERENT_FILE;
    }

    /** One clause naming the file and what is wrong with it, e.g. for "... because X". */
    public String describe() {
        String at = lookedAt.map(p -> p.toString().equals(path) ? "" : " (looked for " + p + ")").orElse("");
        return switch (reason) {
            case NOT_FOUND -> path + " is not on this machine" + at;
            case DIFFERENT_FILE -> path + " on this machine" + at + " is not the file the process mapped";
            case DELETED -> path + " was deleted or replaced after the process mapped it";
            case UNREADABLE -> path + " cannot be opened" + at;
        };
    }
}
