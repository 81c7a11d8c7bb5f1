package dev.remora.app.output.profile.binary;

/**
 * CPython 3.15's binary profile format ({@code --binary}, "TACH" version 1), as its 3.15.2 writer
 * lays it out: a 64-byte header, the sample records (raw, or one zstd stream of frames), the string
 * table, the frame table, an optional 56-byte stats block and a 32-byte footer. Little-endian.
 */
final class TachyonLayout {

    /** "HCAT" on disk: the u32 0x54414348 written little-endian. */
    static final int MAGIC = 0x54414348;
    static final int VERSION = 1;
    static final int HEADER_SIZE = 64;
    static final int FOOTER_SIZE = 32;
    static final int STATS_SIZE = 56;
    static final long STATS_MAGIC = 0x5441_5453_4843_4154L; // "TACHSTAT" read as a little-endian u64

    // Header fields.
    static final int H_PYTHON = 0x08;
    static final int H_START_US = 0x0c;
    static final int H_INTERVAL_US = 0x14;
    static final int H_SAMPLES = 0x1c;
    static final int H_THREADS = 0x24;
    static final int H_STRINGS_AT = 0x28;
    static final int H_FRAMES_AT = 0x30;
    static final int H_COMPRESSION = 0x38;
    static final int H_CONFIG = 0x3c;

    static final int COMPRESSION_NONE = 0;
    static final int COMPRESSION_ZSTD = 1;
    /** The level CPython's writer uses. */
    static final int ZSTD_LEVEL = 5;

    // Record encodings.
    static final int REPEAT = 0;
    static final int FULL = 1;
    static final int SUFFIX = 2;
    static final int POP_PUSH = 3;
    /** The record header: u64 thread id, u32 interpreter id, u8 encoding. */
    static final int RECORD_HEADER = 13;

    /** CPython's reader refuses deeper stacks; its writer keeps the innermost 256 frames. */
    static final int MAX_DEPTH = 256;
    static final int NO_OPCODE = 255;

    // Config word: bits 0-2 mode + 1, bit 3 features recorded, bits 4+ features.
    static final int FEATURES_RECORDED = 1 << 3;
    static final int FEATURE_ALL_THREADS = 1 << 4;
    static final int FEATURE_NATIVE = 2 << 4;
    static final int FEATURE_GC = 4 << 4;
    static final int FEATURE_OPCODES = 8 << 4;

    /** Samples decompressed from one file at most, as CPython's reader caps them. */
    static final long MAX_SAMPLE_BYTES = 1L << 30;

    private TachyonLayout() {}
}
