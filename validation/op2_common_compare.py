#!/usr/bin/env python3
"""Compares what an OP2-Common application printed (and dumped) when built
with this suite against what OP2-Common's own build printed for the same run.

    op2_common_compare.py KIND REF_DIR RUN_DIR [--rtol R [--atol A]]

KIND names the application's kind (airfoil, jac, reduction, aero, min, and
airfoil_mpi, jac_mpi, jac2_mpi for OP2's *_mpi.cpp sources against the build
of the source they were written from): it picks the lines that carry results (timing and diagnostics output differs between
the libraries and is skipped). KIND rms compares OP2's airfoil with the
suite's own airfoil solver (solvers/airfoil): the iterations and rms values
both print every 100 iterations, nothing else. Without --rtol the comparison is exact: the
result lines must be identical text and the dump files byte for byte. With
--rtol, every number must agree to that relative difference (integers that
name an element, such as airfoil's "at N", are reported but may differ: with
another order of rounding, a near tie may go to another element). With
--atol, numbers also agree when they differ by at most A: for results that
converge towards zero (aero's residuals), whose rounding differences stay at
the size of the first, largest ones.

Prints one line per difference and a summary; exit 0 when they agree, 1 when
not, 2 on bad input (a missing output, a different number of result lines).
"""
import argparse
import math
import os
import re
import sys

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")

# What each kind of application prints as results, the files it dumps (a
# name, or OP2-Common's name and this run's when they differ), and how many
# numbers of a result line count (None: all of them). The *_mpi kinds compare
# an OP2-Common *_mpi.cpp source's run with OP2-Common's build of the
# shared-memory source it was written from.
AIRFOIL_LINES = [r"^\s*\d+\s+\S+(, max err: \S+ at \d+)?\s*$", r"This test is considered"]
KINDS = {
    # Not the "within N % of the expected solution" line: it prints the rms's
    # last digits, which depend on how the reduction associates its additions
    # (the CPU backends add each element's four terms before adding them to
    # the total; OP2's reference adds them one by one). Its verdict is kept.
    "airfoil": (AIRFOIL_LINES, ["out_grid_seq.dat", "out_grid_seq.bin"], None),
    "airfoil_mpi": (AIRFOIL_LINES, [("out_grid_seq.dat", "out_grid_mpi.dat"),
                                    ("out_grid_seq.bin", "out_grid_mpi.bin")], None),
    "jac": ([r"u max/rms", r"^(\s+-?\d+\.\d{4})+\s*$"], ["out_grid.dat"], None),
    # jac_mpi.cpp prints each process's part of the solution with printf, not
    # the grid: the dump carries it.
    "jac_mpi": ([r"u max/rms"], [("out_grid.dat", "out_grid_mpi.dat")], None),
    # jac2's jac_mpi.cpp divides the rms by the process's own node count: u max only.
    "jac2_mpi": ([r"u max/rms"], [("out_grid.dat", "out_grid_mpi.dat")], 1),
    # "number of edges:: N should be: M" and its cells twin; not
    # reduction_mpi's "Global number of nodes, cells, ..." (the mesh's sizes).
    "reduction": ([r"^\s*number of (edges|cells)"], [], None),
    "aero": ([r"^\d+ \d+ \S+[eE][-+]\d+\s*$"], [], None),
    "min": ([r"^min: "], [], None),
    "rms": ([r"^\s*\d+\s+\d\.\d{5}e[-+]\d+\b"], [], 2),
}


def result_lines(path, patterns, first):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.exit(f"op2_common_compare: cannot read {path}: {e.strerror}")
    found = [l.strip() for l in lines if any(re.search(p, l) for p in patterns)]
    return [" ".join(NUMBER.findall(l)[:first]) for l in found] if first else found


def close(a, b, rtol, atol):
    if a == b:
        return True
    if math.isnan(a) or math.isnan(b):
        return False
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


# The largest relative difference seen (of values well above --atol, whose
# relative differences mean something), for the summary.
largest = [0.0]


def compare_numbers(where, ref, run, rtol, atol, location_words):
    """Differences between two texts' numbers, as messages."""
    a, b = NUMBER.findall(ref), NUMBER.findall(run)
    if len(a) != len(b):
        return [f"{where}: {len(a)} numbers in OP2-Common's output, {len(b)} here"]
    out = []
    # An integer right after "at" names an element (airfoil's errloc).
    located = {m.start() for m in re.finditer(r"(?<=\bat )\d+\b", ref)}
    positions = [m.start() for m in NUMBER.finditer(ref)]
    for k, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        fx, fy = float(x), float(y)
        if positions[k] in located:
            location_words.append(f"{where}: element {x} there, {y} here")
            continue
        size = max(abs(fx), abs(fy))
        rel = abs(fx - fy) / size if size else 0.0
        if size >= 1000 * atol:
            largest[0] = max(largest[0], rel)
        if rtol is None or not close(fx, fy, rtol, atol):
            out.append(f"{where}: {x} there, {y} here (relative difference {rel:.2e})")
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("ref_dir", help="the run of OP2-Common's own build (out.txt and dumps)")
    ap.add_argument("run_dir", help="the run of this suite's build")
    ap.add_argument("--rtol", type=float, default=None,
                    help="compare numbers to this relative difference (default: exact text)")
    ap.add_argument("--atol", type=float, default=0.0,
                    help="with --rtol: numbers also agree when this close")
    a = ap.parse_args(argv[1:])
    kind, ref_dir, run_dir, rtol = a.kind, a.ref_dir, a.run_dir, a.rtol
    patterns, dumps, first = KINDS[kind]
    ref = result_lines(os.path.join(ref_dir, "out.txt"), patterns, first)
    run = result_lines(os.path.join(run_dir, "out.txt"), patterns, first)
    if not ref:
        print(f"op2_common_compare: no result lines in {ref_dir}/out.txt")
        return 2
    if len(ref) != len(run):
        print(f"op2_common_compare: {len(ref)} result lines from OP2-Common, {len(run)} here")
        return 1
    problems, located = [], []
    for n, (x, y) in enumerate(zip(ref, run), 1):
        if rtol is None and x != y:
            problems.append(f"result line {n}: \"{x}\" there, \"{y}\" here")
        elif rtol is not None:
            problems += compare_numbers(f"result line {n}", x, y, rtol, a.atol, located)
    for dump in dumps:
        ref_name, name = dump if isinstance(dump, tuple) else (dump, dump)
        pa, pb = os.path.join(ref_dir, ref_name), os.path.join(run_dir, name)
        if not os.path.exists(pa):
            continue
        if not os.path.exists(pb):
            problems.append(f"{name}: {ref_name} written by OP2-Common's build, {name} missing here")
            continue
        with open(pa, "rb") as f:
            da = f.read()
        with open(pb, "rb") as f:
            db = f.read()
        if da == db:
            continue
        if rtol is None or name.endswith(".bin"):
            if rtol is None:
                problems.append(f"{name}: the files differ")
            continue
        problems += compare_numbers(name, da.decode(), db.decode(), rtol, a.atol, located)[:5]
    for p in problems[:20]:
        print("  " + p)
    for p in located[:5]:
        print("  (not a failure) " + p)
    mode = "identical" if rtol is None else f"within {rtol:g}, largest {largest[0]:.1e}"
    skipped = f", or {a.atol:g} apart" if a.atol else ""
    print(f"{len(ref)} result lines{' and dumps' if dumps else ''}: "
          f"{'agree' if not problems else 'DIFFER'} ({mode}{skipped})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
