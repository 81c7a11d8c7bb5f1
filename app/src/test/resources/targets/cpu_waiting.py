"""One thread that never sleeps, on a machine where it waits for a core part of the time.

usage: cpu_waiting.py
Spins in pure Python, noting the wall-clock time (time.time, to match a profile's start) and its
CPU time (thread_time) every 20 ms; prints READY, and when a line arrives on its standard input
prints the notes as JSON [[wall, cpu], ...] and exits. The OS calls the spinning thread runnable all along.
"""
import json
import sys
import threading
import time

stop = threading.Event()


def wait_for_stop():
    sys.stdin.readline()
    stop.set()


def main():
    threading.Thread(target=wait_for_stop, daemon=True).start()
    notes = []
    print("READY", flush=True)
    next_note = 0.0
    x = 0
    while not stop.is_set():
        now = time.time()
        if now >= next_note:
            notes.append([now, time.thread_time()])
            next_note = now + 0.02
        x += 1
    notes.append([time.time(), time.thread_time()])
    print(json.dumps(notes), flush=True)


main()
