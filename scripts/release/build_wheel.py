"""Packs a staged release (runtime/, lib/, bin/, share/) into a Python wheel with a `remora` command.

usage: build_wheel.py STAGE VERSION OUT_DIR

The wheel holds the payload inside the `remora` package; its console script execs bin/remora, so
`pip install` / `pipx install` of the file works offline and needs no Java. Standard library only.
"""
import base64
import hashlib
import os
import stat
import sys
import zipfile

TAG = "py3-none-manylinux_2_17_x86_64"

INIT = '''"""Remora: reads a running CPython process from the outside and shows where its time goes."""
'''

MAIN = '''import os
import sys


def main():
    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "payload", "bin", "remora")
    os.execv(launcher, [launcher] + sys.argv[1:])


if __name__ == "__main__":
    main()
'''


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main(stage, version, out_dir):
    dist_info = f"remora-{version}.dist-info"
    path = os.path.join(out_dir, f"remora-{version}-{TAG}.whl")
    records = []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as wheel:
        def add(name, data, mode=0o644):
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
            records.append(record_line(name, data))

        add("remora/__init__.py", INIT.encode())
        add("remora/__main__.py", MAIN.encode())
        for directory, dirs, files in os.walk(stage):
            dirs.sort()
            for file in sorted(files):
                full = os.path.join(directory, file)
                if os.path.islink(full):
                    raise SystemExit(f"build_wheel: {full} is a link, which a wheel cannot hold")
                relative = os.path.relpath(full, stage)
                with open(full, "rb") as f:
                    data = f.read()
                executable = os.stat(full).st_mode & 0o111
                add(f"remora/payload/{relative}", data, 0o755 if executable else 0o644)
        add(f"{dist_info}/METADATA", (
            "Metadata-Version: 2.1\n"
            "Name: remora\n"
            f"Version: {version}\n"
            "Summary: Stack dumps and sampling profiles of running CPython 3.8-3.15 processes, read from the outside\n"
            "Requires-Python: >=3.8\n").encode())
        add(f"{dist_info}/WHEEL", (
            "Wheel-Version: 1.0\n"
            "Generator: remora scripts/release/build_wheel.py\n"
            "Root-Is-Purelib: false\n"
            f"Tag: {TAG}\n").encode())
        add(f"{dist_info}/entry_points.txt", b"[console_scripts]\nremora = remora.__main__:main\n")
        record = f"{dist_info}/RECORD"
        records.append(f"{record},,")
        wheel.writestr(zipfile.ZipInfo(record, date_time=(2026, 1, 1, 0, 0, 0)), "\n".join(records) + "\n")
    print(f"build_wheel: wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
