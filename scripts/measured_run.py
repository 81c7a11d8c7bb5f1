"""Runs a command quietly and says what it cost: the benchmark scripts' one way to time a program;
and where those scripts find Remora and the provisioned targets."""
import glob
import os
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SID = os.environ.get("REMORA_CACHE", "/var/cache/remora") + "/sid-root"


def releases():
    """The release scripts/release.sh built, if any (dist/remora-*/bin/remora)."""
    return sorted(glob.glob(f"{HERE}/dist/remora-*/bin/remora"))


def remora(argv):
    """The remora the user named (argv[1]), else the release, else the clone's ./remora."""
    found = releases()
    return argv[1] if len(argv) > 1 else (found[0] if found else f"{HERE}/remora")


def run(command, stderr=os.devnull):
    """Runs command with its output discarded (its stderr to the file named, if any); returns (wall
    seconds, resource usage); fails on a non-zero exit."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        os.dup2(os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
        os.execvp(command[0], command)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        said = "" if stderr == os.devnull else f" (its stderr: {stderr})"
        raise SystemExit(f"{' '.join(command)} failed{said}")
    return wall, usage
