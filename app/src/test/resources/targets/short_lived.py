"""Works for about a second (or the seconds given) in a known function, then exits on its own."""
import sys
import time


def spin_until(deadline):
    n = 0
    while time.monotonic() < deadline:
        n += 1
    return n


spin_until(time.monotonic() + (float(sys.argv[1]) if len(sys.argv) > 1 else 1.0))
