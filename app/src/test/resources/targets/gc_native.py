"""Spends most of its time in __del__ methods called by the garbage collector, below a map() call:
a stack with C code between Python frames and, on 3.15, a collection the profiler can see."""
import gc
import time


class Slow:
    def __del__(self):
        time.sleep(0.05)


def make_cycles():
    for _ in range(50):
        a = Slow()
        b = [a]
        b.append(b)
        a.ref = b


def collect_it():
    # Only the explicit collection runs the collector: an automatic one could start in make_cycles.
    gc.disable()
    print("READY", flush=True)
    while True:
        make_cycles()
        gc.collect()


def outer():
    list(map(lambda x: collect_it(), [1]))


outer()
