package dev.remora.adapters.vmreadv;

import java.util.List;

/** Passes every call to a real reader and counts them, to check how many system calls a batch costs. */
final class CountingReader implements NativeReader {

    private final NativeReader delegate;
    int calls;
    int largestCall;

    CountingReader(NativeReader delegate) {
        this.delegate = delegate;
    }

    @Override
    public long readv(int pid, List<ReadRange> ranges) throws ErrnoException {
        calls++;
        largestCall = Math.max(largestCall, ranges.size());
        return delegate.readv(pid, ranges);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
