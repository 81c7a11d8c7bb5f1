"""A small program with a few obvious hot spots, for trying Remora:

    ./remora run -a --flamegraph -o demo.html examples/demo.py

At its end it prints the share of its loop each function took, timed with perf_counter, to set
beside the profile's (the loop is main's time, less the sleeper's start and join).
"""
import json
import re
import threading
import time


def parse_records(n):
    """String and regex work: about half of the loop."""
    pattern = re.compile(r"(\w+)=(\d+)")
    total = 0
    for i in range(n):
        line = f"id={i} size={i * 7 % 1000} name=item{i}"
        total += sum(int(v) for _, v in pattern.findall(line))
    return total


def encode_decode(n):
    """JSON round trips: the other half, encoding more than decoding."""
    data = {"values": list(range(200)), "name": "demo", "nested": {"a": [1, 2, 3]}}
    for _ in range(n):
        data = json.loads(json.dumps(data))
    return data


def fibonacci(n):
    """Deep recursion: a few percent."""
    return n if n < 2 else fibonacci(n - 1) + fibonacci(n - 2)


def background_sleeper(stop):
    """A thread that mostly waits: in wall mode with -a (every thread), absent in cpu mode."""
    while not stop.is_set():
        time.sleep(0.05)


def main(seconds=3.0):
    stop = threading.Event()
    sleeper = threading.Thread(target=background_sleeper, args=(stop,), name="sleeper")
    sleeper.start()
    spent = {parse_records: 0.0, encode_decode: 0.0, fibonacci: 0.0}
    work = ((parse_records, 2000), (encode_decode, 200), (fibonacci, 18))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for function, n in work:
            start = time.perf_counter()
            function(n)
            spent[function] += time.perf_counter() - start
    stop.set()
    sleeper.join()
    total = sum(spent.values())
    print("measured: " + ", ".join(f"{f.__name__} {100 * t / total:.1f}%" for f, t in spent.items()))


if __name__ == "__main__":
    main()
