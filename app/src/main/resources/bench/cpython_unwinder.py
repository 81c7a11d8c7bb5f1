# Runs CPython's own remote unwinder against PID the way its benchmark does, in slices: each line
# read from stdin is a number of seconds to call it back to back, answered with one JSON line of
# what that slice measured. The unwinder (and its caches) lives across slices, as a sampler's would.
# usage: python3.15 -c <this> PID THREADS METHOD
# (METHOD: get_stack_trace, get_async_stack_trace or get_all_awaited_by)
import json
import sys
import time

import _remote_debugging

pid, threads, method = int(sys.argv[1]), sys.argv[2], sys.argv[3]
options = {"all": {"all_threads": True}, "main": {}, "only_active": {"only_active_thread": True}}[threads]
unwinder = _remote_debugging.RemoteUnwinder(pid, cache_frames=True, **options)
call = getattr(unwinder, method)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    seconds = float(line)
    calls = samples = failures = 0
    work = 0.0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        calls += 1
        t0 = time.perf_counter()
        try:
            if call():
                samples += 1
        except (OSError, RuntimeError, UnicodeDecodeError):
            failures += 1
        work += time.perf_counter() - t0
    wall = time.perf_counter() - start
    print(json.dumps({"calls": calls, "samples": samples, "failures": failures, "work_seconds": work,
                      "wall_seconds": wall}), flush=True)
