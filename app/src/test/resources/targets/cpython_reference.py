"""CPython's own view of another process's stacks, as JSON on stdout.

Usage: python3.15 cpython_reference.py PID

Run it with the target's interpreter (in the target's root): CPython's
_remote_debugging.RemoteUnwinder only reads processes of its own version.
The output has the shape parked_threads.py records, so the two can be
compared; threads also carry "interpreter_id" and "status", and "name" is
null because the unwinder does not know thread names.

RemoteUnwinder.get_stack_trace() (3.15) returns a list of
  InterpreterInfo(interpreter_id, threads)
    threads: ThreadInfo(thread_id, status, frame_info)
      frame_info: FrameInfo(filename, location, funcname, opcode), innermost first
        location: LocationInfo(lineno, end_lineno, col_offset, end_col_offset) or None
"""

import json
import sys

import _remote_debugging


def frame_json(frame):
    location = frame.location
    return {
        "function": frame.funcname,
        "file": frame.filename,
        "line": location.lineno if location else None,
        "end_line": location.end_lineno if location else None,
        "column": location.col_offset if location else None,
        "end_column": location.end_col_offset if location else None,
    }


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cpython_reference.py PID")
    pid = int(sys.argv[1])
    unwinder = _remote_debugging.RemoteUnwinder(pid, all_threads=True)
    threads = [
        {
            "interpreter_id": interpreter.interpreter_id,
            "thread_id": thread.thread_id,
            "status": thread.status,
            "name": None,
            "frames": [frame_json(frame) for frame in thread.frame_info],
        }
        for interpreter in unwinder.get_stack_trace()
        for thread in interpreter.threads
    ]
    document = {
        "pid": pid,
        # The reader's version; it equals the target's (see above).
        "version": "%d.%d.%d" % sys.version_info[:3],
        "threads": threads,
    }
    json.dump(document, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
