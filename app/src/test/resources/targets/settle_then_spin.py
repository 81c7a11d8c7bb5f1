"""Settles in one frame, then returns and spins in another, over and over: a frame marker kept on
the first moves down to main() when it returns, and a profiler may move it up again onto spin()."""
import time


def settle():
    time.sleep(0.02)


def spin():
    end = time.monotonic() + 0.05
    while time.monotonic() < end:
        pass


def main():
    print("READY", flush=True)
    while True:
        settle()
        spin()


main()
