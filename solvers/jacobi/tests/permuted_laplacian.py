#!/usr/bin/env python3
"""usage: permuted_laplacian.py N SEED OUT.mtx

Writes the shifted 2D five-point Laplacian of an N x N grid (4.4 on the diagonal, -1 between
grid neighbours: strictly diagonally dominant) as a symmetric Matrix Market file whose unknowns
are numbered in a random order drawn from SEED (0: the grid's own row order). A matrix in a
poor order, for jacobi's renumber key (docs/performance.md, "Renumbering from any order").
Exit 0, 2 on bad usage."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)
if len(sys.argv) != 4 or not sys.argv[1].isdigit() or not sys.argv[2].isdigit() or int(sys.argv[1]) < 2:
    print(__doc__.splitlines()[0], file=sys.stderr)
    sys.exit(2)
n, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
number = list(range(n * n))  # grid point -> unknown
if seed:
    random.Random(seed).shuffle(number)
entries = []
for i in range(n):
    for j in range(n):
        p = number[i * n + j]
        entries.append((p, p, 4.4))
        for q in ([number[(i - 1) * n + j]] if i else []) + ([number[i * n + j - 1]] if j else []):
            entries.append((max(p, q), min(p, q), -1.0))
tmp = out + ".tmp"
os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
with open(tmp, "w") as f:
    f.write("%%MatrixMarket matrix coordinate real symmetric\n")
    f.write(f"% shifted 2D Laplacian, {n} x {n} grid, unknowns in the order of seed {seed}\n")
    f.write(f"{n * n} {n * n} {len(entries)}\n")
    for r, c, v in entries:
        f.write(f"{r + 1} {c + 1} {v}\n")
os.replace(tmp, out)
