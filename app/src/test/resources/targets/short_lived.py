"""Works for about a second in a known function, then exits on its own."""
import time


def spin_until(deadline):
    n = 0
    while time.monotonic() < deadline:
        n += 1
    return n


spin_until(time.monotonic() + 1.0)
