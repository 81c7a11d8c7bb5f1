"""Parks asyncio tasks of two event loops in a known graph, and records it.

Usage: asyncio_graph.py OUT.json

The main thread's loop holds a TaskGroup, a gather, deep await chains, a task
awaited by several waiters (a set of waiters), tasks named in every string kind
(ASCII, Latin-1, UCS-2, UCS-4) and unnamed ones ("Task-N"). A second thread runs
its own loop with a gather of its own. Every task ends up suspended on an Event
that is never set, so the graph does not change once READY is printed.

OUT.json is the process's own view of its tasks, taken once both loops are idle:
  {"pid", "threads": [{"thread_id", "tasks": [{"task_id", "task_name",
    "call_stack": [{"function", "file", "line"}]}]}]}
task_id is id(task) (the task's address), call_stack the task's coroutine and
the coroutines it awaits, innermost first, read through cr_await.
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


async def leaf(ev):
    await ev.wait()


async def middle(ev):
    await leaf(ev)


async def worker(ev):
    await middle(ev)


async def deep(n, ev):
    if n == 0:
        await ev.wait()
    else:
        await deep(n - 1, ev)


async def gather_all(*aws):
    await asyncio.gather(*aws)


async def group(ev):
    if not hasattr(asyncio, "TaskGroup"):
        # 3.10: no task groups; its graph is never read (asyncio graphs need 3.14), only refused.
        await asyncio.gather(worker(ev), deep(6, ev), leaf(ev), leaf(ev))
        return
    async with asyncio.TaskGroup() as tg:
        tg.create_task(worker(ev), name="group-child")
        tg.create_task(deep(6, ev), name="deep-chain")
        tg.create_task(leaf(ev))
        await leaf(ev)


class OtherLoop:
    """A second thread with its own event loop and a gather of its own."""

    def __init__(self):
        self.ready = threading.Event()
        self.loop = None
        self.thread_id = None

    def run(self):
        self.thread_id = threading.get_native_id()
        asyncio.run(self._main())

    async def _main(self):
        ev = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        asyncio.create_task(gather_all(worker(ev), leaf(ev)), name="other-thread-é")
        self.loop.call_later(0.1, self.ready.set)
        await middle(ev)


async def main_loop(out, other):
    ev = asyncio.Event()
    shared = asyncio.create_task(worker(ev), name="shared")
    for i in range(3):
        asyncio.create_task(gather_all(shared), name=f"shared-waiter-{i}")
    asyncio.create_task(group(ev), name="group")
    asyncio.create_task(gather_all(worker(ev), deep(3, ev)), name="gatherer")
    asyncio.create_task(leaf(ev), name="naïve-é")
    asyncio.create_task(leaf(ev), name="Āē-ucs2")
    asyncio.create_task(leaf(ev), name="𐐀-ucs4")
    asyncio.create_task(leaf(ev))
    loop = asyncio.get_running_loop()
    loop.call_later(0.2, record, out, loop, other)
    await deep(2, ev)


def record(out, loop, other):
    # A callback of the main loop: no task runs here, and the other loop sleeps in its selector.
    other.ready.wait()
    time.sleep(0.1)
    threads = [
        {"thread_id": threading.get_native_id(), "tasks": tasks_of(loop)},
        {"thread_id": other.thread_id, "tasks": tasks_of(other.loop)},
    ]
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"pid": os.getpid(), "threads": threads}, f, ensure_ascii=False)
    print("READY", flush=True)


def main():
    other = OtherLoop()
    threading.Thread(target=other.run, daemon=True).start()
    other.ready.wait()
    asyncio.run(main_loop(sys.argv[1], other))


if __name__ == "__main__":
    main()
