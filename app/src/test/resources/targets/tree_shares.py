"""A parent and three children, each busy for a time it measures itself, in calls that change its
stack every few microseconds.

usage: tree_shares.py OTHER_PYTHON
Prints "READY" and waits for a line on stdin (so that a profiler is sampling it first); then runs,
one after the other, children busy for 0.3 s, 0.6 s (under OTHER_PYTHON) and 0.9 s, and is busy 0.4 s
itself. Every busy process prints "BUSY PID SECONDS", SECONDS its own perf_counter time in work();
the parent prints "DONE" when all have ended. Each child sleeps 0.3 s before working, so that the
profiler has found it by then: the time before it is found is another question than its share.
"""
import os
import subprocess
import sys
import time

WORK = '''
import os, sys, time

def leaf(n):
    return n + 1

def middle(n):
    return leaf(n) * 2

def {name}(seconds):
    start = time.perf_counter()
    end = start + seconds
    total = 0
    while time.perf_counter() < end:
        for i in range(20):
            total += middle(i)
    return time.perf_counter() - start
'''

CHILD = WORK.format(name="work") + '''
time.sleep(0.3)
print("BUSY", os.getpid(), work(float(sys.argv[1])), flush=True)
'''

exec(WORK.format(name="parent_work"))


def main(other_python):
    print("READY", flush=True)
    sys.stdin.readline()
    for python, seconds in ((sys.executable, 0.3), (other_python, 0.6), (sys.executable, 0.9)):
        subprocess.run([python, "-c", CHILD, str(seconds)], check=True)
    print("BUSY", os.getpid(), parent_work(0.4), flush=True)
    print("DONE", flush=True)
    time.sleep(0.3)


if __name__ == "__main__":
    main(sys.argv[1])
