"""A parent that starts Python children of every common kind, each busy in a function named after it.

usage: process_tree.py OTHER_PYTHON START_METHOD
Waits for a line on stdin (so that a profiler is sampling it first), then, one after the other: a
child under OTHER_PYTHON (another CPython version) busy for 1 s; a multiprocessing pool of 4 workers
(START_METHOD: spawn or fork), each given a task of 2 s (a wait); 5 short-lived children in a row, each busy
for 0.15 s; and 0.3 s of its own. Prints "READY" when it waits, "DONE" when every
child has ended.
"""
import multiprocessing
import subprocess
import sys
import time


def spin(seconds):
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += 1
    return n


def pool_worker_task(seconds):
    # Waits rather than spins: four busy workers would crowd a two-core machine, and the samplers
    # with them, so that the ticks they miss would say more about the machine than about the profile.
    time.sleep(seconds)


def parent_busy(seconds):
    return spin(seconds)


CHILD = "import time\ndef {name}(s):\n    e = time.perf_counter() + s\n    while time.perf_counter() < e: pass\n{name}({seconds})\n"


def main(other_python, method):
    print("READY", flush=True)
    sys.stdin.readline()
    # One phase after the other, so that the children do not crowd each other off a small machine.
    subprocess.run([other_python, "-c", CHILD.format(name="other_version_busy", seconds=1.0)], check=True)
    context = multiprocessing.get_context(method)
    with context.Pool(4) as pool:
        pool.map(pool_worker_task, [2.0] * 4, chunksize=1)
    for _ in range(5):
        subprocess.run([sys.executable, "-c", CHILD.format(name="short_lived_busy", seconds=0.15)], check=True)
    parent_busy(0.3)
    print("DONE", flush=True)
    time.sleep(0.3)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
