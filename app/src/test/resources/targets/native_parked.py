"""A Python process whose threads are parked in C at known places, for dumps with C frames.

Usage: python native_parked.py [crash-segv|crash-abort]

Threads (name: what it blocks in):
  MainThread:  a Python comparator called by libc's qsort through ctypes, blocked on a lock
               (C -> Python -> C: park <- compare <- [qsort, ffi] <- sort_with_qsort <- main)
  sleeper:     time.sleep
  locked:      threading.Lock().acquire
  selecting:   select.select on a pipe nobody writes
  sorted-key:  a key function called by sorted(), blocked on a lock
  asyncio:     an event loop whose only task awaits asyncio.sleep: the loop waits in epoll
  subinterp:   (3.13+) code run in a second interpreter, in time.sleep (sub_park)
  c-thread:    a thread libc's pthread_create started at pause(): no Python state
  (and the thread that prints READY, parked on a lock too)

Prints READY once every thread is parked (each announces itself, then the
main thread waits a little for the last to block). With an argument, the
main thread prints READY, waits for SIGUSR1, and then crashes inside C:
ctypes.string_at(0) (SIGSEGV) or os.abort() (SIGABRT).
"""

import ctypes
import ctypes.util
import os
import select
import signal
import sys
import threading
import time

BLOCKER = threading.Lock()
BLOCKER.acquire()
parked = threading.Semaphore(0)
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def park():
    parked.release()
    BLOCKER.acquire()


def sleeper():
    parked.release()
    time.sleep(100000)


def locked():
    lock = threading.Lock()
    lock.acquire()
    parked.release()
    lock.acquire()


def selecting():
    r, _ = os.pipe()
    parked.release()
    select.select([r], [], [])


def asyncio_loop():
    import asyncio

    async def waiter():
        parked.release()
        await asyncio.sleep(100000)

    asyncio.run(waiter())


SUB_CODE = """
import os, time
def sub_park():
    os.write({fd}, b"x")
    time.sleep(100000)
sub_park()
"""


def subinterpreter():
    """A thread running code in a second interpreter (3.13+), parked in time.sleep there."""
    try:
        import _interpreters as interpreters
    except ImportError:
        import _xxsubinterpreters as interpreters
    r, w = os.pipe()
    interp = interpreters.create()
    thread = threading.Thread(target=interpreters.run_string, args=(interp, SUB_CODE.format(fd=w)),
                              name="subinterp", daemon=True)
    thread.start()
    os.read(r, 1)


def key_of(value):
    park()
    return value


def sorted_key():
    sorted([3, 1, 2], key=key_of)


def start_c_thread():
    """A thread with no Python state: pthread_create straight into libc's pause()."""
    thread = ctypes.c_ulong()
    pause = ctypes.cast(libc.pause, ctypes.c_void_p)
    # glibc before 2.34 keeps pthread_create in libpthread, which the interpreter has loaded.
    create = getattr(libc, "pthread_create", None) or ctypes.CDLL(None).pthread_create
    create(ctypes.byref(thread), None, pause, None)


COMPARE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))


def compare(a, b):
    park()
    return a[0] - b[0]


def sort_with_qsort():
    values = (ctypes.c_int * 3)(3, 1, 2)
    libc.qsort(values, 3, ctypes.sizeof(ctypes.c_int), COMPARE(compare))


def crash(how):
    if how == "crash-segv":
        ctypes.string_at(0)
    os.abort()


def main():
    for name, target in (("sleeper", sleeper), ("locked", locked), ("selecting", selecting),
                         ("sorted-key", sorted_key), ("asyncio", asyncio_loop)):
        threading.Thread(target=target, name=name, daemon=True).start()
    if sys.version_info >= (3, 13):
        subinterpreter()
    start_c_thread()
    for _ in range(5):
        parked.acquire()
    if len(sys.argv) > 1:
        signal.signal(signal.SIGUSR1, lambda signum, frame: crash(sys.argv[1]))
        time.sleep(0.2)
        print("READY", flush=True)
        while True:
            signal.pause()
    threading.Thread(target=announce, daemon=True).start()
    sort_with_qsort()


def announce():
    parked.acquire()
    time.sleep(0.2)  # the last thread to announce itself is a few instructions from blocking
    print("READY", flush=True)
    BLOCKER.acquire()  # and stays, so that the threads a reader finds are those a later reader finds


if __name__ == "__main__":
    main()
