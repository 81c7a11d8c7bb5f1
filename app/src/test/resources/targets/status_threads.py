"""Threads in known states: the main thread spins (holds the GIL, on a CPU), one thread sleeps inside
an except block (handling an exception), one sleeps plainly."""
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


handling = threading.Event()
sleeping = threading.Event()
handler = threading.Thread(target=handle_error, name="handler")
sleeper = threading.Thread(target=sleep_plainly, name="sleeper")
handler.start()
sleeper.start()
handling.wait()
sleeping.wait()
time.sleep(0.3)  # from set() to blocking in acquire() is a few bytecodes; let them pass
print(handler.native_id, sleeper.native_id, flush=True)


def spin():
    n = 0
    while True:
        n += 1


spin()
