"""A deep stack whose top changes all the time: descend() recurses 60 levels, then dispatch runs
the churn call graph (a calls b or c, b and d call leaf, c calls d). Any other caller/callee pair,
or another depth of descend(), is impossible."""


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


descend(60)
