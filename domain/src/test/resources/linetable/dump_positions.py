"""Oracle for the line-table conformance test.

Compiles every .py file of this interpreter's standard library and writes, for
each code object reachable through co_consts, its co_firstlineno, co_linetable
(co_lnotab before 3.10) and co_positions() (lines alone before 3.11). Files that do not compile are skipped (the test suite holds
deliberately broken ones).

Usage: python -I -c "<this script>" [SHARD SHARDS]
Handles only the files whose index in sorted order is SHARD modulo SHARDS, so
that several processes can share the work (default: 0 1, every file).

Output goes to stdout, big-endian:
  b"RLTD", u16 length + interpreter version (utf-8)
  then records, each led by a tag byte:
    b"F"  source file: u32 length + path
    b"C"  code object of the latest file:
          i32 co_firstlineno, u16 length + qualname,
          u32 length + co_linetable,
          u32 instruction count (length of co_positions()),
          u32 run count, then per run of equal consecutive positions:
          u32 repeat, u8 absent mask (bit i: field i is None, its i32 is 0),
          4 x i32 (line, end_line, column, end_column)
    b"E"  end: u32 files compiled, u32 files skipped, u32 code objects
"""
import itertools
import os
import struct
import sys
import sysconfig
import warnings

CODE_TYPE = type(compile("", "", "exec"))
RUN = struct.Struct(">IB4i")


def text(value, width):
    data = value.encode("utf-8", "surrogateescape")
    return struct.pack(">" + width, len(data)) + data


def encode_run(repeat, position):
    line, end_line, column, end_column = position
    mask = ((line is None) | (end_line is None) << 1
            | (column is None) << 2 | (end_column is None) << 3)
    return RUN.pack(repeat, mask, line or 0, end_line or 0, column or 0, end_column or 0)


def positions(code):
    """co_positions(), or on 3.10 (which has none) the line of each code unit from co_lines(), or on
    3.8 and 3.9 (which have neither) the line of each code unit from dis.findlinestarts()."""
    if hasattr(code, "co_positions"):
        return code.co_positions()
    lines = [None] * (len(code.co_code) // 2)
    if hasattr(code, "co_lines"):
        for start, end, line in code.co_lines():
            for unit in range(start // 2, min(end // 2, len(lines))):
                lines[unit] = line
    else:
        import dis
        starts = list(dis.findlinestarts(code))  # (offset, line), in offset order
        for index, (start, line) in enumerate(starts):
            end = starts[index + 1][0] if index + 1 < len(starts) else len(code.co_code)
            for unit in range(start // 2, min(end // 2, len(lines))):
                lines[unit] = line
    return [(line, None, None, None) for line in lines]


def line_table(code):
    """co_linetable, or co_lnotab where there is none (3.8, 3.9)."""
    return code.co_linetable if hasattr(code, "co_linetable") else code.co_lnotab


def encode_code(code):
    runs = []
    instructions = 0
    for position, group in itertools.groupby(positions(code)):
        repeat = sum(1 for _ in group)
        runs.append(encode_run(repeat, position))
        instructions += repeat
    return b"".join([
        b"C",
        struct.pack(">i", code.co_firstlineno),
        text(getattr(code, "co_qualname", code.co_name), "H"),
        struct.pack(">I", len(line_table(code))),
        line_table(code),
        struct.pack(">II", instructions, len(runs)),
    ] + runs)


def code_objects(root):
    pending = [root]
    while pending:
        code = pending.pop()
        yield code
        pending.extend(c for c in code.co_consts if isinstance(c, CODE_TYPE))


def source_files(stdlib):
    for directory, subdirectories, files in os.walk(stdlib):
        # Installed packages are not the standard library, and vary from machine to machine.
        subdirectories[:] = sorted(d for d in subdirectories if d not in ("site-packages", "dist-packages"))
        for name in sorted(files):
            if name.endswith(".py"):
                yield os.path.join(directory, name)


def main(shard, shards):
    warnings.simplefilter("ignore")
    out = sys.stdout.buffer
    out.write(b"RLTD" + text(sys.version.split()[0], "H"))
    compiled = skipped = codes = 0
    for index, path in enumerate(source_files(sysconfig.get_paths()["stdlib"])):
        if index % shards != shard:
            continue
        try:
            with open(path, "rb") as source:
                module = compile(source.read(), path, "exec", dont_inherit=True)
        except Exception:  # SyntaxError, ValueError, RecursionError, MemoryError...
            skipped += 1
            continue
        compiled += 1
        out.write(b"F" + text(path, "I"))
        for code in code_objects(module):
            out.write(encode_code(code))
            codes += 1
    out.write(b"E" + struct.pack(">III", compiled, skipped, codes))
    out.flush()


if __name__ == "__main__":
    main(*(map(int, sys.argv[1:3]) if len(sys.argv) >= 3 else (0, 1)))
