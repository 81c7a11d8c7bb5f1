"""A stack that changes all the time, with a fixed call graph: a calls b or c, b and d call leaf,
c calls d; dispatch calls each of them in turn. Any other caller/callee pair is impossible.
With an argument N, dispatch runs under N levels of descend(), a deep base that never changes."""
import sys


def leaf(n):
    return sum(range(n))


def d(n):
    return leaf(n)


def c(n):
    return d(n)


def b(n):
    return leaf(n)


def a(n):
    return b(n) if n % 2 else c(n)


def dispatch():
    print("READY", flush=True)
    n = 10
    while True:
        for f in (a, b, c, d):
            n = (n * 7 + 3) % 390 + 10
            f(n)


def descend(depth):
    if depth > 1:
        return descend(depth - 1)
    return dispatch()


depth = int(sys.argv[1]) if len(sys.argv) > 1 else 0
if depth:
    descend(depth)
else:
    dispatch()
