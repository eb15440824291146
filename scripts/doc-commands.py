#!/usr/bin/env python3
"""Runs every command the docs show, so that the docs keep working.

    scripts/doc-commands.py [--list] [--build BUILD_DIR] [--work DIR] [FILE.md ...]

The commands are the lines of the ```sh blocks of the Markdown files (by
default every *.md that git tracks), one command per line (a line ending in a
backslash continues on the next). Each block runs in document order, from a
scratch copy of the source tree (WORK_DIR: symbolic links to the top-level
entries, build/release linked to BUILD_DIR, empty outputs/ and meshes/data/), so
a command may use what an earlier one of the same file wrote there.

An HTML comment on the line before a block says how to treat it:
    <!-- doc-commands: skip gpu: REASON -->          needs a GPU
    <!-- doc-commands: skip long: REASON -->         minutes of work (say which test covers it)
    <!-- doc-commands: skip illustrative: REASON --> placeholders, not a runnable command
    <!-- doc-commands: exit N -->                    must exit with status N (default 0)
Skipped commands are listed as skipped, with their reason, never silently;
so are commands whose program is not installed, and those that exit 77 (the
suite's "a tool I need is missing", e.g. scripts/plots.sh without gnuplot).
A command-like line (build/..., scripts/..., cmake ...) inside another kind of
code block is an error (a command the test would not see), except in ```text
blocks, which hold usage lines, sample output and listings.

Exit status: 0 when every command that runs exits as expected, 1 otherwise,
2 on bad usage.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRECTIVE = re.compile(r"^<!--\s*doc-commands:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^\s*```\s*([A-Za-z0-9_+-]*)")
COMMAND_LIKE = re.compile(r"^\s*(\$ )?(build/|scripts/|cmake |ctest |pvpython |python3 scripts/)")
TIMEOUT = 300


class Block:
    def __init__(self, path, line, directive):
        self.path, self.line, self.directive, self.commands = path, line, directive, []


def parse(path):
    """The ```sh blocks of a file, and the errors (commands outside them)."""
    blocks, errors = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    fence, block, last_nonblank = None, None, ""
    pending = ""
    for i, text in enumerate(lines, 1):
        m = FENCE.match(text)
        if m and fence is None:
            fence = m.group(1) or "plain"
            if fence == "sh":
                d = DIRECTIVE.match(last_nonblank)
                block = Block(path, i, d.group(1) if d else "")
                blocks.append(block)
            continue
        if m and fence is not None:
            if pending:
                errors.append("%s:%d: the block ends inside a continued command" % (path, i))
            fence, block, pending = None, None, ""
            continue
        if fence == "sh":
            stripped = text.strip()
            if pending or (stripped and not stripped.startswith("#")):
                cmd = pending + text.strip()
                if cmd.endswith("\\"):
                    pending = cmd[:-1] + " "
                else:
                    block.commands.append((i, cmd))
                    pending = ""
        elif COMMAND_LIKE.match(text) and (fence not in (None, "text") or
                                           (fence is None and text.startswith("    "))):
            errors.append("%s:%d: a command outside a ```sh block (the test would not run it): %s"
                          % (os.path.relpath(path, ROOT), i, text.strip()))
        if text.strip():
            last_nonblank = text.strip()
    return blocks, errors


def tracked_markdown():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "*.md"], capture_output=True, text=True)
    files = [os.path.join(ROOT, f) for f in out.stdout.split()] if out.returncode == 0 else []
    if not files:  # not a git checkout: every .md outside build/
        for d, dirs, names in os.walk(ROOT):
            dirs[:] = [x for x in dirs if x not in ("build", ".git", "outputs")]
            files += [os.path.join(d, n) for n in names if n.endswith(".md")]
    return sorted(files)


def scratch_tree(work, build):
    """WORK: links to the top-level entries of the source tree, build/release
    to the build, and an empty outputs/ (what the commands write)."""
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(os.path.join(work, "build"))
    os.makedirs(os.path.join(work, "outputs"))
    for name in os.listdir(ROOT):
        if name in ("build", "outputs", "meshes") or name.startswith("."):
            continue
        os.symlink(os.path.join(ROOT, name), os.path.join(work, name))
    # meshes/data (generated meshes) is the commands' own too.
    os.makedirs(os.path.join(work, "meshes", "data"))
    for name in os.listdir(os.path.join(ROOT, "meshes")):
        if name != "data":
            os.symlink(os.path.join(ROOT, "meshes", name), os.path.join(work, "meshes", name))
    os.symlink(os.path.abspath(build), os.path.join(work, "build", "release"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="store_true", help="list the commands and how each is treated; run nothing")
    p.add_argument("--build", default=os.path.join(ROOT, "build", "release"))
    p.add_argument("--work", default=os.path.join(ROOT, "build", "doc-commands"))
    p.add_argument("files", nargs="*")
    args = p.parse_args()
    files = [os.path.abspath(f) for f in args.files] or tracked_markdown()

    blocks, errors = [], []
    for f in files:
        b, e = parse(f)
        blocks += b
        errors += e
    for e in errors:
        print("ERROR " + e)
    if not args.list:
        scratch_tree(args.work, args.build)
    counts = {"ran": 0, "skipped": 0, "failed": 0}
    for b in blocks:
        where = "%s:%d" % (os.path.relpath(b.path, ROOT), b.line)
        skip = re.match(r"skip\s+(gpu|long|illustrative)\s*:\s*(.+)", b.directive)
        want = 0
        m = re.match(r"exit\s+(\d+)$", b.directive)
        if m:
            want = int(m.group(1))
        elif b.directive and not skip:
            print("ERROR %s: unknown doc-commands directive '%s'" % (where, b.directive))
            errors.append(where)
        for line, cmd in b.commands:
            at = "%s:%d" % (os.path.relpath(b.path, ROOT), line)
            if skip:
                print("SKIP  %s (%s: %s): %s" % (at, skip.group(1), skip.group(2), cmd))
                counts["skipped"] += 1
                continue
            tool = cmd.split()[0]
            if "/" not in tool and "=" not in tool and shutil.which(tool) is None:
                print("SKIP  %s (tool missing: %s is not installed; scripts/install-deps.sh installs it): %s"
                      % (at, tool, cmd))
                counts["skipped"] += 1
                continue
            if args.list:
                print("RUN   %s%s: %s" % (at, " (exit %d)" % want if want else "", cmd))
                continue
            t0 = time.time()
            try:
                r = subprocess.run(["bash", "-c", cmd], cwd=args.work, capture_output=True, text=True,
                                   timeout=TIMEOUT)
                rc, out = r.returncode, r.stdout + r.stderr
            except subprocess.TimeoutExpired as e:
                rc, out = "timeout after %d s" % TIMEOUT, (e.stdout or b"").decode(errors="replace")
            if rc == 77 and want != 77:
                counts["skipped"] += 1
                print("SKIP  %s (exit 77: the command says a tool it needs is missing): %s" % (at, cmd))
            elif rc == want:
                counts["ran"] += 1
                print("OK    %s (%.1f s): %s" % (at, time.time() - t0, cmd))
            else:
                counts["failed"] += 1
                print("FAIL  %s: exit %s, expected %d: %s" % (at, rc, want, cmd))
                print("      " + "\n      ".join(out.strip().split("\n")[-15:]))
    if args.list:
        sys.exit(1 if errors else 0)
    print("doc-commands: %d ran as documented, %d failed, %d skipped (reasons above), %d errors"
          % (counts["ran"], counts["failed"], counts["skipped"], len(errors)))
    sys.exit(1 if counts["failed"] or errors else 0)


main()
