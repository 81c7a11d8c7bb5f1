"""Spins in one function until it is killed; prints READY (from a function of its own) just before."""


def say_ready():
    print("READY", flush=True)


def spin_forever():
    # Only the loop: the print that says READY may still be returning when sampling starts, and its
    # call must not show among the loop's instructions.
    n = 0
    while True:
        n += 1


say_ready()
spin_forever()
