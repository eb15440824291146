#!/usr/bin/env python3
"""The floors of the tree (docs/developing.md, "The map of the house"): every
#include "..." of the project's C, C++ and CUDA sources is resolved to the
header it names, and the folder of the includer must be allowed to use the
folder of the header. Exit 0 when every include keeps to the floors, 1 with
each crossing named (file:line, the header, the rule broken).

usage: scripts/include-floors.py [ROOT] [--list]

  ROOT    the checkout (default: this script's)
  --list  print every pair of folders that an include joins, with counts
"""
import collections
import os
import re
import sys

TOPS = ["op2", "meshes", "solvers", "tools", "validation"]
SOURCE = (".c", ".h", ".cu", ".cuh", ".cpp", ".hpp")
HEADER = (".h", ".cuh", ".hpp")
LIBRARY = ["op2/text", "op2/include", "op2/core", "op2/io", "op2/backends", "op2/mpi",
           "op2/generator"]

# Which floors each floor may include from (besides its own). The library
# goes up from op2/text; the core reaches backends and MPI only through
# hooks; nothing in the library includes a mesh, a solver or a tool.
ALLOWED = {
    "op2/text": [],
    # The checks every test includes (test_check.h): nothing of the project.
    "op2/testing": [],
    # include/ is the whole public surface (installed as it is): the API the
    # core implements, what generated loop code includes, and OP2's own
    # header names, which declare the HDF5 I/O as OP2's do. It never reaches
    # the core's private headers.
    "op2/include": ["op2/text", "op2/io"],
    "op2/core": ["op2/text", "op2/include"],
    "op2/io": ["op2/text", "op2/include", "op2/core"],
    "op2/backends": ["op2/text", "op2/include", "op2/core", "op2/io"],
    "op2/mpi": ["op2/text", "op2/include", "op2/core", "op2/io"],
    "op2/generator": ["op2/text"],
    # The library's tests (op2/tests, op2/*/tests) are programs on it: any
    # part of it, nothing above it. A test that needs a mesh generator's code
    # belongs a floor up (meshes/tests, validation/).
    "op2/tests": LIBRARY + ["op2/testing"],
    "meshes": ["op2/text", "op2/include", "op2/io"],
    # The applications, as an installed OP2's would be: the public surface
    # (op2/include), never the core's private headers.
    "solvers": ["op2/text", "op2/include", "op2/io", "meshes"],
    "tools": LIBRARY + ["meshes"],
    "validation": LIBRARY + ["op2/tests", "meshes", "solvers", "tools"],
}
# A folder's tests (<floor>/.../tests/) may use what the folder may, the
# folder itself and the tests' checks; only tests include op2/testing.
for _top in ("meshes", "solvers", "validation"):
    ALLOWED[_top + "/tests"] = ALLOWED[_top] + [_top, "op2/testing"]


def floor(path):
    """The floor of a file, by its folder."""
    parts = path.split("/")
    if "tests" in parts[1:-1]:
        return parts[0] + "/tests"
    if parts[0] == "op2":
        return "op2/" + parts[1] if len(parts) > 2 else "op2"
    return parts[0]


def backend(path):
    parts = path.split("/")
    return parts[2] if len(parts) > 3 and parts[:2] == ["op2", "backends"] else None


def solver(path):
    parts = path.split("/")
    return parts[1] if parts[0] == "solvers" and len(parts) > 2 else None


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__.strip())
        return 0
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    headers = collections.defaultdict(list)
    sources = []
    for top in TOPS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if d not in ("corpus",)]
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                if f.endswith(HEADER):
                    headers[f].append(rel)
                if f.endswith(SOURCE):
                    sources.append(rel)
    if not sources:
        print(f"include-floors: no sources under {root}", file=sys.stderr)
        return 2
    crossings, pairs = [], collections.Counter()
    pattern = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for src in sorted(sources):
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
        for n, line in enumerate(lines, 1):
            m = pattern.match(line)
            if not m:
                continue
            name = m.group(1)
            # A path relative to the includer first, then the header of that
            # name wherever it is (the include directories are flat).
            near = os.path.normpath(os.path.join(os.path.dirname(src), name)).replace(os.sep, "/")
            if os.path.exists(os.path.join(root, near)):
                target = near
            else:
                found = headers.get(os.path.basename(name), [])
                if not found:
                    continue  # generated, or a system header in quotes
                same = [h for h in found if os.path.dirname(h) == os.path.dirname(src)]
                target = (same or found)[0]
            a, b = floor(src), floor(target)
            pairs[(a, b)] += 1
            # Within the solvers (their tests too), each keeps to its own
            # folder and solvers/common.
            if ({a, b} <= {"solvers", "solvers/tests"}
                    and solver(target) not in (solver(src), "common")):
                crossings.append(f"{src}:{n}: includes {target}: a solver includes "
                                 f"another solver's file (shared code goes to solvers/common)")
            if a == b:
                # Within the backends, each keeps to its own folder.
                if a == "op2/backends" and backend(target) not in (backend(src), "shared"):
                    crossings.append(f"{src}:{n}: includes {target}: one backend includes "
                                     f"another's file (host code backends share goes to op2/backends/shared)")
                continue
            if b not in ALLOWED.get(a, []):
                crossings.append(f"{src}:{n}: includes {target}: {a} may not include from {b}")
    if listing:
        for (a, b), count in sorted(pairs.items()):
            print(f"{a:16s} -> {b:16s} {count}")
    for c in crossings:
        print(c)
    print(f"include-floors: {len(sources)} files, {sum(pairs.values())} includes of the project's "
          f"headers, {len(crossings)} crossing a floor the wrong way")
    return 1 if crossings else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv[1:]))
