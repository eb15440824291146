"""Checks scripts/include-floors.py on a made-up tree whose includes are known.

usage: include_floors_test.py INCLUDE_FLOORS_PY WORK_DIR

The tree holds the includes the checker must refuse (a test of the library,
in op2/tests and in op2/mpi/tests, that includes a mesh generator's header
from meshes/) and includes it must allow (the same header from meshes/tests
and from validation/, the library's own headers from its tests, OP2's header
names from op2/include/op2compat). Expected: exit 1 and exactly the planted
lines named as FILE:LINE; after the planted lines are removed, exit 0.
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

# file -> lines; a line ending in "  # FOUND" (stripped before writing) must be named.
FILES = {
    "op2/include/op2.h": ["/* the API */"],
    "op2/include/op2compat/op_seq.h": ['#include "op2.h"'],
    "op2/mpi/op_mpi_mesh.h": ['#include "op2.h"'],
    "op2/testing/test_check.h": ["/* the checks */"],
    "meshes/grid.h": ['#include "op2.h"'],
    "op2/mpi/tests/t.c": [
        '#include "op_mpi_mesh.h"',
        '#include "test_check.h"',
        '#include "grid.h"  # FOUND',
    ],
    "op2/tests/u.c": [
        '#include "op_seq.h"',
        '#include "grid.h"  # FOUND',
    ],
    "meshes/tests/m.c": ['#include "grid.h"', '#include "test_check.h"'],
    "validation/v.c": ['#include "grid.h"', '#include "op_mpi_mesh.h"'],
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
check(r.returncode == 1, "exit 1 with climbs planted (got %d)" % r.returncode)
for line in sorted(expected - named):
    check(False, "the planted climb at %s is named" % line)
for line in sorted(named - expected):
    check(False, "nothing is named at %s (not planted)" % line)

# Without the planted lines, nothing is found.
for name, lines in FILES.items():
    with open(os.path.join(tree, name), "w") as f:
        f.write("".join(l + "\n" for l in lines if not l.endswith("  # FOUND")))
r, named = run()
check(r.returncode == 0 and not named, "exit 0 on the tree without them (got %d: %s)"
      % (r.returncode, r.stdout.strip()))

finish("include_floors_test")
