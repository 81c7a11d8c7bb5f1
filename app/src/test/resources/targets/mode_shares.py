"""A worker thread that times how long it holds the GIL and handles an exception, beside a sleeper.

usage: mode_shares.py SECONDS
The worker loops: 2 ms of pure Python in gil_a, 1 ms in gil_b, 1.5 ms of pure Python inside an
except block (handling_exception), then 4 ms asleep, holding neither. Another thread only sleeps.
Prints READY, then after SECONDS the perf_counter time of each of the three over the whole run, as
JSON; their sum is the time the worker held the GIL, handling_exception's the time it handled an
exception.
"""
import json
import sys
import threading
import time


def spin(until):
    x = 0
    while time.perf_counter() < until:
        x += 1
    return x


def gil_a(until):
    spin(until)


def gil_b(until):
    spin(until)


def handling_exception(until):
    try:
        raise KeyError("handled")
    except KeyError:
        spin(until)


def worker(seconds, spent):
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for function, slice_ms in ((gil_a, 2.0), (gil_b, 1.0), (handling_exception, 1.5)):
            t0 = time.perf_counter()
            function(t0 + slice_ms / 1000)
            spent[function.__name__] += time.perf_counter() - t0
        time.sleep(0.004)
    spent["total"] = time.perf_counter() - start


def main(seconds):
    spent = {"gil_a": 0.0, "gil_b": 0.0, "handling_exception": 0.0}
    threading.Thread(target=time.sleep, args=(seconds + 5,), daemon=True, name="sleeper").start()
    work = threading.Thread(target=worker, args=(seconds, spent), name="worker")
    print("READY", flush=True)
    work.start()
    work.join()
    total = spent.pop("total")
    print(json.dumps({name: value / total for name, value in spent.items()}), flush=True)


main(float(sys.argv[1]))
