package dev.remora.app.cli;

import dev.remora.app.agent.Agent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * SIGTERM and SIGINT end the agent the way a service manager expects: it stops sampling, delivers
 * what it has and exits 0, where the JVM's own handling would exit 143 from a shutdown hook. SIGUSR1
 * asks for the health line. The JDK's signal API is reached by reflection: javac flags every direct
 * use of it, and the build treats warnings as errors.
 */
final class AgentSignals {

    private AgentSignals() {}

    static void install(Agent agent) {
        on("TERM", agent::stop);
        on("INT", agent::stop);
        on("USR1", agent::reportHealth);
    }

    private static void on(String name, Runnable action) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object handler = Proxy.newProxyInstance(AgentSignals.class.getClassLoader(), new Class<?>[] {handlerType},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            action.run();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "remora agent's SIG" + name + " handler";
                    });
            signal.getMethod("handle", signal, handlerType).invoke(null, signal.getConstructor(String.class).newInstance(name),
                    handler);
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException thrown ? thrown.getCause() : e;
            // A signal the JVM keeps for itself, or a runtime without the API: the default stays.
            System.err.println("remora agent: SIG" + name + " keeps its default meaning: " + cause);
        }
    }
}
