package dev.remora.adapters.vmreadv;

import dev.remora.ports.RemoteMemory;
import dev.remora.ports.testing.RemoteMemoryContract;
import org.junit.jupiter.api.Nested;

/** process_vm_readv keeps the contract every live backend keeps, through each native binding. */
class VmReadvContractTest {

    @Nested
    class Ffm extends RemoteMemoryContract {
        @Override
        protected RemoteMemory open(int pid) {
            return VmReadvMemory.open(pid, NativeBinding.ffm);
        }
    }

    @Nested
    class Jna extends RemoteMemoryContract {
        @Override
        protected RemoteMemory open(int pid) {
            return VmReadvMemory.open(pid, NativeBinding.jna);
        }
    }

    @Nested
    class Jnr extends RemoteMemoryContract {
        @Override
        protected RemoteMemory open(int pid) {
            return VmReadvMemory.open(pid, NativeBinding.jnr);
        }
    }
}
