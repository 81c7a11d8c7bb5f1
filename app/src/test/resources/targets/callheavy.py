"""Code whose stack changes every few microseconds, timing its own functions.

usage: callheavy.py SECONDS [wall|cpu]
Loops over seven functions, each given a slice of a few milliseconds per round: json round trips,
regex with a generator expression, recursion, a loop calling a one-line function, a C function
calling back into Python (sorted with a key), asyncio tasks, and short sleeps. Prints READY when the
loop starts; when SECONDS have passed, reads the window a profile sampled from stdin and prints each
function's share of it as JSON: wall time (perf_counter) or the thread's CPU time (thread_time), as
asked (see timed_calls.py).
"""
import asyncio
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves the script's directory out
from timed_calls import TimedCalls  # noqa: E402

PATTERN = re.compile(r"(\w+)=(\d+)")
DATA = {"values": list(range(40)), "name": "callheavy", "nested": {"a": [1, 2, 3]}}


def json_round_trips(until):
    data = DATA
    while time.perf_counter() < until:
        data = json.loads(json.dumps(data))


def regex_generator(until):
    i = 0
    while time.perf_counter() < until:
        line = f"id={i} size={i * 7 % 1000} name=item{i}"
        i += sum(int(v) for _, v in PATTERN.findall(line)) % 3 + 1


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def recursion(until):
    while time.perf_counter() < until:
        fib(12)


def one_line(x):
    return x + 1


def tiny_calls(until):
    x = 0
    while time.perf_counter() < until:
        for _ in range(50):
            x = one_line(x)


def key_of(item):
    return -item


def c_calls_back(until):
    items = list(range(60))
    while time.perf_counter() < until:
        sorted(items, key=key_of)


async def step(n):
    await asyncio.sleep(0)
    return n


async def gather_steps(until):
    while time.perf_counter() < until:
        await asyncio.gather(*(step(n) for n in range(8)))


def asyncio_tasks(until):
    asyncio.run(gather_steps(until))


def short_sleeps(until):
    while time.perf_counter() < until:
        time.sleep(0.0005)


# Slices in milliseconds: unequal, so that a profile that favours some code shows it.
SLICES = [
    (json_round_trips, 4.0),
    (regex_generator, 3.0),
    (recursion, 2.0),
    (tiny_calls, 2.5),
    (c_calls_back, 1.5),
    (asyncio_tasks, 3.0),
    (short_sleeps, 2.0),
]


def main(seconds, clock):
    timed = TimedCalls(clock)
    print("READY", flush=True)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for function, slice_ms in SLICES:
            timed.call(function, time.perf_counter() + slice_ms / 1000)
    timed.answer_window()


main(float(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "wall")
