"""CPython's own view of another process's asyncio tasks, as JSON on stdout.

Usage: python3.1X asyncio_reference.py PID all|running

Run it with the target's interpreter (in the target's root): CPython's
_remote_debugging.RemoteUnwinder only reads processes of its own version.
"all" prints RemoteUnwinder.get_all_awaited_by(), "running"
get_async_stack_trace(), both in the shape of Remora's async JSON:
  {"threads": [{"thread_id", "tasks": [{"task_id", "task_name",
    "coroutine_stack": [{"task_name", "call_stack": [frame...]}],
    "awaited_by": [{"task_name", "call_stack": [frame...]}]}]}]}
A frame is {"function", "file", "line"} plus, where the version reports them
(3.15), "end_line", "column" and "end_column". task_name is what CPython
returns, unchanged: 3.14 reads non-ASCII names as NUL characters.
"""

import json
import sys

import _remote_debugging


def frame_json(frame):
    out = {"function": frame.funcname, "file": frame.filename}
    location = getattr(frame, "location", None)
    if hasattr(frame, "location"):
        out["line"] = location.lineno if location else None
        out["end_line"] = location.end_lineno if location else None
        out["column"] = location.col_offset if location else None
        out["end_column"] = location.end_col_offset if location else None
    else:
        out["line"] = frame.lineno
    return out


def coro_json(coro):
    return {"task_name": coro.task_name, "call_stack": [frame_json(f) for f in coro.call_stack]}


def task_json(task):
    return {
        "task_id": task.task_id,
        "task_name": task.task_name,
        "coroutine_stack": [coro_json(c) for c in task.coroutine_stack],
        "awaited_by": [coro_json(c) for c in task.awaited_by],
    }


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("all", "running"):
        sys.exit("usage: asyncio_reference.py PID all|running")
    unwinder = _remote_debugging.RemoteUnwinder(int(sys.argv[1]), all_threads=True)
    infos = unwinder.get_all_awaited_by() if sys.argv[2] == "all" else unwinder.get_async_stack_trace()
    threads = [{"thread_id": info.thread_id, "tasks": [task_json(t) for t in info.awaited_by]} for info in infos]
    json.dump({"threads": threads}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
