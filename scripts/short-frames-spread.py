"""Where in a recursion of tiny functions the ticks land, and the share of tiny functions, for Remora's
default walk against --blocking (which stops the target and so reads exact stacks), and for CPython
3.15's own profiler both ways, all on one process.

The target is the tests' targets/short_frames.py on the sid root's CPython 3.15: seven idioms each
calling a function of about half a microsecond, among them tiny_rec, eleven calls deep, whose every
depth holds about the same time. For ROUNDS rounds, each profiler in turn samples it at 1 kHz for
SECONDS; each line gives the tiny functions' part of their idioms' samples, the recursion's mean
depth, and the share of the recursion's samples at each depth 0 (the slice's own frame) to 11.

usage: python3 scripts/short-frames-spread.py [REMORA] [SECONDS] [ROUNDS]
REMORA defaults to the release built by scripts/release.sh, else the clone's ./remora.
With SPREAD_PINNED=1 in the environment, the target runs on CPU 0 and Remora on CPU 1: the bias of a
read that races the thread it reads shows there (on one CPU the sampler preempts the target and reads
it standing), and so does the spread between target processes (where their stacks' chunks lie).
With SPREAD_REMORA_ONLY=1, CPython's profiler is left out.
"""
import collections
import os
import shutil
import subprocess
import sys
import tempfile

import measured_run

SID = measured_run.SID
TARGET = os.path.join(measured_run.HERE, "app/src/test/resources/targets/short_frames.py")
# Each tiny function and the slice that calls it through its idiom (the coroutine's is left out, as the
# accuracy test leaves it out: stopping a thread in the event loop's select() is no exact reference).
TINY = {"tiny_genexpr": "via_genexpr", "tiny_gen": "via_generator", "tiny_map": "via_map", "tiny_key": "via_sorted",
        "tiny_comp": "via_comprehension", "tiny_rec": "via_recursion"}
DEPTHS = 12


def spread(collapsed):
    """The tiny functions' part of their slices' samples, and the recursion's samples by depth."""
    counts = collections.Counter()
    depths = collections.Counter()
    with open(collapsed) as lines:
        for line in lines:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            frames = stack.split(";")
            count = int(n)
            for function in {frame.split(":")[-2] for frame in frames if frame.count(":") >= 2}:
                counts[function] += count
            slices = [i for i, frame in enumerate(frames) if ":via_recursion:" in frame]
            if slices:
                depth = sum(1 for frame in frames[slices[0] + 1:] if ":tiny_rec:" in frame)
                depths[min(depth, DEPTHS - 1)] += count
    tiny = sum(counts[f] for f in TINY) / max(1, sum(counts[s] for s in TINY.values()))
    total = max(1, sum(depths.values()))
    mean = sum(d * c for d, c in depths.items()) / total
    return tiny, mean, [depths[d] / total for d in range(DEPTHS)]


def main():
    remora = measured_run.remora(sys.argv)
    seconds = sys.argv[2] if len(sys.argv) > 2 else "6"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    work = tempfile.mkdtemp(prefix="remora-spread-", dir=os.path.join(SID, "tmp"))
    inside = work[len(SID):]
    try:
        shutil.copy(TARGET, work)
        target = subprocess.Popen(["chroot", SID, "/usr/bin/python3.15", inside + "/short_frames.py", "3600"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            if target.stdout.readline().strip() != "READY":
                raise SystemExit("the target did not start")
            pid = str(target.pid)
            pin = []
            if os.environ.get("SPREAD_PINNED"):
                subprocess.run(["taskset", "-a", "-p", "-c", "0", pid], stdout=subprocess.DEVNULL, check=True)
                pin = ["taskset", "-c", "1"]
            profilers = [
                ("remora", pin + [remora, "attach", "-d", seconds, "--collapsed", "-o", work + "/out.txt", pid]),
                ("remora --blocking", pin + [remora, "attach", "-d", seconds, "--blocking", "--collapsed", "-o",
                                       work + "/out.txt", pid]),
                ("cpython", ["chroot", SID, "/usr/bin/python3.15", "-m", "profiling.sampling", "attach", "-d", seconds,
                             "-r", "1000", "--collapsed", "-o", inside + "/out.txt", pid]),
                ("cpython --blocking", ["chroot", SID, "/usr/bin/python3.15", "-m", "profiling.sampling", "attach",
                                        "-d", seconds, "-r", "1000", "--blocking", "--collapsed", "-o",
                                        inside + "/out.txt", pid]),
            ]
            if os.environ.get("SPREAD_REMORA_ONLY"):
                profilers = profilers[:2]
            print(f"CPython 3.15, targets/short_frames.py, {seconds} s at 1 kHz each; depth shares 0..{DEPTHS - 1}")
            for _ in range(rounds):
                for name, command in profilers:
                    measured_run.run(command)
                    tiny, mean, shares = spread(work + "/out.txt")
                    print(f"{name:20} tiny {tiny:.3f}  mean depth {mean:.2f}  "
                          + " ".join(f"{share:.3f}" for share in shares), flush=True)
        finally:
            target.kill()
            target.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
