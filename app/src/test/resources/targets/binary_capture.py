"""Two threads whose stacks change every few microseconds: the main thread calls a chain of short
functions (one of them on a non-ASCII name), a worker sleeps and spins in turns. Prints READY."""
import threading
import time


def leaf_é(n):
    return n + 1


def middle(n):
    return leaf_é(n) * 2


def outer():
    total = 0
    for i in range(200):
        total += middle(i)
    return total


def worker():
    while True:
        time.sleep(0.0005)
        sum(range(300))


threading.Thread(target=worker, name="worker", daemon=True).start()
print("READY", flush=True)
while True:
    outer()
