"""Calls alpha and beta in a loop, one doing three times the work of the other: HOT names the busy
one. Each is called from one line, so each is one frame of the flamegraph.

usage: hot_switch.py alpha|beta
Prints READY, then loops until killed."""
import sys


def alpha(n):
    return sum(range(n))


def beta(n):
    return sum(range(n))


def loop(a, b):
    while True:
        alpha(a)
        beta(b)


print("READY", flush=True)
loop(6000, 2000) if sys.argv[1] == "alpha" else loop(2000, 6000)
