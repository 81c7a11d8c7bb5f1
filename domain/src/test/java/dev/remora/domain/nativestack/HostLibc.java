package dev.remora.domain.nativestack;

import dev.remora.domain.discovery.ElfSections;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.elf.ElfProgramHeader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** The host's libc, read the way a walk reads a target's: its tables, and where a fake process maps it. */
final class HostLibc {

    /** Where the fake processes map libc: its link-time addresses plus this. */
    static final long BASE = 0x7f12_3400_0000L;

    final ElfImage image;
    final FdeTable ehFrame;
    final SymbolTable dynamicSymbols;

    private HostLibc() {
        try {
            image = ElfImage.read(new ArrayImage(HostFiles.readAll(HostFiles.LIBC)), ZstdDecoder.NONE);
            var ehSection = image.section(".eh_frame").orElseThrow();
            CfiSection eh = CfiSection.of(CfiSection.Kind.EH_FRAME, image.contents(ehSection), ehSection.address());
            var header = image.section(".eh_frame_hdr").orElseThrow();
            ehFrame = EhFrameHeader.read(image.contents(header), header.address(), eh);
            dynamicSymbols = SymbolTable.read(image, image.sectionOfType(11).orElseThrow());
        } catch (NativeDataException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The host's libc, or the test is skipped where there is none. */
    static HostLibc load() {
        if (!HostFiles.exists(HostFiles.LIBC)) {
            throw new AssertionError("no " + HostFiles.LIBC + " on this host: these tests read its unwind tables");
        }
        return new HostLibc();
    }

    /** An exported function's link-time address. */
    static long function(String name) {
        try (FileBytes file = HostFiles.open(HostFiles.LIBC).orElseThrow()) {
            return ElfSections.dynamicSymbol(file, name).orElseThrow(() -> new AssertionError("no " + name + " in libc"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** libc's executable segment mapped at {@link #BASE}, as /proc/PID/maps would list it. */
    MemoryMapping textMapping() {
        for (ElfProgramHeader ph : image.programHeaders()) {
            if (ph.type() == ElfProgramHeader.PT_LOAD && (ph.flags() & ElfProgramHeader.PF_X) != 0) {
                long start = ph.address() & ~0xfffL;
                long end = (ph.address() + ph.memorySize() + 0xfff) & ~0xfffL;
                return new MemoryMapping(BASE + start, BASE + end, "r-xp", ph.offset() & ~0xfffL,
                        Optional.of(HostFiles.LIBC), false);
            }
        }
        throw new AssertionError("libc has no executable segment");
    }
}
