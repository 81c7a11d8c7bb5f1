"""Three asyncio tasks suspended in worker(n, label), each with known variables; prints READY once
all three are waiting. Needs CPython 3.14+ for its task graph."""
import asyncio


async def worker(n, label):
    total = n * 2
    note = "worker " + label
    await asyncio.sleep(3600)
    return total, note


async def main():
    async with asyncio.TaskGroup() as group:
        for i in range(3):
            group.create_task(worker(i, "w%d" % i), name="w%d" % i)
        await asyncio.sleep(0.05)
        print("READY", flush=True)


asyncio.run(main())
