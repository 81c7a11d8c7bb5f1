#!/usr/bin/env python3
"""What C frames cost a dump: `remora dump -a --native-frames` against `remora dump -a` on the same
8-thread target, live and from its core, in the same run.

usage: scripts/bench-native-dump.py [PYTHON] [RUNS]
PYTHON defaults to the provisioned /var/cache/remora/bin/python3.15; each command runs RUNS times
(default 5) and its figure is the median wall time from start to exit (the JVM's start included).
The target's 8 threads each sit in time.sleep under a few Python frames; the core is gcore's.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = sys.argv[1] if len(sys.argv) > 1 else "/var/cache/remora/bin/python3.15"
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
TARGET = (
    "import os, threading, time\n"
    "def leaf(): time.sleep(100000)\n"
    "def mid(): leaf()\n"
    "def top(): mid()\n"
    "for _ in range(7): threading.Thread(target=top, daemon=True).start()\n"
    "print(os.getpid(), flush=True)\n"
    "top()\n"
)


def timed(args):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run = subprocess.run([os.path.join(ROOT, "remora"), *args], capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if run.returncode != 0:
            raise SystemExit(f"remora {' '.join(args)} failed: {run.stderr.strip()}")
    return statistics.median(times)


def main():
    # Through a shell, so that the target is not this script's child (ptrace stops it for the C frames).
    shell = subprocess.Popen(["/bin/sh", "-c", '"$@" & echo $!; wait', "sh", PYTHON, "-c", TARGET],
                             stdout=subprocess.PIPE, text=True)
    shell.stdout.readline()
    pid = str(int(shell.stdout.readline()))
    try:
        subprocess.run([os.path.join(ROOT, "remora"), "--version"], capture_output=True)  # build once, up front
        time.sleep(1)
        with tempfile.TemporaryDirectory() as scratch:
            with open(f"/proc/{pid}/coredump_filter", "w") as f:
                f.write("0x33")
            subprocess.run(["gcore", "-o", os.path.join(scratch, "core"), pid], capture_output=True, check=True)
            core = os.path.join(scratch, f"core.{pid}")
            print(f"target pid {pid} ({PYTHON}), 8 threads; median of {RUNS} runs, JVM start included")
            print(f"{'command':<40} {'seconds':>8} {'vs Python frames only':>22}")
            for source, args in (("live", [pid]), ("core", ["--core", core])):
                plain = timed(["dump", "-a", *args])
                native = timed(["dump", "-a", "--native-frames", *args])
                print(f"{'dump -a (' + source + ')':<40} {plain:>8.3f} {1.0:>21.2f}x")
                print(f"{'dump -a --native-frames (' + source + ')':<40} {native:>8.3f} {native / plain:>21.2f}x")
    finally:
        subprocess.run(["kill", pid])
        shell.wait()


if __name__ == "__main__":
    main()
