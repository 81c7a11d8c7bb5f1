"""The target's own view of its asyncio tasks, for the asyncio_*.py targets to record; copied next to
them, which put their own directory on the path to import it."""
import asyncio


def chain(task):
    """The task's coroutine and what it awaits, innermost first, as the process sees them."""
    frames = []
    coro = task.get_coro()
    while coro is not None and type(coro).__name__ in ("coroutine", "generator"):
        frame = coro.cr_frame if hasattr(coro, "cr_frame") else coro.gi_frame
        if frame is None:
            break
        frames.append({"function": getattr(frame.f_code, "co_qualname", frame.f_code.co_name), "file": frame.f_code.co_filename,
                       "line": frame.f_lineno})
        coro = coro.cr_await if hasattr(coro, "cr_await") else coro.gi_yieldfrom
    return frames[::-1]


def tasks_of(loop):
    return [{"task_id": id(t), "task_name": t.get_name(), "call_stack": chain(t)}
            for t in asyncio.all_tasks(loop)]
