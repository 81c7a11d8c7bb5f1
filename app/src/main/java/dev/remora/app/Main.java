package dev.remora.app;

import dev.remora.app.cli.RemoraCommand;
import dev.remora.app.cli.UserErrorHandler;
import picocli.CommandLine;

/** Entry point of the {@code remora} command. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its exit code; never throws at the user. */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new RemoraCommand());
        UserErrorHandler errors = new UserErrorHandler();
        cli.setExecutionExceptionHandler(errors);
        cli.setParameterExceptionHandler(errors);
        return cli.execute(args);
    }
}
