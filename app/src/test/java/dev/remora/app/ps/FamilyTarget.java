package dev.remora.app.ps;

import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A ps_family.py process with {@link #THREADS} parked threads besides its main one, and its child when asked for one. */
record FamilyTarget(TargetInterpreter python, ScratchDir dir, Process process, long child) implements AutoCloseable {

    static final int THREADS = 3;

    static FamilyTarget start(TargetInterpreter python, boolean withChild) throws Exception {
        ScratchDir dir = ScratchDir.create(python, "remora-it-ps-");
        List<String> args = new ArrayList<>(List.of(Integer.toString(THREADS)));
        if (withChild) {
            args.add("--child");
        }
        Process process = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/ps_family.py"), args))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String ready = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(ready).as("%s started", python).startsWith("READY ");
        return new FamilyTarget(python, dir, process, Long.parseLong(ready.substring("READY ".length())));
    }

    @Override
    public void close() {
        ParkedTarget.kill(process);
        dir.close();
    }
}
