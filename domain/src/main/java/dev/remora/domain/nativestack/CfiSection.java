package dev.remora.domain.nativestack;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bytes of one call frame information section and where the image places it. The two kinds
 * differ in how an FDE names its CIE and in the CIE's id.
 *
 * @param address the section's link-time address, the base of pc-relative pointers
 */
record CfiSection(Kind kind, byte[] bytes, long address, Map<Integer, Cie> cies) {

    enum Kind {
        /** {@code .eh_frame}: CIE id 0, an FDE's CIE pointer counts back from itself. */
        EH_FRAME,
        /** {@code .debug_frame}: CIE id all ones, an FDE's CIE pointer is a section offset. */
        DEBUG_FRAME
    }

    static CfiSection of(Kind kind, byte[] bytes, long address) {
        return new CfiSection(kind, bytes, address, new ConcurrentHashMap<>());
    }

    @Override
    public String toString() {
        return "CfiSection[%s, %d bytes at 0x%x]".formatted(kind, bytes.length, address);
    }
}
