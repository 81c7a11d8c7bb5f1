"""Settles in one frame, then returns and spins in another, over and over: a frame marker kept on
the first moves down to main() when it returns, and a profiler may move it up again onto spin()."""
import time


def settle():
    time.sleep(0.02)


def spin():
    for _ in range(2_000_000):
        pass


def main():
    print("READY", flush=True)
    while True:
        settle()
        spin()


main()
