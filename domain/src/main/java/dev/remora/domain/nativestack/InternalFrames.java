package dev.remora.domain.nativestack;

import java.util.List;

/**
 * Which C frames are the interpreter's own plumbing (the eval loop, calls, vectorcall helpers): what
 * a user of py-spy or pystack does not expect to see among C frames unless asking for them. A frame is
 * internal when it runs in the interpreter's own file and its name does not say it does work a user
 * waits on (sleeping, locks, I/O, regular expressions, the garbage collector); unnamed frames there
 * (a stripped interpreter) are internal too.
 */
public enum InternalFrames {
    HIDDEN,
    SHOWN;

    /** Prefixes of interpreter functions that do work a user wants to see: what they wait in or spend on. */
    private static final List<String> USER_VISIBLE = List.of("time_", "pysleep", "sys_", "gc_", "gc_collect", "os_",
            "posix_", "select_", "sock_", "thread_", "lock_", "rlock_", "PyThread_", "_PyThread_", "PyGILState_",
            "take_gil", "drop_gil", "_PyMutex", "PyMutex_", "_PySemaphore", "PyEvent_", "_PyEvent", "sre_", "_sre_",
            "unicode_", "stringio_", "bytesio_", "_io_", "_bufferedreader", "_bufferedwriter", "fileio_", "zlib_",
            "_hashlib", "_sha", "_md5", "_blake2", "json_", "scanner_", "encoder_", "_json", "_pickle", "pickle_",
            "math_", "cmath_", "builtin_", "list_sort", "sorted", "_struct", "array_", "deque_", "_collections");

    boolean hides(NativeFrame frame, String interpreterFile) {
        if (this == SHOWN || frame.path().isEmpty() || !frame.path().get().equals(interpreterFile)) {
            return false;
        }
        if (frame.symbol().isEmpty()) {
            return true;
        }
        String name = frame.symbol().get();
        for (String prefix : USER_VISIBLE) {
            if (name.startsWith(prefix)) {
                return false;
            }
        }
        return true;
    }
}
