"""The main thread parks in main_park; with an argument, first loads that shared library with ctypes
(a libpython loaded this way is a second, never-initialised CPython runtime in the process)."""
import _thread
import sys

BLOCKER = _thread.allocate_lock()
BLOCKER.acquire()

if len(sys.argv) > 1:
    import ctypes
    ctypes.CDLL(sys.argv[1])


def main_park():
    print("READY", flush=True)
    BLOCKER.acquire()


main_park()
