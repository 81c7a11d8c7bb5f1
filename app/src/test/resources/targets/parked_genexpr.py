"""Parks the main thread in a generator expression that waits in C code.

Prints READY and the address of the generator expression's frame (its id), then sleeps: the
innermost Python frame of the thread is the generator expression's, called by outer().
"""
import sys
import time


def announce():
    print("READY", id(sys._getframe(1)), flush=True)


def outer():
    return sum(announce() or time.sleep(3600) or 1 for _ in range(1))


outer()
