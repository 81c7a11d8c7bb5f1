package dev.remora.domain.nativestack;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes {@code .eh_frame} bytes by hand: one CIE (augmentation "zR", FDE addresses as absolute
 * udata4, code alignment 1, data alignment -8, return address in column 16) and FDEs after it.
 */
final class CfiAssembler {

    /** The CIE's initial rules, as every x86-64 compiler writes them: CFA = rsp + 8, rip at CFA - 8. */
    static final int[] X86_64_ENTRY = {0x0c, 0x07, 0x08, 0x90, 0x01};

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final int cieOffset;

    CfiAssembler(String augmentation, int[] initialInstructions) {
        cieOffset = out.size();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        u32(body, 0); // CIE id
        body.write(1); // version
        body.writeBytes((augmentation + "\0").getBytes(StandardCharsets.US_ASCII));
        uleb(body, 1);
        sleb(body, -8);
        body.write(16);
        if (augmentation.startsWith("z")) {
            uleb(body, augmentation.contains("R") ? 1 : 0);
            if (augmentation.contains("R")) {
                body.write(PointerEncoding.UDATA4);
            }
        }
        for (int b : initialInstructions) {
            body.write(b);
        }
        entry(body);
    }

    CfiAssembler() {
        this("zR", X86_64_ENTRY);
    }

    /** An FDE for {@code [begin, begin + size)} running {@code instructions} after the CIE's. */
    CfiAssembler fde(long begin, long size, int... instructions) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        u32(body, out.size() + 4 - cieOffset); // CIE pointer, counted back from this field
        u32(body, begin);
        u32(body, size);
        uleb(body, 0); // augmentation data length
        for (int b : instructions) {
            body.write(b);
        }
        entry(body);
        return this;
    }

    byte[] bytes() {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        copy.writeBytes(out.toByteArray());
        u32(copy, 0); // terminator
        return copy.toByteArray();
    }

    CfiSection section() {
        return CfiSection.of(CfiSection.Kind.EH_FRAME, bytes(), 0x10_0000);
    }

    /** The offset of the first FDE: right after the CIE. */
    int firstFde() throws NativeDataException {
        return CfiDecoder.entry(section(), cieOffset).orElseThrow().end();
    }

    private void entry(ByteArrayOutputStream body) {
        while ((body.size() + 4) % 8 != 0) {
            body.write(0); // DW_CFA_nop padding
        }
        u32(out, body.size());
        out.writeBytes(body.toByteArray());
    }

    static void u32(ByteArrayOutputStream o, long v) {
        for (int i = 0; i < 4; i++) {
            o.write((int) (v >>> (8 * i)));
        }
    }

    static void uleb(ByteArrayOutputStream o, long v) {
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            o.write(v != 0 ? b | 0x80 : b);
        } while (v != 0);
    }

    static void sleb(ByteArrayOutputStream o, long v) {
        while (true) {
            int b = (int) (v & 0x7f);
            v >>= 7;
            boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
            o.write(done ? b : b | 0x80);
            if (done) {
                return;
            }
        }
    }
}
