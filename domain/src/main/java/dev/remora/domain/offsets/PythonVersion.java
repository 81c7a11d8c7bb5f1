package dev.remora.domain.offsets;

/** A CPython version as encoded in {@code PY_VERSION_HEX}. */
public record PythonVersion(int major, int minor, int micro, int releaseLevel, int serial) {

    private static final int FINAL = 0xF;

    public static PythonVersion fromHex(long hex) {
        return new PythonVersion((int) (hex >>> 24) & 0xFF, (int) (hex >>> 16) & 0xFF,
                (int) (hex >>> 8) & 0xFF, (int) (hex >>> 4) & 0xF, (int) hex & 0xF);
    }

    public boolean isFinal() {
        return releaseLevel == FINAL;
    }

    public String majorMinor() {
        return major + "." + minor;
    }

    @Override
    public String toString() {
        String base = major + "." + minor + "." + micro;
        return switch (releaseLevel) {
            case 0xA -> base + "a" + serial;
            case 0xB -> base + "b" + serial;
            case 0xC -> base + "rc" + serial;
            case FINAL -> base;
            default -> base + "?" + releaseLevel + "." + serial;
        };
    }
}
