#!/usr/bin/env python3
"""The CPU targets of docs/performance.md, from the runs of scripts/cpu-targets.sh.

    cpu_targets.py DIR [--note TEXT] [--docs PAGE]

DIR holds copy-1.txt and copy-N.txt (op2-cpu-bandwidth's line, 1 and N
threads), and one directory per run, each with result.json and cmd.txt:
airfoil-seq, airfoil-openmp, airfoil-seq-renumber, airfoil-openmp-renumber,
heat-seq, heat-openmp, jacobi-seq, jacobi-openmp, euler-seq, euler-openmp
(a missing run is reported as such). Every floor is bytes over the copy
bandwidth measured in the same run with the run's own number of threads:

  airfoil   each loop and the iterations as a whole: OP2's byte count of the
            loop (each dat element once, twice when read and written, plus
            its map entries) over the copy bandwidth; target <= 1.5x
  heat      a step against 16 bytes a point (read u, write u); target <= 2x
  jacobi    dense res against streaming the matrix once (8 bytes an edge);
            target <= 1.5x
  set-up    everything before the solve (mesh, maps, plans, first touch)
            against the solve; target <= 1x
  euler     face fluxes per second (flux_x and flux_y): reported, the
            target (twice the 33 M a second on seq before the flux work of docs/performance.md, "Euler's face fluxes") is judged
            by hand against the figure recorded in docs/performance.md

Prints the Markdown section (and, with --docs, writes it into PAGE between
the markers "<!-- scripts/cpu-targets.sh: begin -->" and "... end -->").
Exit 0 when every target is met, 1 when one is not, 2 on bad input.
"""
import argparse
import json
import os
import re
import sys

from result_files import ResultError, load_result, loop_table, md_table, replace_between_markers

BEGIN = "<!-- scripts/cpu-targets.sh: begin -->"
END = "<!-- scripts/cpu-targets.sh: end -->"
AIRFOIL_LOOPS = ("save_soln", "adt_calc", "res_calc", "bres_calc", "update")
LOOP_TARGET, HEAT_TARGET, JACOBI_TARGET, SETUP_TARGET = 1.5, 2.0, 1.5, 1.0


def copy_gbs(path):
    """The GB/s of op2-cpu-bandwidth's line in path."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ResultError(f"{path}: {e.strerror}") from None
    m = re.search(r"copy: (\d+) thread\(s\).*?([0-9.]+) GB/s", text)
    if not m or not float(m.group(2)) > 0:
        raise ResultError(f"{path}: no copy bandwidth line")
    return int(m.group(1)), float(m.group(2))


def run(dir_, name):
    """(result, command) of a run, or (None, why) when it is missing."""
    path = os.path.join(dir_, name, "result.json")
    if not os.path.exists(path):
        return None, "no result.json (the run failed or was not made)"
    try:
        cmd = open(os.path.join(dir_, name, "cmd.txt"), encoding="utf-8").read().strip()
    except OSError:
        cmd = ""
    return load_result(path), cmd


def verdict(ratio, target):
    return "met" if ratio <= target else "NOT MET"


def fmt(x, digits=3):
    return f"{x:.{digits}g}"


def setup_seconds(doc):
    """Everything before the solve: the run's total less its solve and output."""
    solve = doc.get("wall_seconds_main_loop", doc.get("wall_seconds_solve"))
    total = doc.get("wall_seconds_total")
    if solve is None or total is None:
        return None, None
    return max(0.0, float(total) - float(solve) - float(doc.get("wall_seconds_output", 0.0))), float(solve)


class Section:
    def __init__(self):
        self.lines, self.met, self.missing = [], True, []

    def judge(self, ok):
        self.met &= ok

    def out(self, text=""):
        self.lines.append(text)


def airfoil(s, d, copies, setup_rows):
    rows = []
    for backend in ("seq", "openmp"):
        for renumber in ("", "-renumber"):
            name = f"airfoil-{backend}{renumber}"
            doc, cmd = run(d, name)
            if doc is None:
                s.missing.append(f"{name}: {cmd}")
                continue
            threads = int(doc.get("threads", 1))
            bw = copies.get(threads)
            if bw is None:
                raise ResultError(f"{name}: ran on {threads} threads, no copy bandwidth for that")
            loops = loop_table(doc)
            label = f"{backend}{', renumbered' if renumber else ''}, {threads} thr"
            total_bytes = 0.0
            for lp in AIRFOIL_LOOPS:
                if lp not in loops:
                    raise ResultError(f"{name}: no timing of loop {lp}")
                calls, sec, nbytes = loops[lp]
                total_bytes += nbytes
                floor = nbytes / (bw * 1e9)
                ratio = sec / floor
                if not renumber:
                    s.judge(ratio <= LOOP_TARGET)
                rows.append([label, lp, fmt(sec), fmt(nbytes / 1e9), fmt(floor), f"{ratio:.2f}",
                             verdict(ratio, LOOP_TARGET) if not renumber else "(lever)"])
            wall = float(doc["wall_seconds_main_loop"])
            floor = total_bytes / (bw * 1e9)
            ratio = wall / floor
            if not renumber:
                s.judge(ratio <= LOOP_TARGET)
            rows.append([label, "**the iterations**", fmt(wall), fmt(total_bytes / 1e9), fmt(floor),
                         f"{ratio:.2f}", verdict(ratio, LOOP_TARGET) if not renumber else "(lever)"])
            su, solve = setup_seconds(doc)
            if su is not None:
                setup_rows.append([f"airfoil {label}", fmt(su), fmt(solve)])
    s.out("**Airfoil standard run** (720000 cells, 1000 iterations): time, bytes by OP2's count, "
          "the floor (bytes over the copy bandwidth of the same number of threads) and time over "
          f"floor; target <= {LOOP_TARGET}x for every loop and the iterations, seq and OpenMP. "
          "The renumbered runs (renumber=yes) are the lever, shown beside the standard run; "
          "the verdicts are the standard run's.")
    s.out()
    s.out(md_table(["run", "loop", "time (s)", "GB", "floor (s)", "time / floor", "target"],
                   rows, right=(2, 3, 4, 5)))


def backend_runs(s, d, solver):
    """(backend, result, threads) of the solver's seq and OpenMP runs; a
    missing one is noted in s."""
    for backend in ("seq", "openmp"):
        doc, cmd = run(d, f"{solver}-{backend}")
        if doc is None:
            s.missing.append(f"{solver}-{backend}: {cmd}")
            continue
        yield backend, doc, int(doc.get("threads", 1))


def floor_row(s, label, size, seconds, floor_bytes, bw, target):
    """A table row of seconds against floor_bytes at bw GB/s, judged in s."""
    floor = floor_bytes / (bw * 1e9)
    ratio = seconds / floor
    s.judge(ratio <= target)
    return [label, size, fmt(seconds), fmt(floor), f"{ratio:.2f}", verdict(ratio, target)]


def heat(s, d, copies, setup_rows):
    rows = []
    for backend, doc, threads in backend_runs(s, d, "heat"):
        rows.append(floor_row(s, f"{backend}, {threads} thr", str(doc.get("n")),
                              float(doc["seconds_per_step"]), float(doc["floor_bytes_per_step"]),
                              copies[threads], HEAT_TARGET))
        setup_rows.append([f"heat {backend}, {threads} thr", fmt(float(doc["wall_seconds_setup"])),
                           fmt(float(doc["wall_seconds_solve"]))])
    s.out(f"**Heat**, n = 8000 (64 M points): a step against 16 bytes a point; target <= {HEAT_TARGET}x.")
    s.out()
    s.out(md_table(["run", "n", "s / step", "floor (s)", "time / floor", "target"], rows,
                   right=(1, 2, 3, 4)))


def jacobi(s, d, copies, setup_rows):
    rows = []
    for backend, doc, threads in backend_runs(s, d, "jacobi"):
        calls, sec, _ = loop_table(doc)["res"]
        system = doc["system"]
        rows.append(floor_row(s, f"{backend}, {threads} thr", str(system.get("unknowns")),
                              sec / calls, 8.0 * float(system["edges"]), copies[threads],
                              JACOBI_TARGET))
        setup_rows.append([f"jacobi dense {backend}, {threads} thr",
                           fmt(float(doc["wall_seconds_setup"])),
                           fmt(float(doc["wall_seconds_iterations"]))])
    s.out(f"**Jacobi, dense** (Ndim = 4096): res against streaming the matrix once (8 bytes an "
          f"edge); target <= {JACOBI_TARGET}x.")
    s.out()
    s.out(md_table(["run", "Ndim", "s / res", "floor (s)", "time / floor", "target"], rows,
                   right=(1, 2, 3, 4)))


def euler(s, d, setup_rows):
    rows = []
    for backend, doc, threads in backend_runs(s, d, "euler"):
        loops, grid = loop_table(doc), doc["grid"]
        cx, sx, _ = loops["flux_x"]
        cy, sy, _ = loops["flux_y"]
        faces = cx * float(grid["x_faces"]) + cy * float(grid["y_faces"])
        rows.append([f"{backend}, {threads} thr", f"{grid['nx']} x {grid['ny']}", str(doc["steps"]),
                     fmt(sx + sy), f"{faces / (sx + sy) / 1e6:.1f}"])
        su, solve = setup_seconds(doc)
        if su is not None:
            setup_rows.append([f"euler {backend}, {threads} thr", fmt(su), fmt(solve)])
    s.out("**Euler** (the benchmark deck's problem): face fluxes per second of the exact-Riemann "
          "flux loops (flux_x and flux_y, every face of every call over their time).")
    s.out()
    s.out(md_table(["run", "grid", "steps", "flux time (s)", "M face fluxes / s"], rows,
                   right=(2, 3, 4)))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--docs")
    a = ap.parse_args(argv[1:])
    s = Section()
    try:
        copies = dict(copy_gbs(os.path.join(a.dir, f)) for f in sorted(os.listdir(a.dir))
                      if re.fullmatch(r"copy-\d+\.txt", f))
        if not copies:
            raise ResultError(f"{a.dir}: no copy-N.txt (the copy bandwidth of the run)")
        for note in a.note:
            s.out(f"- {note}")
        s.out("- copy bandwidth (op2-cpu-bandwidth, same run): " +
              ", ".join(f"{bw:.1f} GB/s with {t} thread{'s' if t > 1 else ''}"
                        for t, bw in sorted(copies.items())))
        s.out()
        setup_rows = []
        airfoil(s, a.dir, copies, setup_rows)
        s.out()
        heat(s, a.dir, copies, setup_rows)
        s.out()
        jacobi(s, a.dir, copies, setup_rows)
        s.out()
        euler(s, a.dir, setup_rows)
        s.out()
        for row in setup_rows:
            ok = float(row[1]) <= SETUP_TARGET * float(row[2])
            s.judge(ok)
            row.append(verdict(0.0 if ok else 2.0, 1.0))
        s.out("**Set-up against solve**: everything before the solve (mesh, maps, plans, first "
              "touch; the run's total less its solve and output) against the solve; target: "
              "set-up <= solve.")
        s.out()
        s.out(md_table(["run", "set-up (s)", "solve (s)", "target"], setup_rows, right=(1, 2)))
    except (ResultError, KeyError, ValueError, ZeroDivisionError) as e:
        print(f"cpu_targets.py: {e}", file=sys.stderr)
        return 2
    if s.missing:
        s.met = False
        s.out()
        s.out("Missing runs: " + "; ".join(s.missing) + ".")
    s.out()
    s.out(f"Targets of this run: {'all met' if s.met else 'NOT all met'}.")
    body = "\n".join(s.lines) + "\n"
    print(body, end="")
    if a.docs:
        try:
            replace_between_markers(a.docs, BEGIN, END, body)
        except (OSError, ValueError) as e:
            print(f"cpu_targets.py: {e}", file=sys.stderr)
            return 2
    return 0 if s.met else 1


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
