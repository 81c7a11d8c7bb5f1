"""The target scripts/test-release.sh reads: one thread parked in a known function, one busy."""
import threading
import time


def parked_in_release_test():
    time.sleep(3600)


def busy_in_release_test():
    while True:
        sum(i * i for i in range(1000))


threading.Thread(target=busy_in_release_test, daemon=True).start()
print("READY", flush=True)
parked_in_release_test()
