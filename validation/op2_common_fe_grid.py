#!/usr/bin/env python3
"""Writes the finite-element grid OP2's aero application reads (FE_grid.dat)
from a C-mesh in new_grid.dat format (build/release/meshes/naca_cmesh):

usage: op2_common_fe_grid.py NEW_GRID FE_GRID

FE_grid.dat: "nnode ncell nbnode", then nnode lines "x y", ncell lines of
four node indices, and nbnode lines of one node index each: the nodes where
aero holds the potential fixed (Dirichlet). aero's bilinear element numbers
its nodes as a tensor product, (0,0) (1,0) (0,1) (1,1), where the C-mesh goes
round the quadrilateral: the last two are swapped.

The C-mesh has two rows of nodes along the wake, one for each side, at the
same coordinates. A potential-flow finite-element problem with that slit has
no unique solution (any jump across it, a circulation, is allowed), so the
nodes at the same place are merged into one. The far-field nodes (on boundary
edges of flag 2) are the Dirichlet nodes; the aerofoil surface is left free
(a wall). Written to FE_GRID.tmp, then renamed.
"""
import os
import sys


def main(argv):
    if argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    src, dst = argv[1], argv[2]
    with open(src) as f:
        lines = f.read().splitlines()
    try:
        nnode, ncell, nedge, nbedge = map(int, lines[0].split())
        coords = [lines[1 + n].split() for n in range(nnode)]
        cells = [list(map(int, lines[1 + nnode + c].split())) for c in range(ncell)]
        first_bedge = 1 + nnode + ncell + nedge
        bedges = [list(map(int, lines[first_bedge + b].split())) for b in range(nbedge)]
    except (ValueError, IndexError) as e:
        print(f"op2_common_fe_grid: {src} is not a new_grid.dat mesh ({e})", file=sys.stderr)
        return 2
    # One node per distinct position (as written: the same rounding).
    renum, kept, where = {}, [], []
    for xy in coords:
        key = (float(xy[0]), float(xy[1]))  # -0.000000 and 0.000000 are one place
        if key not in renum:
            renum[key] = len(kept)
            kept.append(xy)
        where.append(renum[key])
    far = []
    for n1, n2, _, flag in bedges:
        if flag == 2:
            for n in (where[n1], where[n2]):
                far.append(n)
    far = sorted(set(far))
    out = [f"{len(kept)} {ncell} {len(far)}"]
    out += [f"{x} {y}" for x, y in kept]
    out += [" ".join(str(where[c[k]]) for k in (0, 1, 3, 2)) for c in cells]
    out += [str(n) for n in far]
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, dst)
    print(f"{dst}: {len(kept)} nodes ({nnode - len(kept)} merged along the wake), "
          f"{ncell} cells, {len(far)} far-field nodes")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
