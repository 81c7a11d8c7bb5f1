"""Tiny functions (a 20-step loop, under a microsecond or so) called from every kind of frame.

usage: short_frames.py SECONDS
Loops over seven idioms, each given a slice of a few milliseconds per round (by perf_counter), each
calling its own tiny function, so that a profile's share of each idiom reads as its tiny function's
share: a generator expression (tiny_genexpr), a generator function (tiny_gen), map (tiny_map), sorted
with a key (tiny_key), a list comprehension (tiny_comp), a coroutine on an asyncio loop (tiny_coro)
and a recursion of tiny functions (tiny_rec). The mix is the same in every round, so any window of a
few seconds holds the same proportions. Prints READY when the loop starts; exits after SECONDS.
"""
import asyncio
import sys
import time

DATA = list(range(40))


def tiny_genexpr(v):
    t = v
    for i in range(20):
        t += i
    return t


def tiny_gen(v):
    t = v
    for i in range(20):
        t += i
    return t


def tiny_map(v):
    t = v
    for i in range(20):
        t += i
    return t


def tiny_key(v):
    t = v
    for i in range(20):
        t += i
    return -t


def tiny_comp(v):
    t = v
    for i in range(20):
        t += i
    return t


def tiny_coro(v):
    t = v
    for i in range(20):
        t += i
    return t


def tiny_rec(n):
    t = n
    for i in range(20):
        t += i
    return t if n == 0 else t + tiny_rec(n - 1)


def via_genexpr(until):
    while time.perf_counter() < until:
        sum(tiny_genexpr(v) for v in DATA)


def generate(data):
    for v in data:
        yield tiny_gen(v)


def via_generator(until):
    while time.perf_counter() < until:
        total = 0
        for x in generate(DATA):
            total += x


def via_map(until):
    while time.perf_counter() < until:
        sum(map(tiny_map, DATA))


def via_sorted(until):
    while time.perf_counter() < until:
        sorted(DATA, key=tiny_key)


def via_comprehension(until):
    while time.perf_counter() < until:
        [tiny_comp(v) for v in DATA]


async def coro_body(data):
    total = 0
    for v in data:
        total += tiny_coro(v)
    return total


async def coro_slice(until):
    while time.perf_counter() < until:
        await coro_body(DATA)
        await asyncio.sleep(0)


LOOP = asyncio.new_event_loop()


def via_coroutine(until):
    LOOP.run_until_complete(coro_slice(until))


def via_recursion(until):
    while time.perf_counter() < until:
        for _ in range(4):
            tiny_rec(10)


# Slices in milliseconds.
SLICES = [
    (via_genexpr, 3.0),
    (via_generator, 3.0),
    (via_map, 3.0),
    (via_sorted, 3.0),
    (via_comprehension, 3.0),
    (via_coroutine, 3.0),
    (via_recursion, 3.0),
]


def main(seconds):
    print("READY", flush=True)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for function, slice_ms in SLICES:
            function(time.perf_counter() + slice_ms / 1000)


main(float(sys.argv[1]))
