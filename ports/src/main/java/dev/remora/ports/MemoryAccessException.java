package dev.remora.ports;

/**
 * Why a read of the target's memory failed. Sealed so callers handle every cause.
 */
public abstract sealed class MemoryAccessException extends Exception
        permits MemoryAccessException.Unmapped, MemoryAccessException.PermissionDenied,
                MemoryAccessException.ProcessGone, MemoryAccessException.Unavailable {

    private final long address;

    private MemoryAccessException(long address, String message) {
        super(message, null, false, false);
        this.address = address;
    }

    public long address() {
        return address;
    }

    /** The address is not mapped in the target (or not in the core). */
    public static final class Unmapped extends MemoryAccessException {
        public Unmapped(long address) {
            super(address, "address 0x%x is not mapped in the target".formatted(address));
        }
    }

    /** The OS refused the read: ptrace rules or capabilities. */
    public static final class PermissionDenied extends MemoryAccessException {
        public PermissionDenied(long address, String message) {
            super(address, message);
        }
    }

    /** The target process no longer exists. */
    public static final class ProcessGone extends MemoryAccessException {
        public ProcessGone(long address) {
            super(address, "process exited");
        }
    }

    /** The bytes exist in the target's address space but this source cannot supply them (e.g. not in a core). */
    public static final class Unavailable extends MemoryAccessException {
        public Unavailable(long address, String message) {
            super(address, message);
        }
    }
}
