package dev.remora.app;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the release's ahead-of-time cache is trained on: a dump and a short profile of each of some real
 * Python processes, run in one JVM so that the cache holds the classes all of them load (3.13+ and
 * older CPythons take different paths). Not a user command.
 */
public final class AotTraining {

    private AotTraining() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: AotTraining PID...");
            System.exit(2);
        }
        PrintWriter discard = new PrintWriter(OutputStream.nullOutputStream());
        Path dir = Files.createTempDirectory("remora-aot-");
        try {
            for (String pid : args) {
                int dump = Main.run(discard, discard, "dump", "-a", pid);
                int profile = Main.run(discard, discard, "attach", "-d", "1", "--pstats", "-o",
                        dir.resolve("profile.pstats").toString(), pid);
                if (dump != 0 || profile != 0) {
                    System.err.println("AotTraining: process " + pid + ": dump exited " + dump + ", profile " + profile);
                    System.exit(1);
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }
}
