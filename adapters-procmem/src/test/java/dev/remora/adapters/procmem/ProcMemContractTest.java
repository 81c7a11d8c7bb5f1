package dev.remora.adapters.procmem;

import dev.remora.ports.RemoteMemory;
import dev.remora.ports.testing.RemoteMemoryContract;

/** /proc/PID/mem keeps the contract every live backend keeps. */
class ProcMemContractTest extends RemoteMemoryContract {

    @Override
    protected RemoteMemory open(int pid) {
        return ProcMemMemory.open(pid);
    }
}
