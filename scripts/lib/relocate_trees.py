#!/usr/bin/env python3
"""Makes the build trees of a GPU bundle (scripts/gpu-bundle.sh) name the
folder they were unpacked in, instead of the one they were built in.

    relocate_trees.py ROOT

ROOT/build/bundle-paths lists, a line each, an absolute path of the build
machine and, after a tab, what it is in the bundle relative to ROOT: each
build tree (/home/me/suite/build/portable -> build/portable) and the
checkout (/home/me/suite -> .). The trees' test files (CTestTestfile.cmake)
and the other text files written at configure time name those paths; each
becomes the path under ROOT here, the longest first, and only as a whole path
(/a/suite does not match inside /a/suite2). Executables are left as they are:
they find their libraries through an RPATH relative to themselves.

Files are rewritten through a temporary file and a rename; bundle-paths then
names this machine's paths, so that a second run changes nothing. Prints how
many files changed; exit 0, or 2 on bad input.
"""
import os
import re
import sys
import tempfile

BIG = 4 << 20  # configure-time text files are small; larger ones are data


def read_paths(path):
    pairs = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line:
                    continue
                parts = line.split("\t")
                if len(parts) != 2 or not parts[0].startswith("/") or parts[1].startswith("/"):
                    raise ValueError(f"{path}:{n}: expected 'ABSOLUTE<TAB>RELATIVE', got '{line}'")
                pairs.append((parts[0].rstrip("/") or "/", os.path.normpath(parts[1])))
    except OSError as e:
        raise ValueError(f"{path}: cannot read: {e.strerror}") from None
    if not pairs:
        raise ValueError(f"{path}: no paths")
    return pairs


def text_file(path):
    try:
        if os.path.islink(path) or os.path.getsize(path) > BIG:
            return False
        with open(path, "rb") as f:
            head = f.read(8192)
    except OSError:
        return False
    return b"\0" not in head and not head.startswith(b"\x7fELF")


def rewrite(path, pattern, new_of):
    with open(path, "rb") as f:
        data = f.read()
    out = pattern.sub(lambda m: new_of[m.group(1).decode()].encode(), data)
    if out == data:
        return False
    st = os.stat(path)
    fd, tmp = tempfile.mkstemp(prefix=".reloc-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(out)
        os.chmod(tmp, st.st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return True


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip().replace("    relocate_trees.py ROOT", "usage: relocate_trees.py ROOT"))
        return 0
    if len(argv) != 2:
        print("usage: relocate_trees.py ROOT", file=sys.stderr)
        return 2
    root = os.path.realpath(argv[1])
    listing = os.path.join(root, "build", "bundle-paths")
    try:
        pairs = read_paths(listing)
    except ValueError as e:
        print(f"relocate_trees: {e}", file=sys.stderr)
        return 2
    new_of = {old: os.path.normpath(os.path.join(root, rel)) for old, rel in pairs}
    todo = {old: new for old, new in new_of.items() if old != new}
    changed = 0
    if todo:
        olds = sorted(todo, key=len, reverse=True)
        pattern = re.compile(b"(" + b"|".join(re.escape(o.encode()) for o in olds) +
                             rb")(?![A-Za-z0-9_.+-])")
        for _, rel in pairs:
            tree = os.path.join(root, rel)
            if rel == "." or not os.path.isdir(tree):
                continue
            for d, _, files in os.walk(tree):
                for name in files:
                    p = os.path.join(d, name)
                    if text_file(p) and rewrite(p, pattern, todo):
                        changed += 1
        fd, tmp = tempfile.mkstemp(prefix=".reloc-", dir=os.path.dirname(listing))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for old, rel in pairs:
                f.write(f"{new_of[old]}\t{rel}\n")
        os.replace(tmp, listing)
    print(f"relocate_trees: {changed} file(s) now name {root}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "."))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
