"""A Python process for `remora ps`: THREADS parked threads besides the main one, and, with
--child, a child process running this script (without --child) under the same interpreter.

usage: ps_family.py THREADS [--child]
Prints "READY <child pid or 0>" once its threads (and its child's) are parked.
"""
import subprocess
import sys
import threading
import time


def parked():
    time.sleep(3600)


for _ in range(int(sys.argv[1])):
    threading.Thread(target=parked, daemon=True).start()
child_pid = 0
if "--child" in sys.argv:
    child = subprocess.Popen([sys.executable, __file__, "1"], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().startswith("READY")
    child_pid = child.pid
print("READY", child_pid, flush=True)
time.sleep(3600)
