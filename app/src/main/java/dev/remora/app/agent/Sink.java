package dev.remora.app.agent;

/** Where the agent's windows go: a back end, or a directory. Called from the sink's own thread only. */
public interface Sink {

    /** How log lines name it. */
    String name();

    /** What it sends. */
    WireFormat format();

    /** Hands one window over; throws when it was not taken, saying whether to try again. */
    void deliver(ProfileWindow window) throws DeliveryFailure;

    /** Why a window was not delivered, and whether another try may succeed. */
    final class DeliveryFailure extends Exception {

        /** What to do with the window. */
        public enum Next {
            /** The back end is down, busy or slow: keep the window and try again later. */
            RETRY,
            /** The back end refused this window for what it is: trying again would fail again. */
            DROP
        }

        private final Next next;

        public DeliveryFailure(Next next, String message) {
            super(message);
            this.next = next;
        }

        public Next next() {
            return next;
        }
    }
}
