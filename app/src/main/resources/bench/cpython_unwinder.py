# Runs CPython's own remote unwinder against PID for SECONDS the way its benchmark does, and prints
# what it measured as one JSON line. usage: python3.15 -c <this> PID SECONDS THREADS METHOD
# (METHOD: get_stack_trace, get_async_stack_trace or get_all_awaited_by)
import json
import sys
import time

import _remote_debugging

pid, seconds, threads, method = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
options = {"all": {"all_threads": True}, "main": {}, "only_active": {"only_active_thread": True}}[threads]
unwinder = _remote_debugging.RemoteUnwinder(pid, cache_frames=True, **options)
call = getattr(unwinder, method)
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
print(json.dumps({"calls": calls, "samples": samples, "failures": failures, "work_seconds": work, "wall_seconds": wall}))
