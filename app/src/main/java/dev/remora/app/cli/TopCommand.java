package dev.remora.app.cli;

import picocli.CommandLine.Command;

/** {@code remora top PID}: the live view of a running process, as {@code attach --live} shows it. */
@Command(name = "top", mixinStandardHelpOptions = true, sortOptions = false,
        description = "A live, full-screen view of the functions a running Python process spends its time in"
                + " (keys: 1-5 sort, t thread, p pause, q quit).")
public final class TopCommand extends AttachCommand {

    @Override
    public Integer call() throws Exception {
        profile.live = true;
        return super.call();
    }
}
