"""A small program with a few obvious hot spots, for trying Remora:

    ./remora run --flamegraph -o demo.html examples/demo.py
"""
import json
import re
import threading
import time


def parse_records(n):
    """String and regex work: most of the CPU time."""
    pattern = re.compile(r"(\w+)=(\d+)")
    total = 0
    for i in range(n):
        line = f"id={i} size={i * 7 % 1000} name=item{i}"
        total += sum(int(v) for _, v in pattern.findall(line))
    return total


def encode_decode(n):
    """JSON round trips."""
    data = {"values": list(range(200)), "name": "demo", "nested": {"a": [1, 2, 3]}}
    for _ in range(n):
        data = json.loads(json.dumps(data))
    return data


def fibonacci(n):
    """Deep recursion."""
    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)


def background_sleeper(stop):
    """A thread that mostly waits: visible in wall mode, absent in cpu mode."""
    while not stop.is_set():
        time.sleep(0.05)


def main(seconds=3.0):
    stop = threading.Event()
    sleeper = threading.Thread(target=background_sleeper, args=(stop,), name="sleeper")
    sleeper.start()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        parse_records(2000)
        encode_decode(200)
        fibonacci(18)
    stop.set()
    sleeper.join()


if __name__ == "__main__":
    main()
