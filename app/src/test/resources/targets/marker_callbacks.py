"""Key functions called back from C at the same depth by two different callers: ka only ever runs
under step_a, kb only under step_b. A frame marker left on the C-stack entry frame of one sorted()
call must not splice the other caller's frames under the next one."""


def ka(x):
    total = 0
    for i in range(300):
        total += i
    return x


def kb(x):
    total = 0
    for i in range(300):
        total += i
    return x


def step_a():
    return sorted(range(20), key=ka)


def step_b():
    return sorted(range(20), key=kb)


def loop():
    print("READY", flush=True)
    while True:
        step_a()
        step_b()


def descend(depth):
    if depth > 1:
        return descend(depth - 1)
    return loop()


descend(30)
