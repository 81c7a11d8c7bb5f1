"""Spends known shares of its time in known functions and measures them itself.

usage: shares.py SECONDS
Loops over work_a (busy ~20 ms), work_b (busy ~50 ms) and rest (asleep ~30 ms), prints READY when the
loop starts, and when SECONDS have passed prints the measured wall-time share of each as JSON.
"""
import json
import sys
import time


def busy(seconds):
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += 1
    return n


def work_a():
    busy(0.020)


def work_b():
    busy(0.050)


def rest():
    time.sleep(0.030)


def main(seconds):
    spent = {"work_a": 0.0, "work_b": 0.0, "rest": 0.0}
    functions = {"work_a": work_a, "work_b": work_b, "rest": rest}
    print("READY", flush=True)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for name, function in functions.items():
            t0 = time.perf_counter()
            function()
            spent[name] += time.perf_counter() - t0
    total = time.perf_counter() - start
    print(json.dumps({name: value / total for name, value in spent.items()}), flush=True)


main(float(sys.argv[1]))
