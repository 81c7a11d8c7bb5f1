# Feeds the samples of a Remora test profile to CPython 3.15's own profiler collectors, so that
# their output can be compared with Remora's writers on the very same stacks.
#
# argv[1]: a JSON spec {"interval_usec", "cpu_mode", "samples": [{"tid", "frames": [{"file", "func",
# "loc": [line, end_line, col, end_col] | null}, ...innermost first]}], "tables": [[sort, limit,
# summary], ...], "pstats_out", "collapsed_out"}. Prints each requested table after a line
# "=== table"; writes the pstats and collapsed files where asked.
import collections
import contextlib
import io
import json
import sys

from profiling.sampling.constants import PROFILING_MODE_CPU
from profiling.sampling.pstats_collector import PstatsCollector
from profiling.sampling.stack_collector import CollapsedStackCollector

Frame = collections.namedtuple("Frame", "filename location funcname opcode")

with open(sys.argv[1], encoding="utf-8") as f:
    spec = json.load(f)

pstats_collector = PstatsCollector(spec["interval_usec"])
collapsed_collector = CollapsedStackCollector(spec["interval_usec"])
for sample in spec["samples"]:
    frames = [Frame(f["file"], None if f["loc"] is None else tuple(f["loc"]), f["func"], None)
              for f in sample["frames"]]
    pstats_collector._process_frames(frames)
    collapsed_collector.process_frames(frames, sample["tid"])

with contextlib.redirect_stdout(io.StringIO()):
    pstats_collector.export(spec["pstats_out"])
    collapsed_collector.export(spec["collapsed_out"])

mode = PROFILING_MODE_CPU if spec["cpu_mode"] else None
for sort, limit, summary in spec["tables"]:
    print("=== table")
    pstats_collector.print_stats(sort, limit, summary, mode)
