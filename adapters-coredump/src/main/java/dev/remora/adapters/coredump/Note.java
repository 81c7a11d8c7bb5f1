package dev.remora.adapters.coredump;

/**
 * One ELF note of a core: its owner ({@code "CORE"}, {@code "LINUX"}, ...), its type and where its
 * descriptor lies in the file. The descriptor's range was checked against its segment, which was
 * checked against the file.
 */
record Note(String owner, long type, long descOffset, long descSize) {

    static final String CORE = "CORE";
    static final long NT_PRSTATUS = 1;
    static final long NT_PRPSINFO = 3;
    static final long NT_SIGINFO = 0x53494749;
    static final long NT_FILE = 0x46494c45;

    boolean is(String owner, long type) {
        return this.type == type && this.owner.equals(owner);
    }
}
