package dev.remora.domain.nativestack;

import java.util.Optional;
import java.util.OptionalLong;

/** Decodes the CIEs and FDEs of a call frame information section, checking every length against it. */
final class CfiDecoder {

    private static final long DWARF64_ESCAPE = 0xffff_ffffL;
    private static final int MAX_AUGMENTATION = 16;

    /**
     * The frame of one entry: {@code [start, end)} in the section.
     *
     * @param bodyStart where the fields after the CIE id / CIE pointer begin
     * @param ciePointer for an FDE, the section offset of its CIE
     */
    record Entry(int start, int bodyStart, int end, boolean isCie, long ciePointer) {}

    private CfiDecoder() {}

    /** The entry at {@code offset}, empty at the section's zero-length terminator or its end. */
    static Optional<Entry> entry(CfiSection section, int offset) throws NativeDataException {
        byte[] bytes = section.bytes();
        if (offset >= bytes.length) {
            return Optional.empty();
        }
        DwarfCursor in = new DwarfCursor(bytes, offset, bytes.length);
        long length = in.u32();
        boolean wide = length == DWARF64_ESCAPE;
        if (wide) {
            length = in.u64();
        }
        if (length == 0) {
            return Optional.empty();
        }
        int contentStart = in.position();
        int end = contentStart + in.length(length);
        int idPosition = in.position();
        long id = wide ? in.u64() : in.u32();
        if (in.position() > end) {
            throw new NativeDataException("entry at 0x%x shorter than its id".formatted(offset));
        }
        boolean isCie;
        long ciePointer;
        if (section.kind() == CfiSection.Kind.EH_FRAME) {
            isCie = id == 0;
            ciePointer = idPosition - id;
        } else {
            isCie = wide ? id == -1L : id == DWARF64_ESCAPE;
            ciePointer = id;
        }
        return Optional.of(new Entry(offset, in.position(), end, isCie, ciePointer));
    }

    /** The CIE at {@code offset}, decoded once per section. */
    static Cie cie(CfiSection section, int offset) throws NativeDataException {
        Cie cached = section.cies().get(offset);
        if (cached != null) {
            return cached;
        }
        Entry e = entry(section, offset).orElseThrow(() -> new NativeDataException("no CIE at 0x%x".formatted(offset)));
        if (!e.isCie()) {
            throw new NativeDataException("entry at 0x%x is not a CIE".formatted(offset));
        }
        Cie cie = decodeCie(section, e);
        if (section.cies().size() < 1 << 16) {
            section.cies().put(offset, cie);
        }
        return cie;
    }

    private static Cie decodeCie(CfiSection section, Entry e) throws NativeDataException {
        DwarfCursor in = new DwarfCursor(section.bytes(), e.bodyStart(), e.end());
        int version = in.u8();
        if (version != 1 && version != 3 && version != 4) {
            throw new NativeDataException("CIE version %d at 0x%x".formatted(version, e.start()));
        }
        String augmentation = in.cString(MAX_AUGMENTATION);
        if (augmentation.contains("eh")) {
            throw new NativeDataException("obsolete 'eh' augmentation at 0x%x".formatted(e.start()));
        }
        if (version == 4) {
            int addressSize = in.u8();
            int segmentSize = in.u8();
            if (addressSize != 8 || segmentSize != 0) {
                throw new NativeDataException("CIE for %d-byte addresses with segments of %d".formatted(addressSize, segmentSize));
            }
        }
        long codeAlignment = in.uleb();
        long dataAlignment = in.sleb();
        long ra = version == 1 ? in.u8() : in.uleb();
        if (ra < 0 || ra > 1024) {
            throw new NativeDataException("return address column %d".formatted(ra));
        }
        int fdeEncoding = PointerEncoding.ABSPTR;
        boolean signal = false;
        boolean z = augmentation.startsWith("z");
        if (z) {
            long augLength = in.uleb();
            int augEnd = in.position() + in.length(augLength);
            DwarfCursor aug = new DwarfCursor(section.bytes(), in.position(), augEnd);
            for (int i = 1; i < augmentation.length(); i++) {
                switch (augmentation.charAt(i)) {
                    case 'L' -> aug.u8();
                    case 'P' -> {
                        int encoding = aug.u8();
                        // The personality routine is never called here: its pointer is only skipped.
                        PointerEncoding.readValue(aug, encoding & 0x0f);
                    }
                    case 'R' -> fdeEncoding = aug.u8();
                    case 'S' -> signal = true;
                    case 'B', 'G' -> { }
                    default -> i = augmentation.length(); // the length lets the rest be skipped
                }
            }
            in.skip(augEnd - in.position());
        } else {
            for (int i = 0; i < augmentation.length(); i++) {
                if (augmentation.charAt(i) != 'S') {
                    throw new NativeDataException("augmentation \"%s\" without 'z'".formatted(augmentation));
                }
                signal = true;
            }
        }
        return new Cie(e.start(), codeAlignment, dataAlignment, (int) ra, fdeEncoding, z, signal, in.position(), e.end());
    }

    /** The FDE at {@code offset}. */
    static Fde fde(CfiSection section, int offset) throws NativeDataException {
        Entry e = entry(section, offset).orElseThrow(() -> new NativeDataException("no FDE at 0x%x".formatted(offset)));
        return fde(section, e);
    }

    static Fde fde(CfiSection section, Entry e) throws NativeDataException {
        if (e.isCie()) {
            throw new NativeDataException("entry at 0x%x is a CIE, not an FDE".formatted(e.start()));
        }
        if (e.ciePointer() < 0 || e.ciePointer() >= section.bytes().length) {
            throw new NativeDataException("FDE at 0x%x names a CIE outside the section".formatted(e.start()));
        }
        Cie cie = cie(section, (int) e.ciePointer());
        DwarfCursor in = new DwarfCursor(section.bytes(), e.bodyStart(), e.end());
        int encoding = cie.fdeEncoding();
        if ((encoding & PointerEncoding.INDIRECT) != 0) {
            throw new NativeDataException("indirect FDE address at 0x%x".formatted(e.start()));
        }
        long begin = PointerEncoding.read(in, encoding, section.address(), OptionalLong.empty());
        long range = PointerEncoding.readValue(in, encoding & 0x0f);
        if (cie.hasAugmentationData()) {
            long length = in.uleb();
            in.skip(length);
        }
        return new Fde(e.start(), cie, begin, begin + range, in.position(), e.end());
    }
}
