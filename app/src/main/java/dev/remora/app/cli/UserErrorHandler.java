package dev.remora.app.cli;

import dev.remora.domain.InspectionException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Turns every failure into one line on stderr and a non-zero exit code. Only a bug in Remora itself
 * shows a stack trace, and only when REMORA_DEBUG is set.
 */
public final class UserErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

    public static final int EXIT_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        err.println("remora: " + unreadableOptionsFile(e).orElse(e.getMessage()));
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            // A misspelt command or option: say the nearest one (picocli ranks them), as git does.
            err.println("Did you mean: " + unmatched.getSuggestions().getFirst() + "?");
        }
        err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return EXIT_USAGE;
    }

    /**
     * picocli reads {@code @FILE} as a file of options, and leaves it as a word when it cannot read the
     * file: the word is then unmatched, which says nothing of the file.
     */
    private static Optional<String> unreadableOptionsFile(ParameterException e) {
        if (!(e instanceof CommandLine.UnmatchedArgumentException unmatched)) {
            return Optional.empty();
        }
        return unmatched.getUnmatched().stream().filter(word -> word.length() > 1 && word.startsWith("@")).findFirst()
                .map(word -> "options file %s cannot be read: %s".formatted(word.substring(1), whyUnreadable(word.substring(1))));
    }

    private static String whyUnreadable(String name) {
        try {
            Path file = Path.of(name);
            return !Files.exists(file) ? "no such file" : Files.isDirectory(file) ? "a directory" : "not readable";
        } catch (java.nio.file.InvalidPathException e) {
            return "not a path";
        }
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, ParseResult parsed) {
        PrintWriter err = cli.getErr();
        switch (e) {
            case UserError u -> {
                err.println("remora: " + u.getMessage());
                err.flush();
                return u.exitCode();
            }
            case InspectionException i -> err.println("remora: " + i.getMessage());
            case java.io.IOException io -> err.println("remora: " + io.getMessage());
            default -> {
                err.println("remora: internal error: " + e);
                if (System.getenv("REMORA_DEBUG") != null) {
                    e.printStackTrace(err);
                }
            }
        }
        err.flush();
        return EXIT_FAILURE;
    }
}
