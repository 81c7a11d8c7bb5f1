package dev.remora.app;

import dev.remora.app.cli.OptionsFiles;
import dev.remora.app.cli.RemoraCommand;
import dev.remora.app.cli.UserErrorHandler;
import dev.remora.app.wiring.AdapterTargets;
import dev.remora.app.wiring.GuiceFactory;
import dev.remora.app.wiring.RemoraModule;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Entry point of the {@code remora} command. */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        return run(new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8), args);
    }

    /**
     * Creates commands through the run's one injector. The injector is built, and the default way of
     * reading memory bound, while the command line is read.
     */
    public static CommandLine.IFactory factory() {
        return GuiceFactory.buildingInBackground(new RemoraModule(), AdapterTargets::prepareDefault);
    }

    /** Runs the command line and returns its exit code; never throws at the user. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return run(factory(), out, err, args);
    }

    /** As {@link #run(PrintWriter, PrintWriter, String...)}, with commands created by {@code factory}. */
    public static int run(CommandLine.IFactory factory, PrintWriter out, PrintWriter err, String... args) {
        Optional<String> unreadable = OptionsFiles.unreadable(args);
        if (unreadable.isPresent()) {
            err.println("remora: " + unreadable.get());
            err.flush();
            return UserErrorHandler.EXIT_USAGE;
        }
        CommandLine cli = RemoraCommand.commandLine(factory, args);
        cli.setOut(out);
        cli.setErr(err);
        UserErrorHandler errors = new UserErrorHandler();
        cli.setExecutionExceptionHandler(errors);
        cli.setParameterExceptionHandler(errors);
        return cli.execute(args);
    }
}
