"""Many short-lived tasks, created and finished all the time, in a loop that never idles.

Usage: asyncio_busy.py OUT.json (writes {"pid"} there, then prints READY)
"""

import asyncio
import json
import os
import sys


async def short(n):
    for _ in range(n):
        await asyncio.sleep(0)


async def nested(depth):
    if depth == 0:
        await short(3)
    else:
        await nested(depth - 1)


async def spawner():
    while True:
        async with asyncio.TaskGroup() as tg:
            for i in range(50):
                tg.create_task(nested(i % 5), name=f"churn-{i}")


async def main(out):
    tasks = [asyncio.create_task(spawner(), name=f"spawner-{i}") for i in range(4)]
    await asyncio.sleep(0.2)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"pid": os.getpid()}, f)
    print("READY", flush=True)
    await asyncio.gather(*tasks)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
