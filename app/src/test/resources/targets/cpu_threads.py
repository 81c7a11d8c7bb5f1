"""Four threads that use the CPU very unequally: two spin in pure Python, taking turns on the GIL;
one hashes (in C, without the GIL) a little and sleeps between; one sleeps and sums now and then.

usage: cpu_threads.py
Prints READY, and when a line arrives on its standard input stops the threads and prints each one's
CPU time (thread_time) by its native thread id, as JSON {"tid": seconds, ...}. The OS calls the
threads that wait for the GIL or sleep runnable only part of the time, and never while they sleep.
"""
import hashlib
import json
import sys
import threading
import time

stop = threading.Event()
spent = {}


def finish():
    spent[str(threading.get_native_id())] = time.thread_time()


def hasher():
    data = b"x" * 200_000
    while not stop.is_set():
        hashlib.sha256(data).digest()
        time.sleep(0.002)
    finish()


def spinner():
    x = 0
    while not stop.is_set():
        for _ in range(1000):
            x += 1
    finish()


def sleeper():
    while not stop.is_set():
        time.sleep(0.01)
        sum(range(2000))
    finish()


threads = [threading.Thread(target=f) for f in (hasher, spinner, spinner, sleeper)]
for t in threads:
    t.start()
print("READY", flush=True)
sys.stdin.readline()
stop.set()
for t in threads:
    t.join()
print(json.dumps(spent), flush=True)
