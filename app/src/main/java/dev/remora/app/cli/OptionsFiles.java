package dev.remora.app.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Words of the command line that name a file of options ({@code @FILE}, picocli's argument files;
 * {@code @@word} stands for the word {@code @word}) that cannot be read. picocli leaves a missing one as
 * a word and fails on one that is a directory or unreadable with a stack trace: both are said here in
 * one line instead.
 */
public final class OptionsFiles {

    private OptionsFiles() {}

    /** Why the first word naming an existing file of options that cannot be read is refused, before picocli reads it. */
    public static Optional<String> unreadable(String[] args) {
        for (String word : args) {
            if (namesFile(word)) {
                Optional<Path> file = path(word.substring(1));
                if (file.isPresent() && Files.exists(file.get()) && (Files.isDirectory(file.get()) || !Files.isReadable(file.get()))) {
                    return Optional.of(refusal(word));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Why the first of {@code words}, which picocli could not take (left unmatched, or refused as a
     * parameter's value: a command's positional PID), is refused, where it is one of {@code args} naming
     * a file of options.
     */
    static Optional<String> refused(List<String> words, String[] args) {
        return words.stream().filter(OptionsFiles::namesFile).filter(word -> List.of(args).contains(word)).findFirst()
                .map(OptionsFiles::refusal);
    }

    private static boolean namesFile(String word) {
        return word.length() > 1 && word.startsWith("@") && !word.startsWith("@@");
    }

    private static String refusal(String word) {
        String name = word.substring(1);
        Optional<Path> file = path(name);
        String why = file.isEmpty() ? "not a path" : !Files.exists(file.get()) ? "no such file"
                : Files.isDirectory(file.get()) ? "a directory" : "not readable";
        return "options file %s cannot be read: %s".formatted(name, why);
    }

    private static Optional<Path> path(String name) {
        try {
            return Optional.of(Path.of(name));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
