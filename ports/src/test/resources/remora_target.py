"""Test target for the memory adapters: holds known bytes at known addresses, then waits on stdin.

Arguments are key=value:
  payload=PATH      load the file's bytes into a bytes object and report where its data lives
  map=PATH          map PATH read-only (and keep it mapped)
  map_deleted=PATH  map PATH read-only, then delete it
  threads=1         start one thread spinning on the CPU and one sleeping, report their ids
Reports key=value lines on stdout, then "ready".
"""
import ctypes
import mmap
import os
import sys
import threading
import time

PROT_READ_WRITE = 0x1 | 0x2
MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20


def edge_region():
    """Two readable pages followed by an unmapped one (a fourth page keeps the hole bounded)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    page = mmap.PAGESIZE
    base = libc.mmap(None, 4 * page, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0)
    if base in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap failed")
    ctypes.memset(base, 0x5A, 2 * page)
    if libc.munmap(base + 2 * page, page) != 0:
        raise OSError(ctypes.get_errno(), "munmap failed")
    return base, page


def map_file(path):
    with open(path, "rb") as f:
        return mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)


def spin(ids, started):
    ids["busy_tid"] = threading.get_native_id()
    started.release()
    while True:
        pass


def doze(ids, started):
    ids["sleep_tid"] = threading.get_native_id()
    started.release()
    while True:
        time.sleep(3600)


def main():
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    keep = []
    out = {
        "exe": os.path.realpath(sys.executable),
        # Mapped, not configured: Debian builds with --enable-shared but links its python3 statically.
        "shared_libpython": int("libpython" in open("/proc/self/maps").read()),
    }
    if "payload" in args:
        with open(args["payload"], "rb") as f:
            payload = f.read()
        keep.append(payload)
        out["payload_addr"] = ctypes.cast(ctypes.c_char_p(payload), ctypes.c_void_p).value
        out["payload_len"] = len(payload)
    out["edge_addr"], out["page_size"] = edge_region()
    if "map" in args:
        keep.append(map_file(args["map"]))
    if "map_deleted" in args:
        keep.append(map_file(args["map_deleted"]))
        os.unlink(args["map_deleted"])
    if args.get("threads") == "1":
        started = threading.Semaphore(0)
        for target in (spin, doze):
            threading.Thread(target=target, args=(out, started), daemon=True).start()
            started.acquire()
    for key, value in out.items():
        print(f"{key}={value}")
    print("ready", flush=True)
    sys.stdin.read()


main()
