package dev.remora.adapters.vmreadv;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.PtraceAdvice;

/** The errno values {@code process_vm_readv} reports, and what each means for a read. */
final class Errno {

    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EFAULT = 14;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;

    private Errno() {}

    /** True when the error concerns the whole process rather than the range that was being read. */
    static boolean affectsWholeProcess(int errno) {
        return errno == ESRCH || errno == EPERM || errno == EACCES || errno == ENOSYS;
    }

    static MemoryAccessException toException(int errno, int pid, long address) {
        return switch (errno) {
            case EFAULT -> new MemoryAccessException.Unmapped(address);
            case EPERM, EACCES -> new MemoryAccessException.PermissionDenied(address, PtraceAdvice.message(pid));
            case ESRCH -> new MemoryAccessException.ProcessGone(address);
            case ENOSYS -> new MemoryAccessException.Unavailable(address,
                    "process_vm_readv is not available on this system (kernel or seccomp policy)");
            case ENOMEM -> new MemoryAccessException.Unavailable(address,
                    "the kernel ran out of memory reading process %d at 0x%x".formatted(pid, address));
            default -> new MemoryAccessException.Unavailable(address,
                    "process_vm_readv failed for process %d at 0x%x with errno %d".formatted(pid, address, errno));
        };
    }
}
