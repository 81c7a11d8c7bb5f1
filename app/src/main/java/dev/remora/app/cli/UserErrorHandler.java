package dev.remora.app.cli;

import dev.remora.domain.InspectionException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.util.List;
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
        err.println("remora: " + unreadableOptionsFile(e, args).orElse(e.getMessage()));
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            // A misspelt command or option: say the nearest one (picocli ranks them), as git does.
            err.println("Did you mean: " + unmatched.getSuggestions().getFirst() + "?");
        }
        err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return EXIT_USAGE;
    }

    /**
     * A word picocli left unmatched, or could not take as a value (a positional PID), that names a file of
     * options: that file could not be read, which picocli does not say.
     */
    private static Optional<String> unreadableOptionsFile(ParameterException e, String[] args) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            return OptionsFiles.refused(unmatched.getUnmatched(), args);
        }
        return e.getValue() == null ? Optional.empty() : OptionsFiles.refused(List.of(e.getValue()), args);
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
