package dev.remora.adapters.vmreadv;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Which library calls {@code process_vm_readv}: the JDK's foreign function API, JNA or jnr-ffi.
 * Lower-case because the names are command-line values.
 */
public enum NativeBinding {
    ffm(FfmNativeReader::isSupported, FfmNativeReader::create),
    jna(JnaNativeReader::isSupported, JnaNativeReader::create),
    jnr(JnrNativeReader::isSupported, JnrNativeReader::create);

    private final BooleanSupplier supported;
    private final Supplier<NativeReader> reader;

    NativeBinding(BooleanSupplier supported, Supplier<NativeReader> reader) {
        this.supported = supported;
        this.reader = reader;
    }

    /** Whether this binding can call {@code process_vm_readv} here. */
    public boolean isSupported() {
        try {
            return supported.getAsBoolean();
        } catch (LinkageError e) {
            return false;
        }
    }

    /**
     * A new reader over this binding.
     *
     * @throws UnsupportedOperationException with a one-line reason when the binding cannot load here
     */
    NativeReader create() {
        try {
            return reader.get();
        } catch (LinkageError e) {
            // The binding's library is missing from the class path or failed to initialise.
            throw new UnsupportedOperationException(name() + " binding cannot load: " + firstLine(e));
        }
    }

    /** The first line of a failure's message, for one-line reasons. */
    static String firstLine(Throwable e) {
        String message = e.getMessage() != null ? e.getMessage() : e.getClass().getName();
        return message.lines().findFirst().orElse(message).strip();
    }
}
