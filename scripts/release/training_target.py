"""What the release's ahead-of-time cache is trained on: a few parked threads and one busy one."""
import threading
import time


def parked():
    time.sleep(3600)


def busy(n):
    return n if n < 2 else busy(n - 1) + busy(n - 2)


for _ in range(3):
    threading.Thread(target=parked, daemon=True).start()
print("READY", flush=True)
while True:
    busy(15)
