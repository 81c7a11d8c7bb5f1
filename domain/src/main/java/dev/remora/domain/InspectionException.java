package dev.remora.domain;

/**
 * Why a target could not be inspected. Each kind carries a message fit to show a user on one line.
 */
public abstract sealed class InspectionException extends Exception
        permits InspectionException.NotPython, InspectionException.UnsupportedVersion,
                InspectionException.CorruptTarget, InspectionException.TargetGone,
                InspectionException.AccessDenied, InspectionException.Unreadable,
                InspectionException.AsyncioUnavailable, InspectionException.Unsupported {

    private InspectionException(String message) {
        super(message, null, false, false);
    }

    /** No CPython runtime was found in the target. */
    public static final class NotPython extends InspectionException {
        public NotPython(String message) {
            super(message);
        }
    }

    /** A CPython this build does not read: too old, too new, or free-threaded. */
    public static final class UnsupportedVersion extends InspectionException {
        public UnsupportedVersion(String message) {
            super(message);
        }
    }

    /** Data read from the target failed validation (offsets, sizes, pointers). */
    public static final class CorruptTarget extends InspectionException {
        public CorruptTarget(String message) {
            super(message);
        }
    }

    /** The process exited. */
    public static final class TargetGone extends InspectionException {
        public TargetGone(String message) {
            super(message);
        }
    }

    /** The OS refused access to the target. */
    public static final class AccessDenied extends InspectionException {
        public AccessDenied(String message) {
            super(message);
        }
    }

    /** The target has no asyncio task graph to read: its CPython exports none, or it never imported asyncio. */
    public static final class AsyncioUnavailable extends InspectionException {

        public enum Reason {
            /** The target's CPython does not export asyncio's layout (before 3.14). */
            NEEDS_NEWER_PYTHON,
            /** The target has not imported asyncio's C module. */
            NOT_IMPORTED
        }

        private final Reason reason;

        public AsyncioUnavailable(Reason reason, String message) {
            super(message);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }
    }

    /** Something asked for that this target or this way of reading it cannot do. */
    public static final class Unsupported extends InspectionException {
        public Unsupported(String message) {
            super(message);
        }
    }

    /** Memory or metadata needed for the answer could not be read. */
    public static final class Unreadable extends InspectionException {
        public Unreadable(String message) {
            super(message);
        }
    }
}
