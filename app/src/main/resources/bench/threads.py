# Workload "threads": dozens of threads that come and go, mixing CPU work and sleeps.
import math
import random
import threading
import time


def crunch():
    total = 0.0
    for _ in range(10_000):
        total += math.sin(random.random()) * math.cos(random.random())
    return total


def nap():
    time.sleep(0.1)


def worker(stop):
    while not stop.is_set():
        if random.random() < 0.3:
            crunch()
        else:
            nap()


def spawn(count):
    started = []
    for _ in range(count):
        stop = threading.Event()
        threading.Thread(target=worker, args=(stop,), daemon=True).start()
        started.append(stop)
    return started


running = spawn(5)
while True:
    if random.random() < 0.1:
        if random.random() < 0.5 and len(running) < 100:
            running.extend(spawn(random.randint(1, 5)))
        elif len(running) > 10:
            for stop in running[:random.randint(1, 5)]:
                stop.set()
            del running[:5]
    crunch()
    time.sleep(0.05)
