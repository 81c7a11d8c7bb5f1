package dev.remora.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.LinkedHashMap;
import java.util.Map;

/** The top-level command; the work is in its subcommands. */
@Command(name = "remora", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
        description = "Reads a running CPython 3.8-3.15 process from the outside and shows its Python stacks.")
public final class RemoraCommand implements Runnable {

    /** The subcommands, in the order help lists them. */
    private static final Map<String, Class<?>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("run", RunCommand.class);
        SUBCOMMANDS.put("attach", AttachCommand.class);
        SUBCOMMANDS.put("dump", DumpCommand.class);
        SUBCOMMANDS.put("bench", BenchCommand.class);
        SUBCOMMANDS.put("ps", PsCommand.class);
        SUBCOMMANDS.put("replay", ReplayCommand.class);
        SUBCOMMANDS.put("top", TopCommand.class);
        SUBCOMMANDS.put("agent", AgentCommand.class);
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The whole command line: every subcommand (for help and shell completion), created by {@code factory}. */
    public static CommandLine commandLine(CommandLine.IFactory factory) {
        CommandLine cli = new CommandLine(RemoraCommand.class, factory);
        SUBCOMMANDS.forEach((name, command) -> cli.addSubcommand(name, new CommandLine(command, factory)));
        return prepared(cli);
    }

    /**
     * The command line for {@code args}: when they name a subcommand, only that one is built, since
     * reading the options of all of them is most of what a start costs.
     */
    public static CommandLine commandLine(CommandLine.IFactory factory, String... args) {
        if (args.length == 0 || !SUBCOMMANDS.containsKey(args[0])) {
            return commandLine(factory);
        }
        CommandLine cli = new CommandLine(RemoraCommand.class, factory);
        cli.addSubcommand(args[0], new CommandLine(SUBCOMMANDS.get(args[0]), factory));
        return prepared(cli);
    }

    private static CommandLine prepared(CommandLine cli) {
        // Everything after the script name belongs to the script.
        CommandLine run = cli.getSubcommands().get("run");
        if (run != null) {
            run.setStopAtPositional(true);
        }
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
