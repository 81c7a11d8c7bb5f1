# Workload "deep_static": a stack about 900 frames deep that never changes.
import sys
import time

sys.setrecursionlimit(10_000)


def descend(n):
    if n <= 1:
        time.sleep(1_000_000)
        return 1
    return n * descend(n - 1)


descend(900)
