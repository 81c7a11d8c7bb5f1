"""Threads in known states: the main thread spins (holds the GIL, on a CPU), one thread sleeps inside
an except block (handling an exception), one sleeps plainly, and three sleep inside except blocks
whose exception a generator keeps: in a generator, in a coroutine, and in a function called from a
generator expression. Prints the native ids: handler, sleeper, then the three."""
import _thread
import threading
import time

BLOCKER = _thread.allocate_lock()
BLOCKER.acquire()


def handle_error():
    try:
        raise ValueError("kept while handling")
    except ValueError:
        handling.set()
        BLOCKER.acquire()


def sleep_plainly():
    sleeping.set()
    BLOCKER.acquire()


def handle_in_generator(ready):
    try:
        raise KeyError("kept by a generator")
    except KeyError:
        ready.set()
        BLOCKER.acquire()
    yield


async def handle_in_coroutine(ready):
    try:
        raise LookupError("kept by a coroutine")
    except LookupError:
        ready.set()
        BLOCKER.acquire()


def handle_called(ready):
    try:
        raise IndexError("kept while a generator expression runs")
    except IndexError:
        ready.set()
        BLOCKER.acquire()


def run_generator(ready):
    next(handle_in_generator(ready))


def run_coroutine(ready):
    handle_in_coroutine(ready).send(None)


def run_genexpr(ready):
    list(handle_called(ready) for _ in range(1))


handling = threading.Event()
sleeping = threading.Event()
handler = threading.Thread(target=handle_error, name="handler")
sleeper = threading.Thread(target=sleep_plainly, name="sleeper")
handler.start()
sleeper.start()
handling.wait()
sleeping.wait()
kept = []
for run in (run_generator, run_coroutine, run_genexpr):
    ready = threading.Event()
    kept.append(threading.Thread(target=run, args=(ready,), name=run.__name__))
    kept[-1].start()
    ready.wait()
time.sleep(0.3)  # from set() to blocking in acquire() is a few bytecodes; let them pass
print(handler.native_id, sleeper.native_id, *(t.native_id for t in kept), flush=True)


def spin():
    n = 0
    while True:
        n += 1


spin()
