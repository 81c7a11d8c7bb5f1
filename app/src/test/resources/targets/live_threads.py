"""THREADS threads (default 4) calling short functions in turns, for SECONDS (default: until killed);
prints READY once they run. The main thread's stack goes <module>, spin, busy_leaf."""
import sys
import threading
import time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 4
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 3600.0


def busy_leaf(n):
    return sum(range(n))


def spin(until):
    while time.monotonic() < until:
        busy_leaf(300)


def napper(until):
    while time.monotonic() < until:
        time.sleep(0.001)


end = time.monotonic() + SECONDS
for i in range(THREADS - 1):
    threading.Thread(target=napper, args=(end,), name="napper-%d" % i, daemon=True).start()
print("READY", flush=True)
spin(end)
