"""Each function's share of exactly the window a profile sampled, from the calls a target timed.

A target times every call with its clock (perf_counter for wall time, thread_time for CPU time) and
notes when, by the Unix clock the profile's start is given in. When the test has the profile, it
writes the sampled window to the target's stdin ("START END", Unix seconds) and reads the shares back
as JSON: time outside the window, which the profile did not see, is left out.
"""
import json
import os
import sys
import time


class TimedCalls:
    def __init__(self, clock):
        self.measure = time.thread_time if clock == "cpu" else time.perf_counter
        self.calls = []  # (unix start, unix end, measured start, measured end, name)

    def call(self, function, *args):
        unix_start, start = time.time(), self.measure()
        function(*args)
        end, unix_end = self.measure(), time.time()
        self.calls.append((unix_start, unix_end, start, end, function.__name__))

    def measured_at(self, unix):
        """The clock's reading at a Unix time, straight between the readings around it."""
        before = None
        for unix_start, unix_end, start, end, _ in self.calls:
            for at, reading in ((unix_start, start), (unix_end, end)):
                if at >= unix:
                    if before is None:
                        raise SystemExit("the window starts before the first call")
                    span = at - before[0]
                    return before[1] + (reading - before[1]) * ((unix - before[0]) / span if span > 0 else 0)
                before = (at, reading)
        raise SystemExit("the window ends after the last call")

    def shares(self, window_start, window_end):
        total = self.measured_at(window_end) - self.measured_at(window_start)
        spent = {}
        for unix_start, unix_end, start, end, name in self.calls:
            inside = min(unix_end, window_end) - max(unix_start, window_start)
            if inside > 0:
                spent[name] = spent.get(name, 0.0) + (end - start) * inside / (unix_end - unix_start)
            else:
                spent.setdefault(name, 0.0)
        return {name: value / total for name, value in spent.items()}

    def answer_window(self):
        """Reads the sampled window from stdin and prints each function's share of it."""
        window_start, window_end = map(float, sys.stdin.readline().split())
        print(json.dumps(self.shares(window_start, window_end)), flush=True)

    def answer_window_from(self, path, timeout=120):
        """As answer_window, the window read from a file once it appears (for a target with no stdin)."""
        deadline = time.monotonic() + timeout
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                raise SystemExit("no window in " + path)
            time.sleep(0.05)
        with open(path) as f:
            window_start, window_end = map(float, f.read().split())
        print(json.dumps(self.shares(window_start, window_end)), flush=True)
