"""Threads that come and go all the time around two that stay.

Two spawner threads each start three short-lived threads in a loop, forever; the main thread and a
worker named "parked" wait in functions of their own. The main thread prints READY as it parks.
"""
import threading
import time


def short_lived(n):
    return sum(range(n))


def spawn_forever():
    n = 0
    while True:
        batch = [threading.Thread(target=short_lived, args=(n % 50,)) for _ in range(3)]
        for t in batch:
            t.start()
        for t in batch:
            t.join()
        n += 1


def parked_worker(event):
    event.wait()


def park_main(event):
    print("READY", flush=True)
    event.wait()


stop = threading.Event()
threading.Thread(target=parked_worker, args=(stop,), name="parked", daemon=True).start()
for i in range(2):
    threading.Thread(target=spawn_forever, name="spawner-%d" % i, daemon=True).start()
time.sleep(0.2)
park_main(stop)
