package dev.remora.domain.nativestack;

import dev.remora.ports.ZstdDecoder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Separate debug files, found by build id or debug link, and the {@code .debug_frame} format they may carry. */
class DebugFileTest {

    @Test
    void candidatesFollowTheBuildIdThenTheDebugLinkNextToTheModule() {
        List<String> candidates = DebugFileNames.candidates("/usr/lib/x86_64-linux-gnu/libfoo.so.1",
                Optional.of("93ac61ec"), Optional.of("libfoo.so.1.debug"));

        assertThat(candidates).containsExactly(
                "/usr/lib/debug/.build-id/93/ac61ec.debug",
                "/usr/lib/debug/usr/lib/x86_64-linux-gnu/libfoo.so.1.debug",
                "/usr/lib/x86_64-linux-gnu/.debug/libfoo.so.1.debug",
                "/usr/lib/x86_64-linux-gnu/libfoo.so.1.debug");
    }

    @Test
    void theBuildIdNoteIsReadAsHex() {
        byte[] note = {4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, (byte) 0x93, (byte) 0xac, 0x61};

        assertThat(DebugFileNames.buildId(note)).contains("93ac61");
        assertThat(DebugFileNames.buildId(new byte[] {4, 0, 0})).isEmpty();
    }

    /** Needs glibc's debug file, which run-tests provisions (scripts/provision-gdb.sh: libc6-dbg). */
    @Test
    @Tag("targets")
    void aModuleWithoutSymtabTakesLocalSymbolsFromItsDebugFile() throws Exception {
        HostLibc libc = HostLibc.load();
        Fde trampoline = null;
        for (int i = 0; i < libc.ehFrame.size() && trampoline == null; i++) {
            if (libc.ehFrame.fde(i).cie().signalFrame()) {
                trampoline = libc.ehFrame.fde(i);
            }
        }
        List<String> opened = new ArrayList<>();
        ModuleFile file = ModuleFile.read(new ArrayImage(HostFiles.readAll(HostFiles.LIBC)), HostFiles.LIBC, path -> {
            opened.add(path);
            return HostFiles.open(path);
        }, ZstdDecoder.NONE);
        Assumptions.assumeTrue(libc.dynamicSymbols.at(trampoline.pcBegin() + 1).isEmpty(), "libc exports __restore_rt");

        Optional<Symbol> local = file.symbol(trampoline.pcBegin() + 1);

        assertThat(opened.stream().anyMatch(HostFiles::exists))
                .as("a libc debug file on this host: scripts/provision-gdb.sh installs libc6-dbg").isTrue();
        assertThat(opened.getFirst()).startsWith("/usr/lib/debug/.build-id/");
        assertThat(local).map(Symbol::name).contains("__restore_rt");
    }

    /** Needs glibc's debug file, which run-tests provisions; its sections are stored compressed. */
    @Test
    @Tag("targets")
    void aModuleWithoutALineTableTakesItsLinesFromItsDebugFile() throws Exception {
        HostLibc libc = HostLibc.load();
        assertThat(libc.image.section(".debug_line")).as("libc ships without its line table").isEmpty();
        ModuleFile file = ModuleFile.read(new ArrayImage(HostFiles.readAll(HostFiles.LIBC)), HostFiles.LIBC, HostFiles::open,
                ZstdDecoder.NONE);
        long malloc = HostLibc.function("malloc");

        Optional<SourceLine> line = file.line(malloc + 1);

        assertThat(line).as("a libc debug file on this host: scripts/provision-gdb.sh installs libc6-dbg").isPresent();
        assertThat(line.get().file()).endsWith("malloc.c");
        assertThat(line.get().line()).isPositive();
    }
    @Test
    void aDebugFrameSectionIsIndexedByScanningWithAbsoluteAddresses() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // CIE: length, id 0xffffffff, version 3, "", code 1, data -8, ra 16, def_cfa rsp+8, rip at cfa-8
        ByteArrayOutputStream cie = new ByteArrayOutputStream();
        CfiAssembler.u32(cie, 0xffff_ffffL);
        cie.writeBytes(new byte[] {3, 0, 1, 0x78, 16, 0x0c, 7, 8, (byte) 0x90, 1});
        CfiAssembler.u32(out, cie.size());
        out.writeBytes(cie.toByteArray());
        // FDE: CIE offset 0, 8-byte begin and range, then def_cfa_offset 16 after 4 bytes
        ByteArrayOutputStream fde = new ByteArrayOutputStream();
        CfiAssembler.u32(fde, 0);
        for (long v : new long[] {0x40_1000L, 0x40}) {
            CfiAssembler.u32(fde, v);
            CfiAssembler.u32(fde, 0);
        }
        fde.writeBytes(new byte[] {0x44, 0x0e, 0x10});
        CfiAssembler.u32(out, fde.size());
        out.writeBytes(fde.toByteArray());
        CfiSection section = CfiSection.of(CfiSection.Kind.DEBUG_FRAME, out.toByteArray(), 0);

        FdeTable table = FdeScan.scan(section);
        Fde found = table.find(0x40_1010L).orElseThrow();

        assertThat(table.size()).isEqualTo(1);
        assertThat(found.pcBegin()).isEqualTo(0x40_1000L);
        assertThat(found.pcEnd()).isEqualTo(0x40_1040L);
        assertThat(CfaInterpreter.rowAt(section, found, 0x40_1003L).cfa()).isEqualTo(new CfaRule.RegisterOffset(7, 8));
        assertThat(CfaInterpreter.rowAt(section, found, 0x40_1004L).cfa()).isEqualTo(new CfaRule.RegisterOffset(7, 16));
    }
}
