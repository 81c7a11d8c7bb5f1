package dev.remora.domain.nativestack;

import java.util.ArrayList;
import java.util.List;

/**
 * The directory and file tables of a line program header, file names joined with their directories.
 * Every entry takes at least one byte, so a count read from the header is bounded by its bytes.
 *
 * @param directories by directory index, as {@link SourcePaths} resolves them
 * @param files by file index less the version's first index (0 in DWARF 5, 1 before)
 */
record LineFileTables(List<String> directories, List<String> files) {

    private static final int DW_LNCT_PATH = 1;
    private static final int DW_LNCT_DIRECTORY_INDEX = 2;

    /** DWARF 2 to 4: NUL-terminated directory names, then file entries of name, directory, time and size. */
    static LineFileTables version4(DwarfCursor c) throws NativeDataException {
        List<String> names = new ArrayList<>();
        for (String name = LineStrings.inline(c); !name.isEmpty(); name = LineStrings.inline(c)) {
            names.add(name);
        }
        List<String> directories = SourcePaths.afterCompilationDirectory(names);
        List<String> files = new ArrayList<>();
        for (String name = LineStrings.inline(c); !name.isEmpty(); name = LineStrings.inline(c)) {
            long directory = c.uleb();
            c.uleb(); // modification time
            c.uleb(); // length
            files.add(SourcePaths.file(directories, directory, name));
        }
        return new LineFileTables(directories, List.copyOf(files));
    }

    /** DWARF 5: each table says which content its entries hold and in which form. */
    static LineFileTables version5(DwarfCursor c, int offsetSize, LineStrings strings) throws NativeDataException {
        long[] directoryFormat = format(c);
        int directoryCount = c.length(c.uleb());
        List<String> names = new ArrayList<>(directoryCount);
        for (int i = 0; i < directoryCount; i++) {
            names.add(entry(c, directoryFormat, offsetSize, strings).name());
        }
        List<String> directories = SourcePaths.underCompilationDirectory(names);
        long[] fileFormat = format(c);
        int fileCount = c.length(c.uleb());
        List<String> files = new ArrayList<>(fileCount);
        for (int i = 0; i < fileCount; i++) {
            Entry e = entry(c, fileFormat, offsetSize, strings);
            files.add(SourcePaths.file(directories, e.directory(), e.name()));
        }
        return new LineFileTables(directories, List.copyOf(files));
    }

    /** Content type and form pairs. */
    private static long[] format(DwarfCursor c) throws NativeDataException {
        long[] pairs = new long[c.u8() * 2];
        for (int i = 0; i < pairs.length; i++) {
            pairs[i] = c.uleb();
        }
        return pairs;
    }

    private static Entry entry(DwarfCursor c, long[] format, int offsetSize, LineStrings strings)
            throws NativeDataException {
        if (format.length == 0) {
            throw new NativeDataException("entries without content");
        }
        String name = "";
        long directory = 0;
        for (int i = 0; i < format.length; i += 2) {
            long type = format[i];
            long form = format[i + 1];
            if (type == DW_LNCT_PATH) {
                name = LineForms.string(c, form, offsetSize, strings);
            } else if (type == DW_LNCT_DIRECTORY_INDEX) {
                directory = LineForms.unsigned(c, form);
            } else {
                LineForms.skip(c, form, offsetSize);
            }
        }
        return new Entry(name, directory);
    }

    private record Entry(String name, long directory) {}
}
