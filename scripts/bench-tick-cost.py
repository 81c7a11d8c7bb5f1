"""What one tick of one thread costs Remora's sampling thread, against the floor under it: a JVM
thread that only wakes on the same grid and does nothing (scripts/bench/TickFloor.java). On a
machine where each wake-up is dear (a virtual machine's timer and context switch), the floor is
most of the tick; what Remora adds is the difference.

For ROUNDS rounds, in turn: `remora attach -r RATE -d SECONDS` on a CPython 3.15 process with one
busy thread, then TickFloor at RATE for SECONDS. Each run's busiest thread (the sampling thread, and
the floor's sleeper) has its CPU clock read from /proc/PID/task/TID/schedstat over the window from
WARM seconds in to 2 seconds before its end, so that neither start counts. The target and the
measured process run on different CPUs.

usage: python3 scripts/bench-tick-cost.py [REMORA] [ROUNDS] [SECONDS] [RATE]
REMORA defaults to the release built by scripts/release.sh, else the clone's ./remora; the floor
runs under the JDK scripts/jdk.sh selects.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import measured_run

SID = measured_run.SID
WARM = 8.0
TARGET = """
import sys, time
def work(n):
    s = 0
    for i in range(n):
        s += i
    return s
print("READY", flush=True)
end = time.time() + float(sys.argv[1])
while time.time() < end:
    work(1000)
"""


def thread_cpu(pid):
    """Each thread's nanoseconds on a CPU, by thread id."""
    cpu = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                cpu[tid] = int(f.read().split()[0])
        except OSError:
            pass
    return cpu


def busiest_per_tick(pid, seconds, rate):
    """CPU µs per tick of the thread of pid that used the most over the window."""
    time.sleep(WARM)
    before, start = thread_cpu(pid), time.monotonic()
    time.sleep(seconds - WARM - 2)
    after, window = thread_cpu(pid), time.monotonic() - start
    busiest = max(after[tid] - before.get(tid, 0) for tid in after)
    return busiest / 1000 / (window * rate)


def exec_of_java(pid):
    """Waits until the launcher at pid has exec'd its java (the clone's may build first); returns pid."""
    deadline = time.monotonic() + 600
    while os.path.basename(os.readlink(f"/proc/{pid}/exe")) != "java":
        if time.monotonic() > deadline:
            raise SystemExit(f"{pid} did not become a java process")
        time.sleep(0.1)
    return pid


def jdk_java():
    home = subprocess.run(["bash", "-c", f"source {measured_run.HERE}/scripts/jdk.sh >/dev/null && echo $JAVA_HOME"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return f"{home}/bin/java"


def main():
    remora = measured_run.remora(sys.argv)
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 30
    rate = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    if seconds < WARM + 5:
        raise SystemExit(f"SECONDS must be at least {WARM + 5:.0f}")
    java = jdk_java()
    floor_source = f"{measured_run.HERE}/scripts/bench/TickFloor.java"
    with tempfile.TemporaryDirectory(dir=f"{SID}/tmp") as root_dir:
        script = os.path.join(root_dir, "busy.py")
        with open(script, "w") as f:
            f.write(TARGET)
        life = rounds * (2 * seconds + 10) + 30
        target = subprocess.Popen(["taskset", "-c", "1", "chroot", SID, "/usr/bin/python3.15", script[len(SID):],
                                   str(life)], stdout=subprocess.PIPE, text=True)
        try:
            assert target.stdout.readline().strip() == "READY"
            print(f"one busy thread, CPython 3.15, {rate} Hz, {seconds:.0f} s a run; remora: {remora}")
            print(f"{'round':>5} {'remora µs/tick':>15} {'floor µs/tick':>14} {'remora - floor':>15}")
            remora_ticks, floor_ticks = [], []
            for r in range(rounds):
                run = subprocess.Popen(["taskset", "-c", "0", remora, "attach", "-r", str(rate), "-d", str(seconds),
                                        "--collapsed", "-o", os.path.join(root_dir, "p.txt"), str(target.pid)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                per_tick = busiest_per_tick(exec_of_java(run.pid), seconds, rate)
                if run.wait() != 0:
                    raise SystemExit("remora attach failed")
                floor = subprocess.Popen(["taskset", "-c", "0", java, floor_source, str(rate), str(seconds)],
                                         stdout=subprocess.PIPE, text=True)
                assert floor.stdout.readline().strip() == "READY"
                floor_tick = busiest_per_tick(floor.pid, seconds - 1, rate)
                floor.wait()
                remora_ticks.append(per_tick)
                floor_ticks.append(floor_tick)
                print(f"{r + 1:>5} {per_tick:>15.1f} {floor_tick:>14.1f} {per_tick - floor_tick:>15.1f}", flush=True)
            print(f"{'median':>5} {statistics.median(remora_ticks):>15.1f} {statistics.median(floor_ticks):>14.1f} "
                  f"{statistics.median(r - f for r, f in zip(remora_ticks, floor_ticks)):>15.1f}")
        finally:
            target.kill()
            target.wait()


if __name__ == "__main__":
    main()
