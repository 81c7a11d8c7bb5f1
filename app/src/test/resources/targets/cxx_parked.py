"""Parks the main thread in C frames with C++ names, for dumps with C frames.

Usage: python cxx_parked.py LIBRARY
LIBRARY is cxx_parked.c built as a shared library. Prints READY, then calls its park_in_cxx(),
which never returns.
"""
import ctypes
import sys


def call_into_cxx(library):
    print("READY", flush=True)
    library.park_in_cxx()


call_into_cxx(ctypes.CDLL(sys.argv[1]))
