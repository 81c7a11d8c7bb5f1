"""How large a binary capture grows: `remora attach --binary -a` of a 20-thread CPython 3.15 process
(threads calling, sleeping and spinning in turns, so stacks change all the time) at 1 kHz for
SECONDS, zstd and uncompressed, beside CPython 3.15's own `--binary` capture of the same process in
the same run; bytes per sample of each.

usage: python3 scripts/bench-capture.py [REMORA] [SECONDS]
REMORA defaults to the release built by scripts/release.sh, else the clone's ./remora; the target
runs under the provisioned CPython 3.15 (the Debian sid root of scripts/provision-targets.sh).
"""
import os
import subprocess
import sys
import tempfile

import measured_run

HERE = measured_run.HERE
SID = measured_run.SID
TARGET = """
import random, threading, time
def leaf(n):
    return sum(range(n))
def middle(n):
    return leaf(n) + leaf(n // 2)
def work(seed):
    rng = random.Random(seed)
    while True:
        if rng.random() < 0.3:
            time.sleep(0.002)
        else:
            middle(rng.randint(10, 400))
for i in range(19):
    threading.Thread(target=work, args=(i,), daemon=True).start()
print("READY", flush=True)
work(99)
"""


def samples(path):
    """The sample count from the capture's header."""
    with open(path, "rb") as f:
        header = f.read(64)
    return int.from_bytes(header[0x1C:0x24], "little")


def main():
    remora = measured_run.remora(sys.argv)
    seconds = sys.argv[2] if len(sys.argv) > 2 else "60"
    with tempfile.TemporaryDirectory(dir=f"{SID}/tmp") as root_dir:
        inside = root_dir[len(SID):]
        script = os.path.join(root_dir, "threads.py")
        with open(script, "w") as f:
            f.write(TARGET)
        target = subprocess.Popen(["chroot", SID, "python3.15", f"{inside}/threads.py"], stdout=subprocess.PIPE, text=True)
        try:
            if target.stdout.readline().strip() != "READY":
                raise SystemExit("bench-capture: the target did not start")
            pid = str(target.pid)
            rows = []
            for compression in ("zstd", "none"):
                out = os.path.join(root_dir, f"remora-{compression}.bin")
                subprocess.run([remora, "attach", "--binary", "--compression", compression, "-a", "-d", seconds,
                                "-o", out, pid], check=True, capture_output=True)
                rows.append((f"remora --compression {compression}", out))
                out = os.path.join(root_dir, f"cpython-{compression}.bin")
                subprocess.run(["chroot", SID, "python3.15", "-m", "profiling.sampling", "attach", "--binary",
                                "--compression", compression, "-a", "-d", seconds, "-o", f"{inside}/cpython-{compression}.bin",
                                pid], check=True, capture_output=True)
                rows.append((f"python3.15 -m profiling.sampling --compression {compression}", out))
        finally:
            target.kill()
        print(f"{'capture (' + seconds + ' s, 20 threads, 1 kHz)':58} {'samples':>9} {'bytes':>11} {'bytes/sample':>13}")
        for name, path in rows:
            n = samples(path)
            size = os.path.getsize(path)
            print(f"{name:58} {n:9d} {size:11d} {size / max(n, 1):13.2f}")


if __name__ == "__main__":
    main()
