package dev.remora.app.dump;

import dev.remora.app.Main;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the remora command line in this JVM and keeps what it printed. */
public record RemoraCli(int exitCode, String out, String err) {

    public static RemoraCli run(Object... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] words = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            words[i] = String.valueOf(args[i]);
        }
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), words);
        return new RemoraCli(code, out.toString(), err.toString());
    }
}
