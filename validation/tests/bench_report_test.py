"""Checks bench_report.py on made-up runs whose figures are known.

usage: bench_report_test.py BENCH_REPORT_PY PUBLISHED_CSV WORK_DIR

euler on seq: three runs of 10, 12 and 11 s (wall_seconds_steps), loops of
2e9 and 1e9 bytes in 1 s each; on openmp 20 and 23 s (wall_seconds_main_loop,
which every solver writes, taken before an older key beside it); a failed run
and one not completed are left out. jacobi's time under a key this report does
not know yet ("wall_seconds_main"); heat's from no solve-time key at all (the
loops' sum; its tutorial total is the whole run).
Expected: medians, min-max, GB/s, the ratio to Blakely's 5.08 s taken with
seq (no cuda run, seq the fastest), the failed run listed, docs replaced
between the markers only, and errors for docs without markers and for a
published figure that is not a number.

The runs' results: euler's seq runs all write the same history.csv (the
base is seq run 1), its openmp run 1 the same, run 2 one value off beyond
the tolerance of the cases file given (flagged, and the exit status 1); a
seq run of jacobi exits 0 with a verdict that failed: not a timing.
"""
import json
import os
import subprocess
import sys

from test_checks import check, finish

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

report, published, work = sys.argv[1:4]
runs = os.path.join(work, "runs")


HISTORY = "step,time\n1,0.5\n2,1.0\n"
PASSED = {"passed": True, "checks": [{"name": "completed", "passed": True, "value": 1.0,
                                     "comparison": ">=", "limit": 1.0}]}


def run(solver, backend, k, exit_status, doc, history=HISTORY):
    d = os.path.join(runs, solver, backend, str(k))
    os.makedirs(os.path.join(d, "out"), exist_ok=True)
    if exit_status is not None:
        with open(os.path.join(d, "exit"), "w") as f:
            f.write(f"{exit_status}\n")
    doc.setdefault("validation", PASSED)
    with open(os.path.join(d, "out", "result.json"), "w") as f:
        json.dump(doc, f)
    with open(os.path.join(d, "out", "history.csv"), "w") as f:
        f.write(history)


def loops(*spec):
    return [{"loop": n, "calls": c, "seconds": s, "bytes": b, "gb_per_s": b / s * 1e-9}
            for n, c, s, b in spec]


subprocess.run(["rm", "-rf", work], check=True)
euler_loops = loops(("flux", 100, 1.0, 2e9), ("update", 100, 1.0, 1e9))
for k, t in enumerate((10.0, 12.0, 11.0), 1):
    run("euler", "seq", k, 0, {"solver": "euler", "wall_seconds_steps": t, "loops": euler_loops})
run("euler", "seq", 4, 1, {"solver": "euler", "wall_seconds_steps": 1.0, "loops": euler_loops})
run("euler", "seq", 5, None, {"solver": "euler", "wall_seconds_steps": 1.0, "loops": euler_loops})
run("euler", "openmp", 1, 0, {"wall_seconds_main_loop": 20.0, "wall_seconds_steps": 90.0,
                              "loops": euler_loops})
run("euler", "openmp", 2, 0, {"wall_seconds_main_loop": 23.0, "wall_seconds_steps": 90.0,
                              "loops": euler_loops}, history=HISTORY.replace("1.0", "1.001"))
run("jacobi", "seq", 1, 0, {"wall_seconds_main": 7.0, "wall_seconds_total": 9.0,
                            "loops": loops(("res", 10, 6.0, 6e9))})
run("jacobi", "seq", 2, 0, {"wall_seconds_main": 1.0, "loops": loops(("res", 10, 6.0, 6e9)),
                            "validation": {"passed": False, "checks": [
                                {"name": "converged", "passed": False, "value": 0.2,
                                 "comparison": "<=", "limit": 0.001}]}})
cases = os.path.join(work, "cases.txt")
with open(cases, "w") as f:
    f.write("# solver size rtol atol deck\neuler full 1e-6 0 inputs/euler_benchmark.in\n"
            "euler small 0.1 0 inputs/euler_benchmark.in\n")
run("heat", "seq", 1, 0, {"wall_seconds_setup": 5.0, "wall_seconds_total": 9.0,
                          "wall_seconds_tutorial_total": 8.0,
                          "loops": loops(("heat_step", 10, 2.0, 1e9), ("heat_init", 1, 0.5, 0))})

docs = os.path.join(work, "perf.md")
with open(docs, "w") as f:
    f.write("# title\n\nbefore\n<!-- scripts/bench.sh: begin -->\nold table\n"
            "<!-- scripts/bench.sh: end -->\nafter\n")
out = os.path.join(work, "out")
args = [sys.executable, report, "--runs", runs, "--out", out, "--published", published,
        "--size", "full", "--copy-one", "20", "--copy-all", "30", "--cases", cases,
        "--command", "scripts/bench.sh --solvers euler --repeats 3 --note 'a b'",
        "--host", "Some CPU (family 6, model 167), 2 CPUs", "--cores", "2",
        "--load-before", "0.25", "--load-after", "2.5",
        "--docs", docs, "--docs-images", os.path.join(work, "images")]
p = subprocess.run(args, capture_output=True, text=True)
print(p.stdout, p.stderr)
check(p.returncode == 1, f"exit status {p.returncode}, expected 1 (a run failed, one flagged)")
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
check((o["runs"], o["median"], o["time_key"]) == (2, 21.5, "wall_seconds_main_loop"),
      f"euler openmp: {o['runs']} runs, median {o['median']} from {o['time_key']}, expected "
      "2 runs, median 21.5 from wall_seconds_main_loop")
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
check(len(doc["failed_runs"]) == 2 and "euler seq run 4" in doc["failed_runs"][0]
      and "jacobi seq run 2: not a timing: the verdict converged (0.2 <= 0.001) failed"
      in doc["failed_runs"][1],
      f"failed runs {doc['failed_runs']}, expected euler seq run 4 and jacobi seq run 2")
check(j["runs"] == 1, f"jacobi: {j['runs']} runs counted, expected 1 (its failed verdict)")
check((e["results"], o["results"], o["results_base"]) == ("base", "differ", "seq run 1"),
      f"euler results: seq {e['results']}, openmp {o['results']} against {o['results_base']}, "
      "expected base, differ against seq run 1")
flagged = doc["flagged_timings"]
check(len(flagged) == 1 and flagged[0].startswith("euler openmp run 2: results differ from the "
                                                  "base's (seq run 1): history.csv: time DIFFERENT"),
      f"flagged {flagged}, expected euler openmp run 2's history.csv time")
with open(os.path.join(out, "bench.csv")) as f:
    csv_text = f.read()
check("euler,seq,(solve),3,,11,10,12,1.5,20,base" in csv_text,
      "bench.csv: no euler seq row as expected")
check("euler,openmp,(solve),2,,21.5,20,23," in csv_text and ",differ\n" in csv_text,
      "bench.csv: no euler openmp row flagged differ")
with open(docs) as f:
    text = f.read()
check(text.startswith("# title\n\nbefore\n<!-- scripts/bench.sh: begin -->\n")
      and text.endswith("<!-- scripts/bench.sh: end -->\nafter\n"),
      "docs: the text outside the markers changed")
check("old table" not in text and "| euler | seq | 3 | 11 | 10-12 | 1.5 | 8% | base |" in text,
      "docs: the table between the markers was not replaced")
check("| euler | openmp | 2 | 21.5 | 20-23 | 1.5 | 5% | DIFFERENT |" in text
      and "- euler openmp run 2: results differ" in text, "docs: the flagged timing not shown")

# What ran, where: the command with every option, the host's family and
# model, the load before and after against the cores (quiet here).
with open(os.path.join(out, "report.md")) as f:
    md = f.read()
check("command `scripts/bench.sh --solvers euler --repeats 3 --note 'a b'`" in md,
      "report.md: the command line is not recorded whole")
check("- machine: Some CPU (family 6, model 167), 2 CPUs, 2 cores" in md,
      "report.md: the host (family, model) is not recorded")
check("- load average (1 minute) 0.25 before the runs, 2.5 after them, on 2 cores: quiet enough "
      "to time" in md, "report.md: no load line, quiet")
check("TOO BUSY" not in md and doc["machine"]["too_busy_to_time"] is False,
      "a quiet machine said to be too busy")
check((doc["machine"]["load_before"], doc["machine"]["load_after"]) == (0.25, 2.5),
      "bench.json: the loads not recorded")
# Loaded: other work above half the cores before the runs, or above the
# cores and a half after them (the runs' own threads one a core at most).
for before, after, busy in (("1.5", "2.5", True), ("0.5", "3.5", True), ("1.0", "3.0", False)):
    p = subprocess.run(args[:args.index("--load-before")] + ["--load-before", before,
                       "--load-after", after, "--size", "small"], capture_output=True, text=True)
    with open(os.path.join(out, "bench.json")) as f:
        loaded = json.load(f)
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    said = "TOO BUSY TO TIME" in md and "TOO BUSY TO TIME" in p.stdout
    check(loaded["machine"]["too_busy_to_time"] is busy and said == busy,
          f"load {before} before, {after} after, on 2 cores: too busy said {said}, expected {busy}")

# Within a wider tolerance (--size small's line: rtol 0.1), nothing flagged.
p = subprocess.run(args[:args.index("--docs")] + ["--size", "small"], capture_output=True,
                   text=True)
with open(os.path.join(out, "bench.json")) as f:
    small = json.load(f)
check(small["benchmarks"]["euler"]["openmp"]["results"] == "within" and
      not small["flagged_timings"], "rtol 0.1: euler openmp not within the tolerance")

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

finish("bench_report_test")
