"""A process that never imports asyncio: prints READY and sleeps.

Usage: asyncio_none.py OUT.json (writes {"pid"} there)
"""

import json
import os
import sys
import time


def main():
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        json.dump({"pid": os.getpid()}, f)
    assert "asyncio" not in sys.modules and "_asyncio" not in sys.modules
    print("READY", flush=True)
    time.sleep(3600)


if __name__ == "__main__":
    main()
