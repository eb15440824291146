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
blocks, which hold usage lines, sample output and listings. Every ```text
block says which it is, on the line before it, so that a sample of a program's
output is never taken for what today's program prints:
    <!-- doc-commands: listing: WHAT -->             usage lines, a file tree, a format
    <!-- doc-commands: sample COMMIT: COMMAND -->    output of COMMAND at COMMIT (a commit
                                                     of this repository's history)

Statements about the tree are checked too, where a program can:
  - every path of the tree named in the docs and the decks (docs/..., inputs/...,
    solvers/...: a token starting with a top-level folder) exists in
    the checkout, and every relative Markdown link leads to a file;
  - "`FILE` is N lines" (or "`FILE`, N lines") is within 5% of FILE's count;
  - a paragraph after <!-- doc-commands: labels --> names (in backticks) every
    ctest label of the build;
  - after the commands ran, every HDF5 file a run wrote into outputs/ (a folder
    with a result.json) is named by an .xmf beside it (ParaView opens it).

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
TEXT_KIND = re.compile(r"^(listing: \S.*|sample (?P<commit>[0-9a-f]{7,40}): \S.*)$")
FENCE = re.compile(r"^\s*```\s*([A-Za-z0-9_+-]*)")
COMMAND_LIKE = re.compile(r"^\s*(\$ )?(build/|scripts/|cmake |ctest |pvpython |python3 scripts/)")
TIMEOUT = 300


class Block:
    def __init__(self, path, line, directive):
        self.path, self.line, self.directive, self.commands = path, line, directive, []


def parse(path):
    """The ```sh blocks of a file, and the errors (commands outside them)."""
    blocks, errors, samples = [], [], []
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
            elif fence == "text":
                d = DIRECTIVE.match(last_nonblank)
                kind = TEXT_KIND.match(d.group(1)) if d else None
                if not kind:
                    errors.append("%s:%d: a ```text block without <!-- doc-commands: listing: WHAT --> or "
                                  "<!-- doc-commands: sample COMMIT: COMMAND --> on the line before it"
                                  % (os.path.relpath(path, ROOT), i))
                elif kind.group("commit"):
                    samples.append((i, kind.group("commit")))
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
    errors += check_sample_commits(path, samples)
    return blocks, errors


def check_sample_commits(path, samples):
    """A sample's commit must be one of this checkout's history (when git and
    the history are at hand: a shallow or exported tree is not judged)."""
    errors = []
    if not samples or not shutil.which("git"):
        return errors
    shallow = subprocess.run(["git", "-C", ROOT, "rev-parse", "--is-shallow-repository"],
                             capture_output=True, text=True)
    if shallow.returncode != 0 or shallow.stdout.strip() != "false":
        return errors
    for line, commit in samples:
        r = subprocess.run(["git", "-C", ROOT, "merge-base", "--is-ancestor", commit, "HEAD"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            errors.append("%s:%d: the sample's commit %s is not in this checkout's history"
                          % (os.path.relpath(path, ROOT), line, commit))
    return errors


# Tokens that name a path of the tree: a top-level folder, then more.
TREE_PATH = re.compile(r"(?<![\w./<>$-])("
                       r"(?:docs|scripts|solvers|op2|validation|inputs|meshes|tools)/[\w.-]+(?:/[\w.-]+)*/?)")
MD_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
LINE_COUNT = re.compile(r"`([\w./-]+\.\w+)`(?: is|,)? (?:about )?(\d+) lines")
LABELS = "<!-- doc-commands: labels -->"


def check_paths(path, lines):
    """Paths of the tree that do not exist, relative links that lead nowhere."""
    errors = []
    for i, text in enumerate(lines, 1):
        for m in TREE_PATH.finditer(text):
            token = m.group(1).rstrip(".")
            after = text[m.end():m.end() + 1]
            if after and after in "<*{[" or token.startswith("meshes/data"):
                continue  # a pattern (solvers/<name>/), or what runs generate
            if not os.path.exists(os.path.join(ROOT, token)):
                errors.append("%s:%d: '%s' is not in the checkout" % (os.path.relpath(path, ROOT), i, token))
        if path.endswith(".md"):
            for m in MD_LINK.finditer(text):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue
                if not os.path.exists(os.path.join(os.path.dirname(path), target)):
                    errors.append("%s:%d: the link '%s' leads to no file" % (os.path.relpath(path, ROOT), i, target))
    return errors


def check_line_counts(path, lines):
    errors = []
    for i, text in enumerate(lines, 1):
        for m in LINE_COUNT.finditer(text):
            f = os.path.join(ROOT, m.group(1))
            if not os.path.isfile(f):
                continue  # check_paths says so when it is a path of the tree
            with open(f, errors="replace") as fh:
                have = sum(1 for _ in fh)
            said = int(m.group(2))
            if abs(said - have) > 0.05 * have:
                errors.append("%s:%d: says %s is %d lines; it is %d" % (os.path.relpath(path, ROOT), i,
                                                                        m.group(1), said, have))
    return errors


def check_labels(path, lines, build):
    """Each paragraph marked as listing the ctest labels names every label of the build."""
    marks = [i for i, t in enumerate(lines) if t.strip() == LABELS]
    if not marks:
        return [], 0
    try:
        out = subprocess.run(["ctest", "--print-labels"], cwd=build, capture_output=True, text=True,
                             timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        return ["%s: cannot list the ctest labels of %s: %s" % (os.path.relpath(path, ROOT), build, e)], 0
    labels = [l.strip() for l in out.split("All Labels:")[-1].splitlines() if l.strip()]
    if "All Labels:" not in out or not labels:
        return ["%s: %s has no ctest labels (not a build tree?)" % (os.path.relpath(path, ROOT), build)], 0
    errors = []
    for i in marks:
        para = []
        for t in lines[i + 1:]:
            if not t.strip():
                break
            para.append(t)
        text = " ".join(para)
        named = set(re.findall(r"`([a-z]+)`", text)) | set(re.findall(r"`[^`]*-L ([a-z]+)[^`]*`", text))
        missing = [l for l in labels if l not in named]
        if missing:
            errors.append("%s:%d: the paragraph of ctest labels leaves out %s (the build's: %s)"
                          % (os.path.relpath(path, ROOT), i + 2, ", ".join(missing), " ".join(labels)))
    return errors, len(marks)


def check_outputs_described(work):
    """Every .h5 a run wrote under outputs/ is named by an .xmf beside it."""
    errors = []
    for d, _, names in os.walk(os.path.join(work, "outputs")):
        if "result.json" not in names:
            continue
        xmf_text = ""
        for n in names:
            if n.endswith(".xmf"):
                with open(os.path.join(d, n), errors="replace") as f:
                    xmf_text += f.read()
        for n in names:
            if n.endswith(".h5") and (n + ":/") not in xmf_text:
                errors.append("%s: no .xmf beside it names it (ParaView would not open it)"
                              % os.path.relpath(os.path.join(d, n), work))
    return errors


def tracked_decks():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "inputs/*.in"], capture_output=True, text=True)
    if out.returncode == 0 and out.stdout.split():
        return [os.path.join(ROOT, f) for f in out.stdout.split()]
    d = os.path.join(ROOT, "inputs")
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".in")) if os.path.isdir(d) else []


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
    # Statements about the tree (the decks too, when the whole set is checked).
    statements, labelled = [], 0
    for f in files + ([] if args.files else tracked_decks()):
        lines = open(f, encoding="utf-8", errors="replace").read().split("\n")
        statements += check_paths(f, lines) + check_line_counts(f, lines)
        if f.endswith(".md"):
            e, n = check_labels(f, lines, args.build)
            statements += e
            labelled += n
    print("doc-commands: statements checked: paths and links, line counts, %d paragraph(s) of ctest "
          "labels; %d wrong" % (labelled, len(statements)))
    errors += statements
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
    undescribed = check_outputs_described(args.work)
    for e in undescribed:
        print("ERROR " + e)
    errors += undescribed
    print("doc-commands: %d ran as documented, %d failed, %d skipped (reasons above), %d errors"
          % (counts["ran"], counts["failed"], counts["skipped"], len(errors)))
    sys.exit(1 if counts["failed"] or errors else 0)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    main()
