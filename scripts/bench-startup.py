"""How fast Remora starts: `remora --version` (the start alone) and `remora dump -a PID` of an 8-thread
CPython 3.15 process, median wall time,
CPU time (user + system) and peak memory of 5 runs, beside CPython 3.15's own `python3.15 -m profiling.sampling dump -a` on the
same process in the same run; a 50 ms `attach` from start to exit; and how long after its start
`attach` takes its first sample (from the Firefox Profiler file's start time and first sample time).

usage: python3 scripts/bench-startup.py [REMORA ...]
REMORA defaults to the release built by scripts/release.sh (dist/remora-*/bin/remora) and the clone's
./remora. The target runs in the Debian sid root of scripts/provision-targets.sh.
"""
import json
import os
import tempfile
import time
import statistics
import subprocess
import sys

import measured_run

HERE = measured_run.HERE
SID = measured_run.SID
RUNS = 5
TARGET = """
import threading, time
for _ in range(7):
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
print("READY", flush=True)
time.sleep(3600)
"""


def measure(command):
    """Median wall seconds, median CPU seconds and the largest peak RSS (MiB) over RUNS runs of command."""
    walls, cpus, peaks = [], [], []
    for _ in range(RUNS):
        wall, usage = measured_run.run(command)
        walls.append(wall)
        cpus.append(usage.ru_utime + usage.ru_stime)
        peaks.append(usage.ru_maxrss / 1024)
    return statistics.median(walls), statistics.median(cpus), max(peaks)


def first_sample(remora, pid):
    """Median seconds from starting `remora attach` to its first sample, over RUNS runs."""
    delays = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "profile.json")
        for _ in range(RUNS):
            started = time.time()
            measured_run.run([remora, "attach", "-d", "0.05", "--gecko", "-o", out, pid])
            with open(out) as f:
                profile = json.load(f)
            first = min(t["samples"]["time"][0] for t in profile["threads"] if t["samples"]["time"])
            delays.append((profile["meta"]["startTime"] + first) / 1000 - started)
    return statistics.median(delays)


def main():
    remoras = sys.argv[1:] or measured_run.releases() + [f"{HERE}/remora"]
    target = subprocess.Popen(["chroot", SID, "python3.15", "-c", TARGET], stdout=subprocess.PIPE, text=True)
    try:
        if target.stdout.readline().strip() != "READY":
            raise SystemExit("bench-startup: the target did not start")
        pid = str(target.pid)
        subprocess.run(remoras[0:1] + ["dump", "-a", pid], capture_output=True, check=True)  # page cache warm
        rows = [(f"{r} --version", *measure([r, "--version"])) for r in remoras]
        rows += [(f"{r} dump -a", *measure([r, "dump", "-a", pid])) for r in remoras]
        # From start to exit of a 50 ms profile: what sampling waits for is the rest, less the write.
        rows += [(f"{r} attach -d 0.05", *measure([r, "attach", "-d", "0.05", "--collapsed", "-o", os.devnull, pid]))
                 for r in remoras[:1]]
        delays = [(r, first_sample(r, pid)) for r in remoras]
        rows.append(("python3.15 -m profiling.sampling dump -a",
                     *measure(["chroot", SID, "python3.15", "-m", "profiling.sampling", "dump", "-a", pid])))
    finally:
        target.kill()
    reference = rows[-1][1]
    print(f"{'command':60} {'median s':>9} {'CPU s':>7} {'peak MiB':>9} {'x reference':>12}")
    for name, wall, cpu, peak in rows:
        shown = os.path.relpath(name, HERE) if name.startswith(HERE) else name
        print(f"{shown:60} {wall:9.3f} {cpu:7.3f} {peak:9.1f} {wall / reference:12.2f}")
    print()
    for name, delay in delays:
        shown = os.path.relpath(name, HERE) if name.startswith(HERE) else name
        print(f"{shown + ' attach: first sample after (s)':60} {delay:9.3f}")


if __name__ == "__main__":
    main()
