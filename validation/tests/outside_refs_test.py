"""Checks scripts/outside-refs.py on a made-up tree whose references are known.

usage: outside_refs_test.py OUTSIDE_REFS_PY WORK_DIR

The tree holds one line of each kind the checker must name (a source document
cited by number, a "specs" path, "the spec", an issue number, the GPU
machine's tool, "session" for a stretch of work, "../shared/..." and
"/work/shared/..." paths, a missing path of the tree in a C comment and in a
shell comment) and lines it must leave alone (the same words where they mean
something else: a random generator's seed constant, a process session with
setsid, a path that exists, a missing path in C code rather than in a comment,
a relative ../shared/ path that resolves, files under build/ and outputs/).
Expected: exit 1 and exactly the planted lines named as FILE:LINE; after the
planted lines are removed, exit 0.
"""
import os
import re
import shutil
import subprocess
import sys

from test_checks import check, finish

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

checker, work = sys.argv[1:3]
tree = os.path.join(work, "tree")
shutil.rmtree(work, ignore_errors=True)

# The words are assembled so that this file does not itself hold them.
SEED, ISSUE, TOOL, SESSION, SPECS = "se" + "ed", "iss" + "ue", "device " + "tool", "sess" + "ion", "spe" + "cs"

# file -> lines; a line ending in "  # FOUND" (stripped before writing) must be named.
FILES = {
    "docs/a.md": [
        "A plan as in %s 000 section 3.  # FOUND" % SEED,
        "The numerics are in %s/heat.md.  # FOUND" % SPECS,
        "Fixed in %s 16.  # FOUND" % ISSUE,
        "It runs in one call of the %s.  # FOUND" % TOOL,
        "The %ss that produced these figures.  # FOUND" % SESSION,
        "The report is in ../shared/gpu-runs/x/.  # FOUND",
        "The log is /work/shared/gpu-runs/x/pair.log.  # FOUND",
        "As the spec says.  # FOUND",
        "Each run is in a %s of its own (setsid)." % SESSION,
        "The generator starts from %s 1 (deck key `%s`)." % (SEED, SEED),
        "See docs/b.md and scripts/x.sh.",
    ],
    "docs/b.md": ["nothing here"],
    "scripts/x.sh": [
        "#!/bin/sh",
        "# Writes docs/nowhere.md.  # FOUND",
        "# Reads docs/b.md.",
        "echo docs/nowhere_in_code.md",
    ],
    "op2/backends/a/x.c": [
        "/* Hooks (op2/include/none.h).  # FOUND",
        " */",
        '#define TEST_LCG_%s 12345u' % SEED.upper(),
        'static const char *p = "docs/not_a_comment.md";',
        "/* the buffer of ../shared/y.c */",
    ],
    "op2/backends/shared/y.c": ["/* shared by the backends */"],
    "build/junk.txt": ["%s 000 in a build folder" % SEED],
    "outputs/junk.txt": ["%s 7 in an output" % ISSUE],
}

expected = set()
for name, lines in FILES.items():
    path = os.path.join(tree, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for i, line in enumerate(lines, 1):
            if line.endswith("  # FOUND"):
                expected.add("%s:%d" % (name, i))
                line = line[:-len("  # FOUND")]
            f.write(line + "\n")


def run():
    r = subprocess.run([sys.executable, checker, tree], capture_output=True, text=True)
    named = set(m.group(1) for m in re.finditer(r"^([\w./-]+:\d+):", r.stdout, re.M))
    return r, named


r, named = run()
print(r.stdout + r.stderr)
check(r.returncode == 1, "exit 1 with references planted (got %d)" % r.returncode)
for line in sorted(expected - named):
    check(False, "the planted reference at %s is named" % line)
for line in sorted(named - expected):
    check(False, "nothing is named at %s (not planted)" % line)

# Without the planted lines, nothing is found.
for name, lines in FILES.items():
    with open(os.path.join(tree, name), "w") as f:
        f.write("".join(l + "\n" for l in lines if not l.endswith("  # FOUND")))
r, named = run()
check(r.returncode == 0 and not named, "exit 0 on the tree without them (got %d: %s)"
      % (r.returncode, r.stdout.strip()))

finish("outside_refs_test")
