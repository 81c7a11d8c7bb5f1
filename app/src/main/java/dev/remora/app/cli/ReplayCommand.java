package dev.remora.app.cli;

import dev.remora.app.output.profile.binary.TachyonFormatException;
import dev.remora.app.output.profile.binary.TachyonReader;
import dev.remora.domain.profile.Profile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code remora replay FILE}: a binary capture (Remora's or CPython 3.15's) written out in any format. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Read a binary capture (written with --binary, by Remora or by CPython 3.15's profiler) and write it"
                + " in any profile format.")
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The binary capture.")
    Path capture;

    @Mixin
    OutputOptions outputs = new OutputOptions();

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(capture)) {
            throw new UserError("no capture %s".formatted(capture), UserErrorHandler.EXIT_USAGE);
        }
        Profile profile;
        try {
            profile = TachyonReader.read(capture);
        } catch (TachyonFormatException e) {
            throw new UserError("cannot replay %s: %s".formatted(capture, e.getMessage()), UserErrorHandler.EXIT_FAILURE);
        } catch (NoSuchFileException e) {
            throw new UserError("no capture %s".formatted(capture), UserErrorHandler.EXIT_USAGE);
        } catch (IOException e) {
            throw new UserError("cannot read %s: %s".formatted(capture, e.getMessage()), UserErrorHandler.EXIT_FAILURE);
        }
        ProfileOutput.prepareForReplay(outputs, profile.info().pid(), spec.commandLine().getOut(), spec.commandLine().getErr())
                .write(profile);
        return 0;
    }
}
