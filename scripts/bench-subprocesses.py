"""What following subprocesses costs Remora itself: `remora attach --subprocesses` on a parent with
seven Python children (eight processes, each busy in a loop), sampled at 1 kHz each for SECONDS,
and the CPU time Remora used over that time (its own user + system time, from the kernel).

usage: python3 scripts/bench-subprocesses.py [REMORA] [SECONDS]
REMORA defaults to the release built by scripts/release.sh, else the clone's ./remora; the target
runs under the provisioned CPython 3.15 (the Debian sid root of scripts/provision-targets.sh).
"""
import glob
import os
import subprocess
import sys
import tempfile

import measured_run

HERE = measured_run.HERE
SID = measured_run.SID
TREE = """
import subprocess, sys, time
def busy():
    while True:
        sum(i * i for i in range(200))
if len(sys.argv) > 1:
    busy()
children = [subprocess.Popen([sys.executable, __file__, "child"]) for _ in range(7)]
time.sleep(0.5)
print("READY", flush=True)
busy()
"""


def main():
    remora = measured_run.remora(sys.argv)
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    with tempfile.TemporaryDirectory(dir=f"{SID}/tmp") as root_dir:
        script = os.path.join(root_dir, "tree.py")
        with open(script, "w") as f:
            f.write(TREE)
        inside = script[len(SID):]
        target = subprocess.Popen(["chroot", SID, "python3.15", inside], stdout=subprocess.PIPE, text=True)
        try:
            if target.stdout.readline().strip() != "READY":
                raise SystemExit("bench-subprocesses: the target did not start")
            out = os.path.join(root_dir, "profile.txt")
            wall, usage = measured_run.run([remora, "attach", "--subprocesses", "-d", str(seconds), "--collapsed",
                                            "-o", out, str(target.pid)])
            profiles = glob.glob(os.path.join(root_dir, "profile_*.txt"))
            samples = 0
            for path in profiles:
                with open(path) as f:
                    samples += sum(int(line.rsplit(" ", 1)[1]) for line in f if line.strip())
        finally:
            subprocess.run(["pkill", "-f", inside])
            target.kill()
    cpu = usage.ru_utime + usage.ru_stime
    print(f"processes profiled: {len(profiles)}, samples: {samples} "
          f"({samples / seconds / max(len(profiles), 1):.0f} per second per process)")
    print(f"remora: {wall:.2f} s wall, {cpu:.2f} s CPU = {100 * cpu / wall:.0f}% of one core "
          f"({1e6 * cpu / max(samples, 1):.1f} µs of CPU per sample, start-up included)")


if __name__ == "__main__":
    main()
