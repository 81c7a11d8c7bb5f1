# Runs CPython's own remote unwinder against PID the way its benchmark does, in slices: each line
# read from stdin is a number of seconds to call it back to back, answered with one JSON line of
# what that slice measured. The unwinder (and its caches) lives across slices, as a sampler's would,
# unless FRESH is "fresh": then each slice gets a new one, because another profiler moved the frame
# markers its cache relies on in between. A call counts as a sample when it found a stack (for the
# task methods: a task), as Remora counts them.
# usage: python3.15 -c <this> PID THREADS METHOD FRESH
# (METHOD: get_stack_trace, get_async_stack_trace or get_all_awaited_by; FRESH: fresh or kept)
import json
import sys
import time

import _remote_debugging

pid, threads, method, fresh = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4] == "fresh"
options = {"all": {"all_threads": True}, "main": {}, "only_active": {"only_active_thread": True}}[threads]


def unwinder_call():
    return getattr(_remote_debugging.RemoteUnwinder(pid, cache_frames=True, **options), method)


def found(result):
    if method == "get_stack_trace":
        return bool(result)
    return any(info.awaited_by for info in result)


call = unwinder_call()
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    seconds = float(line)
    if fresh:
        call = unwinder_call()
    calls = samples = failures = 0
    work = 0.0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        calls += 1
        result = None
        t0 = time.perf_counter()
        try:
            result = call()
        except (OSError, RuntimeError, UnicodeDecodeError):
            failures += 1
        work += time.perf_counter() - t0
        if result is not None and found(result):
            samples += 1
    wall = time.perf_counter() - start
    print(json.dumps({"calls": calls, "samples": samples, "failures": failures, "work_seconds": work,
                      "wall_seconds": wall}), flush=True)
