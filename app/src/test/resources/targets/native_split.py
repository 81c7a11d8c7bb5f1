"""Time split between a C function called through ctypes and Python code, timed by the target.

usage: native_split.py MAX_SECONDS WINDOW_FILE
Loops over c_side (libc's memmove of 4-24 MiB through ctypes: milliseconds in C) and py_side (a
Python loop of about as long), timing each call with perf_counter (see timed_calls.py). The sizes
vary at random, so that the loop has no period a sampler's ticks could fall into step with. Prints
READY when the loop starts and loops until WINDOW_FILE ("START END", Unix seconds) appears (at most
MAX_SECONDS), so that the window always ends inside the loop however late the profile started; then
prints each function's share of that window as JSON.
"""
import ctypes
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves the script's directory out
from timed_calls import TimedCalls  # noqa: E402

SIZE = 24 << 20
SOURCE = ctypes.create_string_buffer(SIZE)
TARGET = ctypes.create_string_buffer(SIZE)
RANDOM = random.Random(1)


def c_side(size):
    ctypes.memmove(TARGET, SOURCE, size)


def py_side(iterations):
    total = 0
    for i in range(iterations):
        total += i * i
    return total


def main(seconds, window_file):
    timed = TimedCalls("wall")
    print("READY", flush=True)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds and not os.path.exists(window_file):
        timed.call(c_side, RANDOM.randint(4 << 20, SIZE))
        timed.call(py_side, RANDOM.randint(10000, 60000))
    timed.answer_window_from(window_file)


main(float(sys.argv[1]), sys.argv[2])
