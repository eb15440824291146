#!/usr/bin/env python3
"""Finds references a reader of the repository cannot follow.

    scripts/outside-refs.py [SOURCE_DIR]

Walks every text file of SOURCE_DIR (default: the checkout this script is in;
build*/, outputs/, meshes/data/ and dot-folders are skipped) and reports, as
FILE:LINE, each line that points outside the repository:

  seed-number  a source document cited by its number ("seed" and three digits,
               "the seed"); cite the publication (author, title, year, section:
               docs/references.md) or a page of docs/ instead;
  specs        a path under a "specs" folder, which the repository does not have,
               or "the spec": the numerics are stated in docs/<solver>.md;
  issue        an issue cited by number ("issue" and a number): say what the
               change was, on which machine, commit and command;
  device-tool  the GPU machine's tool named as such: say what it is (the output
               folder $OUT of the command run on the GPU machine);
  session      "session" for a stretch of work: name the machine, the commit and
               the command. A POSIX process session is fine when the line says
               so (setsid, "process session" or "process group");
  outside-path a folder shared/ beside the checkout: a path "../shared/..." that
               does not resolve from the file's own folder, or "/work/shared/";
  missing-path in a comment of a source file (C, C++, CUDA, headers, CMake,
               shell, Python: its comments and docstrings), a path of the tree
               (docs/..., solvers/..., scripts/...) that does not exist, found
               by scripts/doc-commands.py's own path check, which does the same
               for the docs and the decks.

ALLOWED below lists the few files that may say so, each with its reason.

Exit status: 0 when nothing is found, 1 when something is (each named on
stdout), 2 on bad usage.
"""
import argparse
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

WORDS = [
    # "the seed" as a document; a random generator's seed ("the seed given",
    # "the seed '-1'") is another word.
    ("seed-number", re.compile(r"(?i)\bseeds? #?\d{3}\b|\bthe seeds?\b(?!\s+(?:given|['\"]))|"
                               r"\bseed's\b")),
    ("specs", re.compile(r"(?<![\w-])specs/|(?i:\bthe spec\b|\bspec's\b)")),
    ("issue", re.compile(r"(?i)\bissues? #?\d+\b")),
    ("device-tool", re.compile(r"(?i)\bdevice tool\b")),
    ("session", re.compile(r"(?i)\bsessions?\b")),
]
OUTSIDE_PATH = re.compile(r"(?<![\w./-])((?:\.\./)+shared/[\w.-]*(?:/[\w.-]+)*|/work/shared/\S*)")
# A line that says it means the operating system's process session.
PROCESS_SESSION = re.compile(r"(?i)\bsetsid\b|process session|process group")

# (file, kind, what matched, reason): lines of these files may match that kind
# (what matched: a regular expression of the whole match, None for any).
ALLOWED = [
    ("scripts/outside-refs.py", "*", None, "the checker's own description of what it looks for"),
    ("validation/tests/outside_refs_test.py", "*", None,
     "the test plants each kind of reference to see it found"),
    ("scripts/lib/op2_common.sh", "missing-path", r"op2/(src|Makefile)",
     "paths inside OP2-Common's checkout, which these scripts build"),
    ("validation/op2-common-apps.sh", "missing-path", r"op2/src",
     "a path inside OP2-Common's checkout, which the script builds"),
    ("validation/op2-common-bench.sh", "missing-path", r"op2/src",
     "a path inside OP2-Common's checkout, which the script builds"),
]

SKIP_DIRS = ("outputs", ".git")
SOURCE_EXT = (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp", ".cc", ".cmake", ".sh", ".py")


def load_doc_commands():
    """scripts/doc-commands.py as a module, for its check_paths."""
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("doc_commands",
                                                  os.path.join(ROOT, "scripts", "doc-commands.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def text_files(src):
    for d, dirs, names in os.walk(src):
        rel = os.path.relpath(d, src)
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and x not in SKIP_DIRS
                         and not (rel == "." and x.startswith("build"))
                         and not (rel == "meshes" and x == "data"))
        for n in sorted(names):
            path = os.path.join(d, n)
            if not os.path.isfile(path) or os.path.islink(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            if b"\0" in data[:8192]:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            yield os.path.normpath(os.path.join(rel, n)), text.split("\n")


def c_comments(lines):
    """The lines with only their comments kept (/* */ and //), strings skipped."""
    out, in_block = [], False
    for text in lines:
        kept, i, quote = [], 0, None
        while i < len(text):
            c = text[i]
            if in_block:
                end = text.find("*/", i)
                kept.append(text[i:] if end < 0 else text[i:end])
                if end < 0:
                    break
                in_block, i = False, end + 2
            elif quote:
                if c == "\\":
                    i += 2
                    continue
                if c == quote:
                    quote = None
                i += 1
            elif c in "\"'":
                quote, i = c, i + 1
            elif text.startswith("//", i):
                kept.append(text[i + 2:])
                break
            elif text.startswith("/*", i):
                in_block, i = True, i + 2
            else:
                i += 1
        out.append(" ".join(kept))
    return out


def hash_comments(lines, python):
    """The lines with only their # comments kept (and, for Python, docstrings)."""
    out, doc = [], None
    for text in lines:
        stripped = text.strip()
        if python and doc:
            out.append(text)
            if doc in stripped:
                doc = None
            continue
        if python and stripped[:3] in ('"""', "'''"):
            out.append(text)
            if stripped.count(stripped[:3]) == 1:
                doc = stripped[:3]
            continue
        m = re.search(r"(^|\s)#(.*)$", text)
        out.append(m.group(2) if m else "")
    return out


def comments(path, lines):
    if path.endswith((".c", ".h", ".cu", ".cuh", ".cpp", ".hpp", ".cc")):
        return c_comments(lines)
    return hash_comments(lines, path.endswith(".py"))


def is_source(path):
    return path.endswith(SOURCE_EXT) or os.path.basename(path) == "CMakeLists.txt"


def allowed(path, kind, what=None):
    return any(f == path and k in ("*", kind) and (token is None or
                                                  (what is not None and re.fullmatch(token, what)))
               for f, k, token, _ in ALLOWED)


def scan(src, doc_commands):
    found = []
    for path, lines in text_files(src):
        for i, text in enumerate(lines, 1):
            for kind, pattern in WORDS:
                m = pattern.search(text)
                if not m or allowed(path, kind):
                    continue
                if kind == "session" and PROCESS_SESSION.search(text):
                    continue
                found.append("%s:%d: %s: '%s' in: %s" % (path, i, kind, m.group(0), text.strip()[:120]))
            for m in OUTSIDE_PATH.finditer(text):
                p = m.group(1).rstrip(".")
                if p.startswith("/") or not os.path.exists(os.path.join(src, os.path.dirname(path), p)):
                    if not allowed(path, "outside-path", p):
                        found.append("%s:%d: outside-path: '%s' is not in the checkout" % (path, i, p))
        if is_source(path):
            # doc-commands checks paths against its own checkout: give it this one's.
            doc_commands.ROOT = src
            for e in doc_commands.check_paths(os.path.join(src, path), comments(path, lines)):
                token = re.search(r"'(.*)' is not in the checkout", e)
                if not allowed(path, "missing-path", token.group(1) if token else None):
                    found.append("%s (missing-path, in a comment)" % e)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                     usage="scripts/outside-refs.py [SOURCE_DIR]")
    parser.add_argument("source", nargs="?", default=ROOT, help="the tree to scan (default: this checkout)")
    args = parser.parse_args()
    src = os.path.abspath(args.source)
    if not os.path.isdir(src):
        print("outside-refs.py: %s: not a folder" % args.source, file=sys.stderr)
        return 2
    found = scan(src, load_doc_commands())
    for f in found:
        print(f)
    print("outside-refs: %d reference(s) a reader cannot follow" % len(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main())
