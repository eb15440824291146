"""Checks bench_report.py on made-up runs whose figures are known.

usage: bench_report_test.py BENCH_REPORT_PY PUBLISHED_CSV WORK_DIR

euler on seq: three runs of 10, 12 and 11 s (wall_seconds_steps), loops of
2e9 and 1e9 bytes in 1 s each; on openmp 20 and 23 s; a failed run and one
not completed are left out. jacobi's time under a key this report does not know
yet ("wall_seconds_main"); heat's from no wall key at all (the loops' sum).
Expected: medians, min-max, GB/s, the ratio to seed 004's 5.08 s taken with
seq (no cuda run, seq the fastest), the failed run listed, docs replaced
between the markers only, and errors for docs without markers and for a
published figure that is not a number.
"""
import json
import os
import subprocess
import sys

report, published, work = sys.argv[1:4]
runs = os.path.join(work, "runs")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


def run(solver, backend, k, exit_status, doc):
    d = os.path.join(runs, solver, backend, str(k))
    os.makedirs(d, exist_ok=True)
    if exit_status is not None:
        with open(os.path.join(d, "exit"), "w") as f:
            f.write(f"{exit_status}\n")
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(doc, f)


def loops(*spec):
    return [{"loop": n, "calls": c, "seconds": s, "bytes": b, "gb_per_s": b / s * 1e-9}
            for n, c, s, b in spec]


subprocess.run(["rm", "-rf", work], check=True)
euler_loops = loops(("flux", 100, 1.0, 2e9), ("update", 100, 1.0, 1e9))
for k, t in enumerate((10.0, 12.0, 11.0), 1):
    run("euler", "seq", k, 0, {"solver": "euler", "wall_seconds_steps": t, "loops": euler_loops})
run("euler", "seq", 4, 1, {"solver": "euler", "wall_seconds_steps": 1.0, "loops": euler_loops})
run("euler", "seq", 5, None, {"solver": "euler", "wall_seconds_steps": 1.0, "loops": euler_loops})
run("euler", "openmp", 1, 0, {"wall_seconds_steps": 20.0, "loops": euler_loops})
run("euler", "openmp", 2, 0, {"wall_seconds_steps": 23.0, "loops": euler_loops})
run("jacobi", "seq", 1, 0, {"wall_seconds_main": 7.0, "wall_seconds_total": 9.0,
                            "loops": loops(("res", 10, 6.0, 6e9))})
run("heat", "seq", 1, 0, {"wall_seconds_setup": 5.0, "wall_seconds_total": 9.0,
                          "loops": loops(("heat_step", 10, 2.0, 1e9), ("heat_init", 1, 0.5, 0))})

docs = os.path.join(work, "perf.md")
with open(docs, "w") as f:
    f.write("# title\n\nbefore\n<!-- scripts/bench.sh: begin -->\nold table\n"
            "<!-- scripts/bench.sh: end -->\nafter\n")
out = os.path.join(work, "out")
args = [sys.executable, report, "--runs", runs, "--out", out, "--published", published,
        "--size", "full", "--copy-one", "20", "--copy-all", "30",
        "--docs", docs, "--docs-images", os.path.join(work, "images")]
p = subprocess.run(args, capture_output=True, text=True)
print(p.stdout, p.stderr)
check(p.returncode == 0, f"exit status {p.returncode}, expected 0")
with open(os.path.join(out, "bench.json")) as f:
    doc = json.load(f)
e = doc["benchmarks"]["euler"]["seq"]
check(e["runs"] == 3, f"euler seq: {e['runs']} runs counted, expected 3 (a failed and an "
      "unfinished run left out)")
check((e["median"], e["min"], e["max"]) == (11.0, 10.0, 12.0),
      f"euler seq: median/min/max {e['median']}/{e['min']}/{e['max']}, expected 11/10/12")
check(abs(e["gb_per_s"] - 1.5) < 1e-12, f"euler seq: {e['gb_per_s']} GB/s, expected 1.5")
check(abs(e["loops"]["flux"]["gb_per_s"] - 2.0) < 1e-12, "euler seq flux: GB/s, expected 2")
o = doc["benchmarks"]["euler"]["openmp"]
check((o["runs"], o["median"]) == (2, 21.5), f"euler openmp: {o['runs']} runs, median "
      f"{o['median']}, expected 2 runs, median 21.5")
j = doc["benchmarks"]["jacobi"]["seq"]
check(j["median"] == 7.0 and j["time_key"] == "wall_seconds_main",
      f"jacobi: time {j['median']} from {j['time_key']}, expected 7 from wall_seconds_main")
h = doc["benchmarks"]["heat"]["seq"]
check(h["median"] == 2.5 and h["time_key"] == "sum of loops",
      f"heat: time {h['median']} from {h['time_key']}, expected 2.5 from the sum of loops")
final = [c for c in doc["published"] if c["benchmark"] == "euler" and c["seconds"] == 5.08]
check(len(final) == 1, "euler: no published 5.08 s figure")
if final:
    c = final[0]
    check(c["measured_backend"] == "seq" and abs(c["ratio"] - 11.0 / 5.08) < 1e-12,
          f"euler against 5.08 s: {c['measured_backend']} ratio {c['ratio']}, expected seq "
          f"{11.0 / 5.08}")
check(len(doc["failed_runs"]) == 1 and "euler seq run 4" in doc["failed_runs"][0],
      f"failed runs {doc['failed_runs']}, expected euler seq run 4")
with open(os.path.join(out, "bench.csv")) as f:
    csv_text = f.read()
check("euler,seq,(solve),3,,11,10,12,1.5,20" in csv_text, "bench.csv: no euler seq row as expected")
with open(docs) as f:
    text = f.read()
check(text.startswith("# title\n\nbefore\n<!-- scripts/bench.sh: begin -->\n")
      and text.endswith("<!-- scripts/bench.sh: end -->\nafter\n"),
      "docs: the text outside the markers changed")
check("old table" not in text and "| euler | seq | 3 | 11 | 10-12 | 1.5 | 8% |" in text,
      "docs: the table between the markers was not replaced")

with open(docs, "w") as f:
    f.write("no markers\n")
p = subprocess.run(args, capture_output=True, text=True)
check(p.returncode == 2 and "needs one line" in p.stderr,
      f"docs without markers: exit {p.returncode} ({p.stderr.strip()}), expected 2")
bad = os.path.join(work, "bad.csv")
with open(published) as f, open(bad, "w") as g:
    g.write(f.read().replace(",6.65,", ",six,"))
args[args.index(published)] = bad
p = subprocess.run(args[:-4], capture_output=True, text=True)
check(p.returncode == 2 and "'six' is not a number" in p.stderr,
      f"bad published figure: exit {p.returncode} ({p.stderr.strip()}), expected 2")

print("FAILED" if failures else "PASSED")
sys.exit(1 if failures else 0)
