"""A target with a second interpreter whose thread parks inside it (CPython 3.13+). With the argument
"later", the main thread first prints MAIN and creates the interpreter only when a line arrives on stdin."""
import sys
import threading
import time

try:
    import _interpreters as interpreters
except ImportError:  # 3.13 before the module was renamed in some builds
    import _xxsubinterpreters as interpreters

SUB_CODE = """
import time
def sub_park():
    print("READY", flush=True)
    time.sleep(3600)
sub_park()
"""

def run_in_subinterpreter(iid):
    interpreters.run_string(iid, SUB_CODE)

def main_park():
    time.sleep(3600)

if sys.argv[1:] == ["later"]:
    print("MAIN", flush=True)
    sys.stdin.readline()
iid = interpreters.create()
threading.Thread(target=run_in_subinterpreter, args=(iid,), daemon=True).start()
main_park()
