# Workload "asyncio": an event loop running a tree of tasks over and over. Each round a root task
# opens a task group of branches, each branch a group of leaves; leaves mix CPU work with short
# sleeps, so the loop is mostly running a task and now and then waiting.
import asyncio
import math


def crunch(n):
    total = 0.0
    for i in range(n):
        total += math.sqrt(i) * math.sin(i)
    return total


async def leaf(rounds):
    for _ in range(rounds):
        crunch(3000)
        await asyncio.sleep(0.0002)


async def branch(width):
    async with asyncio.TaskGroup() as group:
        for i in range(width):
            group.create_task(leaf(3 + i), name=f"leaf-{i}")


async def tree():
    async with asyncio.TaskGroup() as group:
        for i in range(4):
            group.create_task(branch(4), name=f"branch-{i}")


async def main():
    while True:
        await asyncio.create_task(tree(), name="tree")


asyncio.run(main())
