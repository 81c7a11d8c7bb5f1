"""Code whose stack changes every few microseconds, each function given a fixed amount of work per
call (not a slice of time), timing itself.

usage: fixed_work.py SECONDS [wall|cpu]
Loops over five functions: JSON round trips of a 150-item dict, regex with a generator expression,
fib(18), 12000 one-line calls, and short sleeps. Prints READY when the loop starts and, when
SECONDS have passed, each function's share of the loop's time as JSON: wall time (perf_counter) or
the thread's CPU time (thread_time), as asked.
"""
import json
import re
import sys
import time

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
    measure = time.thread_time if clock == "cpu" else time.perf_counter
    spent = {function.__name__: 0.0 for function in FUNCTIONS}
    print("READY", flush=True)
    start = measure()
    wall_start = time.perf_counter()
    while time.perf_counter() - wall_start < seconds:
        for function in FUNCTIONS:
            t0 = measure()
            function()
            spent[function.__name__] += measure() - t0
    total = measure() - start
    print(json.dumps({name: value / total for name, value in spent.items()}), flush=True)


main(float(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "wall")
