"""Threads parked in frames whose variables hold values of every kind a dump shows, and what the
process itself says of them.

usage: parked_locals.py OUT.json
Parks the main thread in a closure called by values(), a second thread inside a generator and a
third inside a coroutine; then writes OUT.json and prints READY. OUT.json maps each parked function
to its variables in order: [name, kind, type, repr], where kind is argument, local, cell or free,
and repr is what `remora dump --locals` must show: repr() itself where that is exact (None, bool,
int, float, str and bytes up to 200 characters, small containers, a list that holds itself), the
first 200 characters and "..." for longer str and bytes, the first 10 items and how many more of
longer lists, and a prefix (ending in "*") where only
the start is fixed (other objects, ints too long to show). Runs unchanged on CPython 3.8 to 3.15.
"""
import _thread
import json
import sys
import threading
import time

BLOCKER = _thread.allocate_lock()
BLOCKER.acquire()
LIMIT = 200


def park():
    BLOCKER.acquire()


class Thing:
    pass


def values(a, b, /, c, *rest, d=4, **options):
    none = None
    yes, no = True, False
    small, negative, zero = 7, -12345678901234567890123, 0
    huge = 2 ** 200
    too_huge = 10 ** 5000
    floats = None
    third, neg_zero, big, tiny, inf, nan = 1 / 3, -0.0, 1e300, 5e-324, float("inf"), float("nan")
    ascii_text = 'plain "double" text'
    quotes = "it's"
    ucs1 = "caf\xe9 \xff \x80"
    ucs2 = "\u65e5\u672c\u8a9e \u200b \u2028"
    ucs4 = "\U00010400 \U0001f600"
    escapes = "tab\there\nnul\x00 bell\x07 back\\slash"
    surrogate = "lone \udc80 half"
    long_ascii = "x" * 1000
    long_ucs4 = "\U0001f600" * 500
    raw = b"\x00\xff'\""
    long_raw = bytes(range(256)) * 2
    empty_bytes = b""
    pair = (1, "two")
    single = (None,)
    nested = [[1, 2], (3,), {"k": [4]}]
    mapping = {"a": 1, 2: "b", None: 3.5}
    numbers = {1, 2, 3}
    frozen = frozenset()
    empty_list, empty_dict, empty_set = [], {}, set()
    long_list = list(range(15))
    selfish = [1]
    selfish.append(selfish)
    thing = Thing()
    thing.x, thing.y, thing.z = 1, "two", None
    attributes = thing.__dict__
    captured = ["cell", 1]
    a_cell = (lambda: captured).__closure__[0]  # a plain local that holds a cell object: shown as the cell

    def closure(inner_arg):
        inner_local = inner_arg * 2
        seen = (captured, a)
        park()
        return inner_local, seen

    return closure(21)


def parking_generator(start):
    count = start
    label = "in generator"
    yield count
    park()
    yield label


def run_generator():
    for _ in parking_generator(10):
        pass


async def parked_coroutine(delay):
    waited = delay
    mood = "awaiting"
    park()
    return waited, mood


def run_coroutine():
    coroutine = parked_coroutine(0.5)
    try:
        coroutine.send(None)
    except StopIteration:
        pass


PARKED = {"closure", "values", "parking_generator", "parked_coroutine"}


def expected_repr(value):
    if isinstance(value, str) and type(value) is str and len(value) > LIMIT:
        return repr(value[:LIMIT]) + "..."
    if type(value) is bytes and len(value) > LIMIT:
        return repr(value[:LIMIT]) + "..."
    if type(value) is list and len(value) > 10:
        return "[" + ", ".join(map(repr, value[:10])) + ", ... %d more]" % (len(value) - 10)
    if type(value) is int and abs(value).bit_length() > 440 * 30:
        return "<unreadable: *"
    if type(value) in (type(None), bool, int, float, str, bytes, tuple, list, dict, set, frozenset):
        return repr(value)
    return "<%s object at 0x*" % type(value).__name__


def kinds(code):
    arguments = code.co_argcount + code.co_kwonlyargcount
    arguments += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    names = {}
    for index, name in enumerate(code.co_varnames):
        names[name] = "argument" if index < arguments else "local"
    for name in code.co_cellvars:
        names.setdefault(name, "cell")
    for name in code.co_freevars:
        names[name] = "free"
    return names


def variables(frame):
    code = frame.f_code
    kind = kinds(code)
    ordered = list(code.co_varnames) + [n for n in code.co_cellvars if n not in code.co_varnames] + list(code.co_freevars)
    local_values = frame.f_locals
    out = []
    for name in ordered:
        if name in local_values:
            value = local_values[name]
            out.append([name, kind[name], type(value).__name__, expected_repr(value)])
    return out


def record(out_path, threads):
    deadline = time.monotonic() + 30
    while True:
        frames = sys._current_frames()
        found = {}
        for thread_id in threads:
            frame = frames.get(thread_id)
            while frame is not None:
                if frame.f_code.co_name in PARKED:
                    found[frame.f_code.co_name] = variables(frame)
                frame = frame.f_back
        if len(found) == len(PARKED):
            break
        if time.monotonic() > deadline:
            sys.exit("not all threads parked: %s" % sorted(found))
        time.sleep(0.05)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"pid": __import__("os").getpid(), "frames": found}, f, ensure_ascii=False)
    print("READY", flush=True)


def main(out_path):
    workers = [threading.Thread(target=run_generator, name="generator", daemon=True),
               threading.Thread(target=run_coroutine, name="coroutine", daemon=True)]
    for w in workers:
        w.start()
    ids = [threading.main_thread().ident] + [w.ident for w in workers]
    threading.Thread(target=record, args=(out_path, ids), name="recorder").start()
    values(1, "b", 3.0, "rest1", ("rest", 2), d=4, flag=True)


if __name__ == "__main__":
    main(sys.argv[1])
