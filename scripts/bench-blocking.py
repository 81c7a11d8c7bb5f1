#!/usr/bin/env python3
"""What sampling costs the target: the speed of a CPU-bound Python loop while Remora samples it,
against its speed unprofiled in the same run (--native-frames settings: with --blocking, C frames too).

usage: scripts/bench-blocking.py [PYTHON] [SECONDS]
PYTHON defaults to the provisioned /var/cache/remora/bin/python3.15; each setting samples for
SECONDS (default 3). The loop reports its own rate every quarter second; a setting's figure is the
median of the rates reported while Remora sampled, over the median of those before any sampling
(measured again between settings, so that drift shows).
"""
import os
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = sys.argv[1] if len(sys.argv) > 1 else "/var/cache/remora/bin/python3.15"
SECONDS = sys.argv[2] if len(sys.argv) > 2 else "3"
LOOP = (
    "import os, time\n"
    "print(os.getpid(), flush=True)\n"
    "n, t = 0, time.perf_counter()\n"
    "while True:\n"
    "    n += 1\n"
    "    if n % 20000 == 0:\n"
    "        now = time.perf_counter()\n"
    "        if now - t >= 0.25:\n"
    "            print(n / (now - t), flush=True)\n"
    "            n, t = 0, now\n"
)
SETTINGS = [
    ("not sampled", None),
    ("100 Hz", ["-r", "100"]),
    ("100 Hz --blocking", ["-r", "100", "--blocking"]),
    ("1 kHz", ["-r", "1000"]),
    ("1 kHz --blocking", ["-r", "1000", "--blocking"]),
    ("100 Hz --native-frames", ["-r", "100", "--blocking", "--native-frames"]),
    ("1 kHz --native-frames", ["-r", "1000", "--blocking", "--native-frames"]),
]


def main():
    # Through a shell, so that the loop is not this script's child (as for any target attached to).
    shell = subprocess.Popen(["/bin/sh", "-c", '"$@" & echo $!; wait', "sh", PYTHON, "-c", LOOP],
                             stdout=subprocess.PIPE, text=True)
    shell.stdout.readline()
    pid = int(shell.stdout.readline())
    rates = []  # (time, rate)
    lock = threading.Lock()

    def read():
        for line in shell.stdout:
            with lock:
                rates.append((time.monotonic(), float(line)))

    threading.Thread(target=read, daemon=True).start()
    try:
        subprocess.run([os.path.join(ROOT, "remora"), "--version"], capture_output=True)  # build once, up front
        time.sleep(2)
        print(f"target pid {pid} ({PYTHON}), {SECONDS} s per setting")
        print(f"{'setting':<26} {'loop rate/s':>14} {'vs unprofiled':>14}")
        for name, args in SETTINGS:
            before = window(rates, lock, 2.0)
            if args is None:
                print(f"{name:<26} {before:>14,.0f} {1.0:>13.3f}x")
                continue
            start = time.monotonic()
            run = subprocess.run([os.path.join(ROOT, "remora"), "attach", "-d", SECONDS, *args, "--collapsed",
                                  "-o", "/dev/null", str(pid)], capture_output=True, text=True)
            end = time.monotonic()
            if run.returncode != 0:
                print(f"{name:<26} failed: {run.stderr.strip()}")
                continue
            # The rates reported while sampling went on: from a second in (Remora's start) to the end.
            with lock:
                during = [r for t, r in rates if start + 1.0 <= t <= end - 0.25]
            during = statistics.median(during) if during else float("nan")
            print(f"{name:<26} {during:>14,.0f} {during / before:>13.3f}x")
    finally:
        subprocess.run(["kill", str(pid)])
        shell.wait()


def window(rates, lock, seconds):
    """The median rate the loop reports over the next SECONDS."""
    start = time.monotonic()
    time.sleep(seconds)
    with lock:
        return statistics.median(r for t, r in rates if t >= start)


if __name__ == "__main__":
    main()
