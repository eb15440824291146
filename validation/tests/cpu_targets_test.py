"""Checks cpu_targets.py on made-up runs whose ratios are known.

usage: cpu_targets_test.py CPU_TARGETS_PY WORK_DIR

The copy bandwidth is 10 GB/s with 1 thread and 20 GB/s with 2, so a loop
of 1e9 bytes has a floor of 0.1 s on seq and 0.05 s on OpenMP (a report that
took the wrong thread count's bandwidth would show other ratios). Cases:
  met          every loop and the iterations at 1.2x, heat at 1.5x, jacobi
               res at 1.4x, set-up below the solve: exit 0, "all met"
  res_calc     OpenMP res_calc at 1.6x: exit 1, its row NOT MET
  heat         a seq heat step at 2.5x of 16 bytes a point: exit 1
  setup        jacobi's set-up longer than its solve: exit 1
  missing      no euler-openmp run: exit 1, the run named as missing
  docs         --docs replaces only what is between the markers
  bad          a copy-1.txt without a bandwidth line: exit 2
"""
import json
import os
import shutil
import subprocess
import sys

from test_checks import check, finish

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

script, work = sys.argv[1:3]


AIRFOIL = ("save_soln", "adt_calc", "res_calc", "bres_calc", "update")


def write(d, name, doc):
    os.makedirs(os.path.join(d, name), exist_ok=True)
    with open(os.path.join(d, name, "result.json"), "w") as f:
        json.dump(doc, f)
    with open(os.path.join(d, name, "cmd.txt"), "w") as f:
        f.write(f"made-up {name}\n")


def make(case):
    d = os.path.join(work, case)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "copy-1.txt"), "w") as f:
        f.write("copy: 1 thread(s), 2 x 512 MiB, best of 10: 0.1 s, 10.00 GB/s\n"
                if case != "bad" else "no bandwidth here\n")
    with open(os.path.join(d, "copy-2.txt"), "w") as f:
        f.write("copy: 2 thread(s), 2 x 512 MiB, best of 10: 0.05 s, 20.00 GB/s\n")
    for backend, threads, bw in (("seq", 1, 10.0), ("openmp", 2, 20.0)):
        floor = 1e9 / (bw * 1e9)
        for renumber in ("", "-renumber"):
            loops = []
            for lp in AIRFOIL:
                ratio = 1.6 if (case == "res_calc" and backend == "openmp" and lp == "res_calc"
                                and not renumber) else 1.2
                loops.append({"loop": lp, "calls": 2000, "seconds": ratio * floor, "bytes": 1e9})
            total = sum(l["seconds"] for l in loops)
            write(d, f"airfoil-{backend}{renumber}",
                  {"solver": "airfoil", "threads": threads, "loops": loops,
                   "wall_seconds_main_loop": total, "wall_seconds_total": total + 0.1,
                   "wall_seconds_output": 0.0})
        heat_ratio = 2.5 if case == "heat" and backend == "seq" else 1.5
        n = 1000
        step_floor = 16.0 * n * n / (bw * 1e9)
        write(d, f"heat-{backend}",
              {"solver": "heat", "threads": threads, "n": n, "loops": [],
               "seconds_per_step": heat_ratio * step_floor, "floor_bytes_per_step": 16.0 * n * n,
               "wall_seconds_setup": 0.01, "wall_seconds_solve": 10 * heat_ratio * step_floor})
        edges = 4096 * 4096
        res_floor = 8.0 * edges / (bw * 1e9)
        write(d, f"jacobi-{backend}",
              {"solver": "jacobi", "threads": threads,
               "system": {"unknowns": 4096, "edges": edges},
               "loops": [{"loop": "res", "calls": 10, "seconds": 10 * 1.4 * res_floor,
                          "bytes": 10 * 8.0 * edges}],
               "wall_seconds_setup": 100.0 if case == "setup" else 0.05,
               "wall_seconds_iterations": 10 * 1.4 * res_floor})
        if not (case == "missing" and backend == "openmp"):
            write(d, f"euler-{backend}",
                  {"solver": "euler", "threads": threads, "steps": 10,
                   "grid": {"nx": 100, "ny": 100, "x_faces": 10100, "y_faces": 10100},
                   "loops": [{"loop": "flux_x", "calls": 10, "seconds": 0.05, "bytes": 1e6},
                             {"loop": "flux_y", "calls": 10, "seconds": 0.05, "bytes": 1e6}],
                   "wall_seconds_main_loop": 1.0, "wall_seconds_total": 1.1})
    return d


def run(case, *extra):
    d = make(case)
    p = subprocess.run([sys.executable, script, d, *extra], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def row(out, *cells):
    """The table row whose cells start with cells."""
    for line in out.splitlines():
        parts = [c.strip() for c in line.strip("|").split("|")]
        if parts[:len(cells)] == list(cells):
            return parts
    return None


rc, out, err = run("met")
check(rc == 0, f"met: exit {rc}, expected 0 ({err.strip()})")
check("Targets of this run: all met." in out, "met: no 'all met' line")
r = row(out, "openmp, 2 thr", "res_calc")
check(r is not None and r[4] == "0.05" and r[5] == "1.20" and r[6] == "met",
      f"met: OpenMP res_calc row {r}: expected floor 0.05 s, ratio 1.20 (2-thread bandwidth)")
r = row(out, "seq, 1 thr", "**the iterations**")
check(r is not None and r[5] == "1.20", f"met: seq iterations row {r}: expected 1.20")
r = row(out, "seq, 1 thr", "1000")
check(r is not None and r[4] == "1.50" and r[5] == "met", f"met: heat seq row {r}: expected 1.50")
r = row(out, "openmp, 2 thr", "4096")
check(r is not None and r[4] == "1.40", f"met: jacobi OpenMP row {r}: expected 1.40")
r = row(out, "seq, 1 thr", "100 x 100")
check(r is not None and r[4] == "2.0", f"met: euler row {r}: expected 2.0 M face fluxes/s")

rc, out, _ = run("res_calc")
r = row(out, "openmp, 2 thr", "res_calc")
check(rc == 1 and r is not None and r[5] == "1.60" and r[6] == "NOT MET",
      f"res_calc: exit {rc}, row {r}: expected exit 1 and 1.60 NOT MET")

rc, out, _ = run("heat")
r = row(out, "seq, 1 thr", "1000")
check(rc == 1 and r is not None and r[5] == "NOT MET", f"heat: exit {rc}, row {r}")

rc, out, _ = run("setup")
r = row(out, "jacobi dense seq, 1 thr")
check(rc == 1 and r is not None and r[3] == "NOT MET", f"setup: exit {rc}, row {r}")

rc, out, _ = run("missing")
check(rc == 1 and "euler-openmp" in out, f"missing: exit {rc}, the missing run not named")

page = os.path.join(work, "page.md")
with open(page, "w") as f:
    f.write("before\n<!-- scripts/cpu-targets.sh: begin -->\nold\n"
            "<!-- scripts/cpu-targets.sh: end -->\nafter\n")
rc, out, _ = run("met", "--docs", page)
text = open(page).read()
check(rc == 0 and text.startswith("before\n<!-- scripts/cpu-targets.sh: begin -->\n")
      and text.endswith("<!-- scripts/cpu-targets.sh: end -->\nafter\n")
      and "old" not in text and "all met" in text, "docs: not replaced between the markers only")

rc, _, err = run("bad")
check(rc == 2 and "copy-1.txt" in err, f"bad: exit {rc}, expected 2 naming copy-1.txt ({err.strip()})")

finish("cpu_targets_test")
