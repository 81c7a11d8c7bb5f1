"""Sorts with a Python key function, forever: C (the sort) calls a tiny Python function a million
times a second, so that a thread stopped at a random moment is often in the middle of such a call.
Prints READY once it sorts."""


def key(v):
    return -v


def sorts():
    print("READY", flush=True)
    while True:
        sorted(range(3000), key=key)


sorts()
