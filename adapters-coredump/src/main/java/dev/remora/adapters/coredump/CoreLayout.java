package dev.remora.adapters.coredump;

import dev.remora.ports.elf.ElfProgramHeader;
import java.util.List;

/** Everything a core's headers and notes say, checked: the process, its mapped files and its address space. */
record CoreLayout(ProcessNotes process, List<FileMapping> files, AddressSpace space) {

    static CoreLayout read(CoreBytes core) throws CoreFileException {
        ElfHeader header = ElfHeader.read(core);
        List<ElfProgramHeader> headers = header.programHeaders(core);
        List<Note> notes = Notes.read(core, headers);
        ProcessNotes process = ProcessNotes.read(core, notes);
        // Cores from kernels before 3.7 have no NT_FILE: the process then has only anonymous mappings.
        List<FileMapping> files = List.of();
        for (Note n : notes) {
            if (n.is(Note.CORE, Note.NT_FILE)) {
                files = FileNote.read(core, n);
                break;
            }
        }
        return new CoreLayout(process, files, AddressSpace.build(core, headers, files));
    }
}
