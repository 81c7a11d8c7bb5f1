"""A Python process whose threads are parked at known places.

Usage: python parked_threads.py OUT.json [DEPTH]

DEPTH is the deep-recursion thread's number of recurse frames (default 3000);
a smaller one lets CPython's own unwinder, which refuses stacks deeper than
1536 frames, read the same process.

Every thread blocks forever in a C call (acquiring a lock that is already
held), so its Python stack stays fixed while a tool reads it from outside.
Once all of them are parked, a recorder thread writes each thread's stack, as
the process itself sees it, to OUT.json, exits, and prints READY.  The tool's
dump can then be compared with OUT.json exactly.

Park places (thread name: top frames, innermost first):
  MainThread:     main_park <- main <- <module>
  deep-recursion: park <- recurse x DEPTH <- run_deep_recursion
  closure:        park <- Outer.Inner.method.<locals>.closure <- Outer.Inner.method
  generator:      park <- parking_generator <- iterate_generator
  coroutine:      park <- inner <- outer <- drive_coroutine
  name-ucs1:      park_é
  name-ucs2:      停车
  name-ucs4:      f_𐐀
  file-ucs1:      park_in_module (in módulo_é.py, written at runtime)
  file-ucs2:      park_in_module (in 模块.py, written at runtime)
  exec-ucs4:      exec_park <- <module> (both in "<exec 𐐀>")

It must run unchanged on CPython 3.13, 3.14 and 3.15.
"""

import _thread
import importlib
import json
import opcode
import os
import sys
import tempfile
import threading
import time

DEFAULT_DEEP_RECURSION_DEPTH = 3000
# The recorder gives up (and the process exits) if the threads are not all
# parked by then, so a broken target fails fast instead of hanging the test.
RECORD_TIMEOUT_SECONDS = 30
STABLE_INTERVAL_SECONDS = 0.1

# Held from the start and never released: acquiring it blocks forever.
BLOCKER = _thread.allocate_lock()
BLOCKER.acquire()

# Code objects of the functions a thread parks in.  The recorder only
# considers a thread parked when its top frame runs one of these.
PARK_CODES = set()


def parks(function):
    """Marks a function as a park place."""
    PARK_CODES.add(function.__code__)
    return function


@parks
def park():
    BLOCKER.acquire()


@parks
def main_park():
    BLOCKER.acquire()


# --- deep recursion: the stack spans several of CPython's frame chunks -----

def recurse(depth):
    if depth > 1:
        recurse(depth - 1)
    else:
        park()


def run_deep_recursion(depth):
    recurse(depth)


# --- closures and nested classes: qualnames with dots and <locals> ---------

class Outer:
    class Inner:
        def method(self):
            def closure():
                park()
            closure()


def run_closure():
    Outer.Inner().method()


# --- a generator: its frame lives in the generator object -----------------

def parking_generator():
    park()
    yield


def iterate_generator():
    for _ in parking_generator():
        pass


# --- coroutines driven by hand: no event loop frames in between -----------

async def inner():
    park()


async def outer():
    await inner()


def drive_coroutine():
    outer().send(None)


# --- function names of every compact string kind --------------------------

@parks
def park_é():  # latin-1: a one-byte (UCS1) string
    BLOCKER.acquire()


@parks
def 停车():  # CJK: a two-byte (UCS2) string
    BLOCKER.acquire()


@parks
def f_𐐀():  # outside the BMP: a four-byte (UCS4) string
    BLOCKER.acquire()


# --- file names of several string kinds: modules written at runtime --------

MODULE_SOURCE = """\
# Written by parked_threads.py: a thread parks in park_in_module.
def park_in_module(blocker):
    blocker.acquire()
"""

MODULE_NAMES = {"file-ucs1": "módulo_é", "file-ucs2": "模块"}


def import_written_modules(directory):
    """Writes and imports one module per name; returns thread name -> module."""
    sys.path.insert(0, directory)
    modules = {}
    for thread_name, module_name in MODULE_NAMES.items():
        path = os.path.join(directory, module_name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(MODULE_SOURCE)
        module = importlib.import_module(module_name)
        PARK_CODES.add(module.park_in_module.__code__)
        modules[thread_name] = module
    return modules


def run_in_module(module):
    module.park_in_module(BLOCKER)


# --- exec'd code with a UCS4 pseudo file name ------------------------------

EXEC_FILENAME = "<exec 𐐀>"
EXEC_SOURCE = """\
@parks
def exec_park():
    BLOCKER.acquire()

exec_park()
"""


def run_exec():
    # The exec'd code registers its own park function: exec never returns.
    namespace = {"parks": parks, "BLOCKER": BLOCKER}
    exec(compile(EXEC_SOURCE, EXEC_FILENAME, "exec"), namespace)


# --- recording -------------------------------------------------------------

_positions_cache = {}


def positions(code, lasti):
    """(line, end_line, column, end_column) of the instruction at byte offset lasti.

    co_positions() has one entry per 2-byte code unit (inline caches included),
    so the instruction's entry is at lasti // 2.  These are the positions a
    traceback would show for the frame, which an outside reader must match.
    """
    table = _positions_cache.get(code)
    if table is None:
        table = _positions_cache[code] = list(code_positions(code))
    return table[lasti // 2]


def code_positions(code):
    """co_positions(); 3.10 has none and knows only lines, which co_lines() gives per byte range;
    3.8 and 3.9 have neither: each line holds from where dis.findlinestarts() says it starts."""
    if hasattr(code, "co_positions"):
        return code.co_positions()
    lines = [None] * (len(code.co_code) // 2)
    if hasattr(code, "co_lines"):
        for start, end, line in code.co_lines():
            for unit in range(start // 2, min(end // 2, len(lines))):
                lines[unit] = line
    else:
        import dis
        for start, line in dis.findlinestarts(code):
            for unit in range(start // 2, len(lines)):
                lines[unit] = line
    return [(line, None, None, None) for line in lines]


def qualname(code):
    """What a frame is called: its qualified name, or (3.10, which has none) its name."""
    return getattr(code, "co_qualname", code.co_name)


def describe_stack(frame):
    """The frames from frame outwards, innermost first."""
    frames = []
    while frame is not None:
        code = frame.f_code
        line, end_line, column, end_column = positions(code, frame.f_lasti)
        frames.append({
            "function": qualname(code),
            "file": code.co_filename,
            "line": line,
            "end_line": end_line,
            "column": column,
            "end_column": end_column,
        })
        frame = frame.f_back
    return frames


def blocked_in_park(frame):
    # Inside a park function and at its CALL instruction, the lock acquire.
    # Checking the instruction too means a thread that has entered its park
    # function but not yet reached the call is never taken as parked.
    if frame is None or frame.f_code not in PARK_CODES:
        return False
    return opcode.opname[frame.f_code.co_code[frame.f_lasti]].startswith("CALL")


def snapshot(threads):
    """Stacks of the given threads (ident -> Thread), and which are not parked."""
    current = sys._current_frames()
    stacks, unparked = {}, []
    for ident, thread in threads.items():
        frame = current.get(ident)
        if blocked_in_park(frame):
            stacks[ident] = describe_stack(frame)
        else:
            top = frame and (qualname(frame.f_code), frame.f_lineno)
            unparked.append((thread.name, top))
    return stacks, unparked


def wait_until_parked(threads):
    """Returns the stacks once all threads are parked and stay unchanged."""
    deadline = time.monotonic() + RECORD_TIMEOUT_SECONDS
    previous, unparked = None, []
    while time.monotonic() < deadline:
        stacks, unparked = snapshot(threads)
        if not unparked and stacks == previous:
            return stacks
        previous = None if unparked else stacks
        time.sleep(STABLE_INTERVAL_SECONDS)
    sys.stderr.write("parked_threads: threads not parked after %ss: %r\n"
                     % (RECORD_TIMEOUT_SECONDS, unparked))
    sys.stderr.flush()
    os._exit(2)


def write_atomically(path, document):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False, indent=1)
    os.replace(tmp, path)


def record(out_path, threads):
    stacks = wait_until_parked(threads)
    write_atomically(out_path, {
        "pid": os.getpid(),
        "version": "%d.%d.%d" % sys.version_info[:3],
        "threads": [
            {"thread_id": thread.native_id, "name": thread.name, "frames": stacks[ident]}
            for ident, thread in threads.items()
        ],
    })
    # The reader waits for the recorder's OS thread to be gone as well, so
    # that the live process holds exactly the recorded threads.
    print("READY", flush=True)


def start(name, target, *args):
    thread = threading.Thread(target=target, args=args, name=name, daemon=True)
    thread.start()
    return thread


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: parked_threads.py OUT.json [DEPTH]")
    out_path = os.path.abspath(sys.argv[1])
    depth = int(sys.argv[2]) if len(sys.argv) == 3 else DEFAULT_DEEP_RECURSION_DEPTH
    # Deep recursion needs a limit above its depth plus the frames below it.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), depth + 1000))
    module_dir = tempfile.mkdtemp(prefix="modules-", dir=os.path.dirname(out_path))
    modules = import_written_modules(module_dir)

    workers = [
        start("deep-recursion", run_deep_recursion, depth),
        start("closure", run_closure),
        start("generator", iterate_generator),
        start("coroutine", drive_coroutine),
        start("name-ucs1", park_é),
        start("name-ucs2", 停车),
        start("name-ucs4", f_𐐀),
        *(start(name, run_in_module, module) for name, module in modules.items()),
        start("exec-ucs4", run_exec),
    ]
    # One Thread's attributes moved into a dict of its own; the others' stay in their class's shared layout.
    vars(workers[1])
    main_thread = threading.current_thread()
    threads = {t.ident: t for t in [main_thread, *workers]}
    start("recorder", record, out_path, threads)
    main_park()


if __name__ == "__main__":
    main()
