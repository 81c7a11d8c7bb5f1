package dev.remora.ports.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

/** What every writable backend must do: a write lands in the target, reads back, and can be undone. */
public final class WriteCheck {

    private WriteCheck() {}

    /**
     * Writes a marker over {@code original} (the bytes the target holds at {@code at}), reads it
     * back, then writes the original bytes again and reads those back.
     */
    public static void writeReadBackAndRestore(RemoteMemory memory, long at, byte[] original) throws MemoryAccessException {
        byte[] marker = new byte[original.length];
        for (int i = 0; i < marker.length; i++) {
            marker[i] = (byte) ~original[i];
        }
        assertThat(memory.writable()).isTrue();
        try {
            memory.write(at, marker, 0, marker.length);
            assertThat(readBack(memory, at, marker.length)).isEqualTo(marker);
        } finally {
            memory.write(at, original, 0, original.length);
        }
        assertThat(readBack(memory, at, original.length)).isEqualTo(original);
    }

    private static byte[] readBack(RemoteMemory memory, long at, int length) throws MemoryAccessException {
        byte[] back = new byte[length];
        memory.read(at, back, 0, length);
        return back;
    }
}
