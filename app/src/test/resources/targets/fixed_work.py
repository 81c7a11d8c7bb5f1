"""Code whose stack changes every few microseconds, each function given a fixed amount of work per
call (not a slice of time), timing itself.

usage: fixed_work.py SECONDS [wall|cpu]
Loops over five functions: JSON round trips of a 150-item dict, regex with a generator expression,
fib(18), 12000 one-line calls, and short sleeps. Prints READY when the loop starts; when
SECONDS have passed, reads the window a profile sampled from stdin and prints each function's share
of it as JSON: wall time (perf_counter) or the thread's CPU time (thread_time), as asked (see
timed_calls.py).
"""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves the script's directory out
from timed_calls import TimedCalls  # noqa: E402

PATTERN = re.compile(r"(\w+)=(\d+)")
DATA = {f"key{i}": [i, str(i), {"n": i}] for i in range(150)}


def json_round_trips():
    data = DATA
    for _ in range(3):
        data = json.loads(json.dumps(data))


def regex_generator():
    total = 0
    for i in range(300):
        line = f"id={i} size={i * 7 % 1000} name=item{i}"
        total += sum(int(v) for _, v in PATTERN.findall(line))
    return total


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def recursion():
    fib(18)


def one_line(x):
    return x + 1


def tiny_calls():
    x = 0
    for _ in range(12000):
        x = one_line(x)


def short_sleeps():
    for _ in range(3):
        time.sleep(0.0007)


FUNCTIONS = [json_round_trips, regex_generator, recursion, tiny_calls, short_sleeps]


def main(seconds, clock):
    timed = TimedCalls(clock)
    print("READY", flush=True)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for function in FUNCTIONS:
            timed.call(function)
    timed.answer_window()


main(float(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "wall")
