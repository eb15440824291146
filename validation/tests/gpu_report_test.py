"""Checks gpu_report.py (the verdicts, ledger and report of scripts/gpu-check.sh)
on made-up commands whose outcomes are known.

usage: gpu_report_test.py GPU_REPORT_PY WORK_DIR

- verdicts: exit 0, 77, 3; compute-sanitizer's 9 (a defect), its refusal of
  the device and its own failure to start (could not run), a program that
  fails saying what the tool might (a failure); a run over its own limit
  (failed: timed out) and one stopped by the call's time (could not run);
  OP2-Common's airfoil passing its own check, failing it with exit 0
  (OP_AUTO_SOA=1 on the H200: -nan) and crashing: failures of the
  reference, counted apart;
- the ledger: two calls into one folder, a command run again replacing its
  row, each call's exit status from its own rows only (1, 3, 0);
- the report: calls, steps, rows, summary, the pair section with the rounds'
  times and the rms comparison, the tails of the logs; a copy in --mirror;
  a broken ledger is exit 2 naming it.
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

tool, work = sys.argv[1:3]


def gr(*args, ok=(0,)):
    p = subprocess.run([sys.executable, tool] + [str(a) for a in args], capture_output=True,
                       text=True)
    if p.returncode not in ok:
        print(p.stdout, p.stderr)
    return p


def log(name, text):
    with open(os.path.join(d, "logs", name + ".log"), "w") as f:
        f.write(text)


def record(call, name, rc, text, judge="plain", **kw):
    log(name, text)
    args = ["record", d, "--call", call, "--name", name, "--rc", rc, "--seconds", "1.5",
            "--judge", judge]
    for k, v in kw.items():
        args += ["--" + k.replace("_", "-"), v]
    p = gr(*args)
    check(p.returncode == 0, f"record {name}: exit {p.returncode}: {p.stderr}")
    return p.stdout.strip()


shutil.rmtree(work, ignore_errors=True)
d = os.path.join(work, "out")
mirror = os.path.join(work, "mirror")
p = gr("begin", d, "--steps", "info tests", "--commit", "0123456789ab", "--gpu", "Made-up GPU",
       "--cpu", "Made-up CPU", "--cores", "16", "--mirror", mirror)
check(p.stdout.strip() == "1", f"begin: call '{p.stdout.strip()}', expected 1")

OP2C_RMS = "".join(f" {k}  5.0{k // 100}000e-04 \n" for k in range(100, 1100, 100))
cases = [
    # name, rc, log, judge, extra, expected line
    ("ok", 0, "fine\n", "plain", {}, "ok: passed"),
    ("skip", 77, "no CUDA device: skipping\n", "plain", {}, "skip: skipped"),
    ("bad", 3, "boom\n", "plain", {}, "bad: FAILED (exit 3)"),
    ("sanitize-memcheck-a", 9, "========= ERROR SUMMARY: 1 error\n", "sanitizer", {},
     "sanitize-memcheck-a: DEFECT FOUND (see logs/sanitize-memcheck-a.log)"),
    ("sanitize-memcheck-b", 1, "========= Error: Device not supported\n", "sanitizer", {},
     "sanitize-memcheck-b: could not run (Device not supported)"),
    ("sanitize-memcheck-c", 1, "========= Error: Target application failed to launch\n",
     "sanitizer", {}, "sanitize-memcheck-c: could not run (Error: Target application failed to launch)"),
    ("sanitize-memcheck-d", 4, "libfoo.so could not be loaded\n", "sanitizer", {},
     "sanitize-memcheck-d: FAILED (exit 4)"),
    ("slow", 124, "", "plain", {"limit": "60"}, "slow: FAILED (timed out after 60 s)"),
    ("late", 137, "", "plain", {"limit": "12", "limit_by": "call"},
     "late: could not run (stopped after 12 s: the call's time limit)"),
    ("op2c-airfoil-1", 0, OP2C_RMS + "Test problem with 720000 cells is within 2.49E-11 % of the "
     "expected solution\nThis test is considered PASSED\nTotal plan time:   0.3670\n"
     "Max total runtime = 3.186555\n", "op2c", {}, "op2c-airfoil-1: passed"),
    ("op2c-airfoil-soa-1", 0, " 100        -nan \nTest problem with 720000 cells is within NAN % of "
     "the expected solution\nThis test is considered FAILED\nMax total runtime = 3.264296\n",
     "op2c", {}, "op2c-airfoil-soa-1: OP2-Common FAILED its own check: NAN % from its expected "
     "solution"),
    ("op2c-airfoil-2", 139, "Segmentation fault\n", "op2c", {},
     "op2c-airfoil-2: OP2-Common FAILED (exit 139)"),
    ("airfoil-cuda-pair-1", 0, "airfoil: 1000 iterations in 0.629 s (0.629 ms per iteration)\n",
     "plain", {}, "airfoil-cuda-pair-1: passed"),
    ("op2c-rms-compare", 0, "10 result lines: agree (identical)\n", "plain", {},
     "op2c-rms-compare: passed"),
    ("ctest-portable", 0, "100% tests passed, 0 tests failed out of 42\n", "plain", {},
     "ctest-portable: passed"),
    ("heat-cuda", 0, "\n".join(f"line {k}" for k in range(100)) + "\n", "plain", {},
     "heat-cuda: passed"),
]
for name, rc, text, judge, extra, want in cases:
    got = record(1, name, rc, text, judge, mirror=mirror, **extra)
    check(got == want, f"{name}: '{got}', expected '{want}'")
gr("step", d, "--call", 1, "--step", "info", "--seconds", "1.25", "--mirror", mirror)
gr("not-run", d, "--call", 1, "--name", "gone", "--why", "naca_cmesh failed", "--mirror", mirror)
gr("not-run", d, "--call", 1, "--name", "later", "--could-not-run", "--why", "not started",
   "--mirror", mirror)

end = gr("end", d, "--call", 1, ok=(1,))
check(end.returncode == 1, f"end of call 1: exit {end.returncode}, expected 1 (a failure)")
want = ("this call: 6 passed, 5 failed or found a defect, 4 could not run, 1 skipped; "
        "2 of OP2-Common's runs failed (the reference, not this suite)")
check(end.stdout.strip() == want, f"end of call 1: '{end.stdout.strip()}', expected '{want}'")

# A second call: "bad" again, now passing, replaces its row; a could-not-run
# call exits 3, a clean one 0, whatever call 1 held.
p = gr("begin", d, "--steps", "tests", "--commit", "0123456789ab", "--gpu", "Made-up GPU",
       "--cpu", "Made-up CPU", "--cores", "16")
check(p.stdout.strip() == "2", f"second begin: call '{p.stdout.strip()}', expected 2")
record(2, "bad", 0, "fine now\n")
end = gr("end", d, "--call", 2)
check(end.returncode == 0 and end.stdout.strip().startswith("this call: 1 passed, 0 failed"),
      f"end of call 2: exit {end.returncode}, '{end.stdout.strip()}'")
p = gr("begin", d, "--steps", "sanitize-heat", "--commit", "x", "--gpu", "g", "--cpu", "c",
       "--cores", "1")
record(3, "sanitize-memcheck-b", 1, "========= Error: Device not supported\n", "sanitizer")
end = gr("end", d, "--call", 3, ok=(3,))
check(end.returncode == 3, f"end of call 3: exit {end.returncode}, expected 3 (could not run)")

with open(os.path.join(d, "report.md")) as f:
    rep = f.read()
with open(os.path.join(d, "ledger.json")) as f:
    ledger = json.load(f)
names = [r["name"] for r in ledger["rows"]]
check(names.count("bad") == 1 and names.index("bad") == 2,
      f"the row of 'bad' run again is not replaced in place: {names}")
for line in ("- GPU: g", "  1. ", "bundle built from commit 0123456789ab: info tests",
             "  2. ", "  3. ", "| info | 1.2 | 1 |", "| bad | passed | 1.5 | 2 |",
             "| slow | FAILED (timed out after 60 s) | 1.5 | 1 |",
             "| gone | FAILED (not run: naca_cmesh failed) | 0.0 | 1 |",
             "| later | could not run (not started) | 0.0 | 1 |",
             "7 passed, 4 failed or found a defect, 4 could not run, 1 skipped; 2 of OP2-Common's",
             "## ctest-portable", "100% tests passed",
             "## OP2-Common's CUDA airfoil beside this suite's",
             "| OP2-Common airfoil_cuda (its defaults) | 3.187 | - | 0.367 | round 1: passed; "
             "round 2: OP2-Common FAILED (exit 139) |",
             "| OP2-Common airfoil_cuda, OP_AUTO_SOA=1 | 3.264 | - | - | round 1: OP2-Common "
             "FAILED its own check: NAN % from its expected solution; round 2: not run |",
             "| this suite's airfoil_cuda (tuned) | 0.629 | - | - | round 1: passed; round 2: not "
             "run |",
             "rms history of this suite's airfoil_cuda against OP2-Common's (round 1): passed",
             "10 result lines: agree (identical)",
             "## heat-cuda", "line 99"):
    check(line in rep, f"report.md lacks '{line}'")
check("line 59\n" not in rep and "line 60\n" in rep, "heat-cuda's tail is not its last 40 lines")
check(os.path.exists(os.path.join(mirror, "report.md")) and
      os.path.exists(os.path.join(mirror, "logs", "op2c-airfoil-1.log")),
      "no copy of the report and logs in --mirror")

# A ledger that is not one: exit 2 naming the file.
with open(os.path.join(d, "ledger.json"), "w") as f:
    f.write("{not json")
p = gr("write", d, ok=(2,))
check(p.returncode == 2 and "ledger.json" in p.stderr, f"broken ledger: exit {p.returncode}, "
      f"'{p.stderr.strip()}'")

finish("gpu_report_test")
