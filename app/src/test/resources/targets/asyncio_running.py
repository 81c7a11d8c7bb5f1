"""Two event loops, each blocked inside a running task, with chains of waiters.

Usage: asyncio_running.py OUT.json

In the main thread the task "blocker" calls plain functions that end in
time.sleep(), so the loop cannot run anything else; tasks wait on it through
gather: blocker <- waiter-1 <- waiter-2 <- the main task, and blocker <-
waiter-1b <- waiter-3. A second thread's loop is blocked the same way in its
task "other-blocker-é", awaited by that loop's main task. Once both are
blocked, OUT.json holds the process's own view of its tasks (the shape
asyncio_graph.py writes) and READY is printed.
"""

import asyncio
import json
import os
import sys
import threading
import time

# Run isolated (-I), the script's directory is not on the path: the recorder sits next to it.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asyncio_record import tasks_of  # noqa: E402

other_blocked = threading.Event()
other_ids = {}


def block(n, then):
    if n == 0:
        then()
        time.sleep(3600)
    else:
        block(n - 1, then)


def ready_once_both_sleep():
    """READY once both loops' threads sleep in block(): a reading just after then() returned, or
    while it runs, would see one of them a line early or still inside it."""
    sleeping_line = block.__code__.co_firstlineno + 3
    blocked = {threading.main_thread().ident, other_ids["ident"]}
    while True:
        frames = sys._current_frames()
        if all(frames[t].f_code is block.__code__ and frames[t].f_lineno == sleeping_line for t in blocked):
            break
        time.sleep(0.001)
    print("READY", flush=True)


async def inner(then):
    block(2, then)


async def outer(then):
    await asyncio.sleep(0.2)  # lets every waiter start and gather before the loop blocks
    await inner(then)


async def gather_all(*aws):
    await asyncio.gather(*aws)


def other_thread():
    async def other_main():
        other_ids["loop"] = asyncio.get_running_loop()
        await asyncio.gather(asyncio.create_task(outer(other_blocked.set), name="other-blocker-é"))

    other_ids["thread_id"] = threading.get_native_id()
    other_ids["ident"] = threading.get_ident()
    asyncio.run(other_main())


async def main_task(out):
    loop = asyncio.get_running_loop()

    def record():
        other_blocked.wait()
        threads = [
            {"thread_id": threading.get_native_id(), "tasks": tasks_of(loop)},
            {"thread_id": other_ids["thread_id"], "tasks": tasks_of(other_ids["loop"])},
        ]
        with open(out, "w", encoding="utf-8") as f:
            json.dump({"pid": os.getpid(), "threads": threads}, f, ensure_ascii=False)
        threading.Thread(target=ready_once_both_sleep, daemon=True).start()

    blocker = asyncio.create_task(outer(record), name="blocker")
    waiter1 = asyncio.create_task(gather_all(blocker), name="waiter-1")
    waiter1b = asyncio.create_task(gather_all(blocker), name="waiter-1b")
    waiter2 = asyncio.create_task(gather_all(waiter1), name="waiter-2")
    asyncio.create_task(gather_all(waiter1b), name="waiter-3")
    await asyncio.gather(waiter2)


def main():
    threading.Thread(target=other_thread, daemon=True).start()
    asyncio.run(main_task(sys.argv[1]))


if __name__ == "__main__":
    main()
