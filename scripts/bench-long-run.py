"""What a long run costs Remora itself: `remora attach -a -r 1khz` on a CPython 3.15 process with
THREADS threads (default 100; each naps and wakes in a short loop), for SHORT and for LONG seconds
(default 60 and 600), in a format that keeps counts (collapsed) and, for SHORT, in one that keeps
every sample (gecko); then CPython 3.15's own profiler (`python3.15 -m profiling.sampling attach`)
on the same target for SHORT. For each run: the profiler's peak RSS (from the kernel), samples
taken, and its CPU time (user + system) per sample. A run whose memory is bounded by what is distinct has the same
peak after LONG seconds as after SHORT.

usage: python3 scripts/bench-long-run.py [REMORA] [SHORT] [LONG] [THREADS]
REMORA defaults to the release built by scripts/release.sh, else the clone's ./remora; the target
runs under the provisioned CPython 3.15 (the Debian sid root of scripts/provision-targets.sh).
"""
import os
import re
import subprocess
import sys
import tempfile

import measured_run

SID = measured_run.SID
TARGET = """
import sys, threading, time
def nap(n):
    while True:
        time.sleep(0.0005 * (1 + n % 3))
        sum(range(50))
for n in range(int(sys.argv[1]) - 1):
    threading.Thread(target=nap, args=(n,), name="napper-%d" % n, daemon=True).start()
print("READY", flush=True)
nap(0)
"""


def measure(remora, pid, seconds, fmt, out):
    """Runs one attach; returns (peak MiB, samples, CPU µs per sample)."""
    log = out + ".log"
    _, usage = measured_run.run([remora, "attach", "-a", "-r", "1khz", "-d", str(seconds), "--" + fmt, "-o", out,
                                 str(pid)], stderr=log)
    samples = int(re.search(r"Captured (\d+) samples", open(log).read()).group(1))
    return per_sample(usage, samples)


def measure_cpython(pid, seconds, out):
    """CPython 3.15's profiler on the same target: (peak MiB, samples, CPU µs per sample)."""
    _, usage = measured_run.run(["chroot", SID, "/usr/bin/python3.15", "-m", "profiling.sampling", "attach", "-a",
                                 "-r", "1khz", "-d", str(int(seconds)), "--collapsed", "-o", out[len(SID):], str(pid)])
    with open(out) as f:
        samples = sum(int(line.rsplit(" ", 1)[1]) for line in f)
    return per_sample(usage, samples)


def per_sample(usage, samples):
    """(peak MiB, samples, CPU µs per sample) of a finished run."""
    return usage.ru_maxrss / 1024, samples, (usage.ru_utime + usage.ru_stime) / max(samples, 1) * 1e6


def main():
    remora = measured_run.remora(sys.argv)
    short = float(sys.argv[2]) if len(sys.argv) > 2 else 60
    long = float(sys.argv[3]) if len(sys.argv) > 3 else 600
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    with tempfile.TemporaryDirectory(dir=f"{SID}/tmp") as root_dir:
        script = os.path.join(root_dir, "threads.py")
        with open(script, "w") as f:
            f.write(TARGET)
        target = subprocess.Popen(["chroot", SID, "/usr/bin/python3.15", script[len(SID):], str(threads)],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert target.stdout.readline().strip() == "READY"
            print(f"target: {threads} threads, CPython 3.15; remora: {remora}")
            print(f"{'format':<10} {'seconds':>8} {'peak MiB':>9} {'samples':>11} {'CPU µs/sample':>14}")
            rows = [("collapsed", short), ("collapsed", long), ("gecko", short)]
            peaks = {}
            for fmt, seconds in rows:
                peak, samples, per_sample = measure(remora, target.pid, seconds, fmt, os.path.join(root_dir, f"p.{fmt}"))
                peaks[(fmt, seconds)] = peak
                print(f"{fmt:<10} {seconds:>8.0f} {peak:>9.1f} {samples:>11,} {per_sample:>14.2f}", flush=True)
            peak, samples, per_sample = measure_cpython(target.pid, short, os.path.join(root_dir, "cpython.txt"))
            print(f"{'CPython':<10} {short:>8.0f} {peak:>9.1f} {samples:>11,} {per_sample:>14.2f}", flush=True)
            grow = peaks[("collapsed", long)] / peaks[("collapsed", short)]
            print(f"collapsed peak after {long:.0f} s / after {short:.0f} s: {grow:.2f}")
        finally:
            target.kill()
            target.wait()


if __name__ == "__main__":
    main()
