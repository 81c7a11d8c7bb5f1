"""Runs a command quietly and says what it cost: the benchmark scripts' one way to time a program."""
import os
import time


def run(command):
    """Runs command with its output discarded; returns (wall seconds, resource usage); fails on a non-zero exit."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execvp(command[0], command)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed")
    return wall, usage
