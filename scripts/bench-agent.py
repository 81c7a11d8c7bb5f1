"""What `remora agent` costs a host: PROCESSES CPython 3.15 processes of THREADS threads each (default
20 and 10; each thread naps 10 ms and wakes to a little work), sampled by one agent at 100 Hz into a
directory sink for SECONDS (default 1800). Reports the agent's CPU as a share of one core over the
steady state (from minute 1 to the end, by its clock in /proc), over the whole run (start and
`/proc` scans included), its RSS after minute 1 and at the end, and its ticks, missed ticks and errors
(its last health line).

usage: python3 scripts/bench-agent.py [REMORA] [SECONDS] [PROCESSES] [THREADS]
REMORA defaults to the release built by scripts/release.sh, else the clone's ./remora.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

import measured_run

SID = measured_run.SID
TARGET = """
import sys, threading, time
def nap(n):
    while True:
        time.sleep(0.010)
        sum(range(200))
for n in range(int(sys.argv[1]) - 1):
    threading.Thread(target=nap, args=(n,), name="napper-%d" % n, daemon=True).start()
print("READY", flush=True)
nap(0)
"""
MARK = "remora-bench-agent-target"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User + system time of a process so far, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) / 1024


def java_of(launcher_pid):
    """The JVM the launcher execs into, whatever the launcher's shell did first."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if os.readlink(f"/proc/{launcher_pid}/exe").endswith("/java"):
                return launcher_pid
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit("the launcher never started a JVM")


def main():
    remora = measured_run.remora(sys.argv)
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1800
    processes = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    steady_from = min(60.0, seconds / 3)
    targets = []
    try:
        for _ in range(processes):
            target = subprocess.Popen(["chroot", SID, "/usr/bin/python3.15", "-c", TARGET, str(threads), MARK],
                                      stdout=subprocess.PIPE, text=True)
            targets.append(target)
        for target in targets:
            if target.stdout.readline().strip() != "READY":
                raise SystemExit("a target did not start")
        with tempfile.TemporaryDirectory() as sink:
            log = os.path.join(sink, "agent.log")
            with open(log, "w") as err:
                agent = subprocess.Popen([remora, "agent", "--match", MARK, "-r", "100hz", "--directory",
                                          os.path.join(sink, "profiles"), "-d", str(seconds)],
                                         stdout=subprocess.DEVNULL, stderr=err)
                start = time.monotonic()
                pid = java_of(agent.pid)
                time.sleep(steady_from)
                cpu_start, rss_start, at = cpu_seconds(pid), rss_mib(pid), time.monotonic()
                time.sleep(max(0.0, seconds - steady_from - 3))
                cpu_end, rss_end, until = cpu_seconds(pid), rss_mib(pid), time.monotonic()
                _, status, usage = os.wait4(agent.pid, 0)
                wall = time.monotonic() - start
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"the agent failed; its log: {open(log).read()[-2000:]}")
            last = [line for line in open(log) if "stopped:" in line][-1]
            files = len(os.listdir(os.path.join(sink, "profiles")))
    finally:
        for target in targets:
            target.kill()
            target.wait()
    print(f"{processes} processes x {threads} threads, 100 Hz, {seconds:.0f} s; agent {remora}")
    print(f"steady CPU ({steady_from:.0f} s to {until - start:.0f} s): {100 * (cpu_end - cpu_start) / (until - at):.2f}% of a core")
    print(f"whole run: {usage.ru_utime + usage.ru_stime:.1f} s of CPU in {wall:.1f} s,"
          f" {100 * (usage.ru_utime + usage.ru_stime) / wall:.2f}% of a core")
    print(f"RSS: {rss_start:.1f} MiB at {steady_from:.0f} s, {rss_end:.1f} MiB at {until - start:.0f} s"
          f" ({rss_end / rss_start:.2f}x); peak {usage.ru_maxrss / 1024:.1f} MiB")
    print(f"{files} profile files; last health line: {last.split('stopped: ', 1)[1].strip()}")


if __name__ == "__main__":
    main()
