package dev.remora.ports;

import java.util.Optional;

/**
 * Stops every thread of a live process and lets it run again, so that what is read in between is
 * exactly one moment of the process. Calls must all come from the thread that made the stopper (the
 * operating system ties a stopped process to the thread that stopped it).
 */
public interface ProcessStopper extends AutoCloseable {

    /** Stops every thread of the process, those started since the last stop too; returns once all are stopped. */
    void stop() throws ProcessStopException;

    /** A stopped thread's registers; empty when it is not stopped or has exited. */
    default Optional<ThreadRegisters> registers(long nativeThreadId) {
        return Optional.empty();
    }

    /** Lets the stopped threads run on (those that exited meanwhile are let go). */
    void resume();

    /** Lets go of the process, which runs on as if never stopped. */
    @Override
    void close();
}
