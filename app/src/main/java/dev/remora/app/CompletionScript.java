package dev.remora.app;

import dev.remora.app.cli.RemoraCommand;
import picocli.AutoComplete;

/** Prints the bash completion script of the {@code remora} command (zsh loads it through bashcompinit). */
public final class CompletionScript {

    private CompletionScript() {}

    public static void main(String[] args) {
        System.out.print(AutoComplete.bash("remora", RemoraCommand.commandLine(Main.factory())));
    }
}
