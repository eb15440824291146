#!/usr/bin/env python3
"""No shell pipeline of the project ends in a reader that stops early.

usage: pipe_readers_test.py SOURCE_DIR

`writer | head -1`, `| grep -q`, `| grep -m1`, `| awk '...; exit'` and
`| sed ...q` stop reading at their first match; a writer with more to say
then dies of SIGPIPE (status 141), and under `set -o pipefail` the whole
pipeline fails, or not, depending on timing: scripts/gpu-bundle.sh died so on
a GPU machine after passing here (`ldconfig -p | awk '...{print; exit}'`).
Readers that read everything (`sed -n 1p`, `grep -c ... >/dev/null`, awk
without exit) give the same answers without the race.

Scans every shell script (*.sh, or a bash/sh first line) and CMake file under
SOURCE_DIR (build trees and .git left out); prints each offending line; exit 1
when there is one, 0 when there is none.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

SKIP_DIRS = {".git", "build", "outputs", "node_modules"}

# A reader after a pipe (not ||) that can leave before its input ends.
EARLY = re.compile(
    r"(?<!\|)\|(?!\|)\s*(?:"
    r"head\b"                                            # head -N, head -c N
    r"|grep\b[^|]*?\s(?:-[a-zA-Z]*[qm][a-zA-Z0-9]*|--quiet|--silent|--max-count)\b"
    r"|awk\b[^|]*\bexit\b"                               # awk '...{...; exit}'
    r"|sed\b[^|]*(?:[;{}'\s]q\b|/q\b)"                   # sed '...;q', sed 1q
    r")")


def shell_like(path):
    if path.endswith((".sh", ".cmake")) or os.path.basename(path) == "CMakeLists.txt":
        return True
    try:
        with open(path, "rb") as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and (b"bash" in first or b"/sh" in first)


def logical_lines(text):
    """Lines with backslash continuations and trailing pipes joined, comments cut."""
    out, buf, start = [], "", 0
    for n, line in enumerate(text.splitlines(), 1):
        if not buf:
            start = n
        stripped = line.strip()
        if stripped.startswith("#"):
            if buf:
                continue
            continue
        buf += " " + stripped
        if buf.endswith("\\"):
            buf = buf[:-1]
            continue
        if buf.endswith("|") and not buf.endswith("||"):
            continue
        out.append((start, buf.strip()))
        buf = ""
    if buf:
        out.append((start, buf.strip()))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: pipe_readers_test.py SOURCE_DIR")
    root = sys.argv[1]
    found = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
        for name in sorted(files):
            path = os.path.join(d, name)
            if not shell_like(path):
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for n, line in logical_lines(text):
                if EARLY.search(line):
                    print(f"{os.path.relpath(path, root)}:{n}: a reader that stops early: {line}")
                    found += 1
    if found:
        print(f"pipe_readers_test: {found} pipeline(s) end in a reader that stops early "
              "(use sed -n 1p, grep -c >/dev/null, awk without exit)")
        return 1
    print("pipe_readers_test: no pipeline ends in a reader that stops early")
    return 0


if __name__ == "__main__":
    sys.exit(main())
