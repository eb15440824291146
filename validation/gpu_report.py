#!/usr/bin/env python3
"""The ledger, the verdicts and the report of scripts/gpu-check.sh.

    gpu_report.py begin  DIR --steps S --commit C --gpu G --cpu C --cores N
    gpu_report.py record DIR --call N --name NAME --rc RC --seconds S
                         [--judge plain|sanitizer|op2c] [--limit L --limit-by own|call]
    gpu_report.py not-run DIR --call N --name NAME --why TEXT [--could-not-run]
    gpu_report.py step   DIR --call N --step STEP --seconds S
    gpu_report.py write  DIR
    gpu_report.py end    DIR --call N
Every command but end takes --mirror M: a copy of report.md and logs/ goes
there too (the output folder $OUT that a GPU machine sends back).

DIR is the check's output folder: DIR/logs/NAME.log is each command's output,
DIR/ledger.json the calls made into the folder and the row of every command
(a command run again in a later call replaces its row), DIR/report.md the
report, rewritten (atomically) after every change, so that a call stopped by
a time limit still leaves the report of what ran.

begin prints the new call's number. record judges a command from its exit
status and its log, keeps its row and prints "NAME: RESULT":
  plain      0 passed, 77 skipped, else FAILED (exit N)
  sanitizer  (compute-sanitizer --error-exitcode 9) 9 is DEFECT FOUND; a run
             that the tool could not make (its own "=========" lines say it
             cannot start, or "Device not supported") could not run, which
             is neither a pass nor a defect; else as plain
  op2c       OP2-Common's airfoil, which exits 0 whatever its own check
             says: "This test is considered PASSED" passes; its check failing
             or the program failing is "OP2-Common FAILED ...", a failure of
             the reference, counted apart from the suite's
With --limit, exit 124 or 137 (timeout's) is a command stopped at L seconds:
FAILED (timed out) when L was its own limit, could not run when it was what
was left of the call's time (--limit-by call).
end prints the call's summary and exits 1 when a command of the call failed
or found a defect, else 3 when one could not run, else 0.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import sys

from result_files import md_table, write_atomically

KINDS = ("passed", "failed", "defect", "could_not_run", "skipped", "reference_failed")

# compute-sanitizer's own lines start with "========="; only those (and its
# refusal of the device) say that it could not run the program.
SANITIZER_REFUSED = re.compile(r"Device not supported")
SANITIZER_CANNOT = re.compile(
    r"^=+ .*(Unable to find injection library|Target application failed to launch"
    r"|could not be loaded|Could not find [^ ]*injection)", re.M)

# Logs whose ends the report shows (the per-loop table and the verdicts).
RUN_TAILS = ("airfoil-cuda-tuned", "airfoil-cuda-staged", "airfoil-cuda-atomic",
             "airfoil-cuda-colour", "airfoil-openmp", "heat-cuda", "jacobi-cuda", "euler-cuda",
             "offload-device", "airfoil-offload")


class Bad(Exception):
    """Bad input: exit 2 with the message."""


def ledger_path(d):
    return os.path.join(d, "ledger.json")


def load(d):
    p = ledger_path(d)
    if not os.path.exists(p):
        return {"machine": {}, "calls": [], "rows": [], "steps": []}
    try:
        with open(p, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise Bad(f"{p}: cannot read the ledger: {e}") from None
    for key in ("calls", "rows", "steps"):
        if not isinstance(doc.get(key), list):
            raise Bad(f"{p}: no list '{key}': not a ledger of gpu-check.sh")
    doc.setdefault("machine", {})
    return doc


def save(d, doc):
    write_atomically(ledger_path(d), json.dumps(doc, indent=1) + "\n")


def read_log(d, name):
    try:
        with open(os.path.join(d, "logs", name + ".log"), encoding="utf-8",
                  errors="replace") as f:
            return f.read()
    except OSError:
        return ""


# ---- verdicts ----------------------------------------------------------------------------------

def judge(name, rc, log, how, limit=None, limit_by="own"):
    """(kind, result text) of a command that exited rc with log as output."""
    if limit is not None and rc in (124, 137):
        if limit_by == "call":
            return ("could_not_run",
                    f"could not run (stopped after {limit:g} s: the call's time limit)")
        return "failed", f"FAILED (timed out after {limit:g} s)"
    if how == "op2c":
        return judge_op2c(rc, log)
    if rc == 0:
        return "passed", "passed"
    if rc == 77:
        return "skipped", "skipped"
    if how == "sanitizer":
        if rc == 9:
            return "defect", f"DEFECT FOUND (see logs/{name}.log)"
        m = SANITIZER_REFUSED.search(log)
        if m:
            return "could_not_run", f"could not run ({m.group(0)})"
        m = SANITIZER_CANNOT.search(log)
        if m:
            why = re.sub(r"^=* *", "", log[m.start():].splitlines()[0])
            return "could_not_run", f"could not run ({why})"
    return "failed", f"FAILED (exit {rc})"


def judge_op2c(rc, log):
    """OP2-Common's airfoil: its own check, which does not set its exit status."""
    within = re.search(r"is within (\S+) % of the expected solution", log)
    detail = f": {within.group(1)} % from its expected solution" if within else ""
    if rc != 0:
        return "reference_failed", f"OP2-Common FAILED (exit {rc})"
    if "This test is considered PASSED" in log:
        return "passed", "passed"
    if "This test is considered FAILED" in log:
        return "reference_failed", f"OP2-Common FAILED its own check{detail}"
    return "reference_failed", "OP2-Common FAILED (no verdict of its own check in its output)"


# ---- the ledger ----------------------------------------------------------------------------------

def put_row(doc, row):
    for i, r in enumerate(doc["rows"]):
        if r["name"] == row["name"]:
            doc["rows"][i] = row
            return
    doc["rows"].append(row)


def counts(rows):
    c = {k: 0 for k in KINDS}
    for r in rows:
        c[r["kind"]] += 1
    return c


def summary(rows):
    c = counts(rows)
    text = (f"{c['passed']} passed, {c['failed'] + c['defect']} failed or found a defect, "
            f"{c['could_not_run']} could not run, {c['skipped']} skipped")
    if c["reference_failed"]:
        text += (f"; {c['reference_failed']} of OP2-Common's runs failed (the reference, "
                 "not this suite)")
    return text


# ---- the report --------------------------------------------------------------------------------

def tail(text, n):
    lines = text.rstrip("\n").splitlines()
    return "\n".join(lines[-n:])


def seconds_in(log, pattern):
    m = re.search(pattern, log, re.M)
    return float(m.group(1)) if m else None


def pair_section(d, doc):
    """OP2-Common's CUDA airfoil beside this suite's, from the rounds' logs."""
    names = [r["name"] for r in doc["rows"]]
    rounds = sorted({int(m.group(1)) for n in names for m in [re.match(r"op2c-airfoil-(\d+)$", n)]
                     if m})
    if not rounds:
        return []
    variants = (
        ("op2c-airfoil-{}", "OP2-Common airfoil_cuda (its defaults)",
         r"^Max total runtime = ([0-9.]+)"),
        ("op2c-airfoil-soa-{}", "OP2-Common airfoil_cuda, OP_AUTO_SOA=1",
         r"^Max total runtime = ([0-9.]+)"),
        ("airfoil-cuda-pair-{}", "this suite's airfoil_cuda (tuned)",
         r"^airfoil: \d+ iterations in ([0-9.]+) s"))
    result = {r["name"]: r["result"] for r in doc["rows"]}
    rows = []
    for pattern, label, time_re in variants:
        cells, plans, verdicts = [], [], []
        for k in rounds:
            name = pattern.format(k)
            log = read_log(d, name)
            t = seconds_in(log, time_re)
            cells.append("-" if t is None else f"{t:.3f}")
            p = seconds_in(log, r"^Total plan time:\s*([0-9.]+)")
            if p is not None:
                plans.append(f"{p:.3f}")
            verdicts.append(result.get(name, "not run"))
        verdict = (verdicts[0] if len(set(verdicts)) == 1 else
                   "; ".join(f"round {k}: {v}" for k, v in zip(rounds, verdicts)))
        rows.append([label] + cells + [", ".join(plans) or "-", verdict])
    out = ["", "## OP2-Common's CUDA airfoil beside this suite's", "",
           "The standard run (new_grid.dat, 720000 cells, 1000 iterations), in interleaved "
           "rounds; each program's own time of the iterations (OP2-Common's includes its "
           "plans).", ""]
    out.append(md_table(["run"] + [f"round {k} (s)" for k in rounds] +
                        ["OP2-Common's plan time (s)", "result"], rows,
                        right=set(range(1, len(rounds) + 2))))
    if "op2c-rms-compare" in result:
        out += ["", f"rms history of this suite's airfoil_cuda against OP2-Common's (round "
                f"{rounds[0]}): {result['op2c-rms-compare']}", "", "```",
                tail(read_log(d, "op2c-rms-compare"), 8), "```"]
    return out


def report_text(d, doc):
    m = doc["machine"]
    out = ["# GPU check: the CUDA and OpenMP offload backends", "",
           f"- GPU: {m.get('gpu') or 'none visible'}",
           f"- CPU: {m.get('cpu') or '?'} ({m.get('cores') or '?'} cores)",
           "- calls into this folder:"]
    for c in doc["calls"]:
        out.append(f"  {c['call']}. {c['when']}, bundle built from commit {c['commit']}: "
                   f"{c['steps']}")
    if doc["steps"]:
        out += ["", "Steps (wall time of each, for docs/cuda.md's budget):", ""]
        out.append(md_table(["step", "seconds", "call"],
                            [[s["step"], f"{s['seconds']:.1f}", s["call"]] for s in doc["steps"]],
                            right={1, 2}))
    out += ["", md_table(["command", "result", "seconds", "call"],
                         [[r["name"], r["result"], f"{r['seconds']:.1f}", r["call"]]
                          for r in doc["rows"]], right={2, 3}),
            "", summary(doc["rows"])]
    names = [r["name"] for r in doc["rows"]]
    for name in ["gpu-bandwidth"] + [n for n in names if n.startswith("ctest-")]:
        log = read_log(d, name)
        if log:
            out += ["", f"## {name}", "", "```", tail(log, 25), "```"]
    for md, title in (("mpi.md", "MPI: against seq, and strong scaling"),
                      ("steps.md", "OpenMP offload: Mattson et al.'s steps")):
        path = os.path.join(d, "logs", md)
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                out += ["", f"## {title}", "", f.read().rstrip("\n")]
    log = read_log(d, "airfoil-targets")
    if log:
        out += ["", "## airfoil against the copy bandwidth", "", log.rstrip("\n")]
    out += pair_section(d, doc)
    for name in RUN_TAILS:
        log = read_log(d, name)
        if log:
            out += ["", f"## {name}", "", "```", tail(log, 40), "```"]
    return "\n".join(out) + "\n"


def write(d, doc, mirror):
    save(d, doc)
    write_atomically(os.path.join(d, "report.md"), report_text(d, doc))
    if mirror and os.path.realpath(mirror) != os.path.realpath(d):
        try:
            os.makedirs(os.path.join(mirror, "logs"), exist_ok=True)
            shutil.copy2(os.path.join(d, "report.md"), mirror)
            shutil.copytree(os.path.join(d, "logs"), os.path.join(mirror, "logs"),
                            dirs_exist_ok=True)
        except OSError as e:
            print(f"gpu_report: cannot copy the report to {mirror}: {e}", file=sys.stderr)


# ---- commands ----------------------------------------------------------------------------------

def cmd_begin(a):
    os.makedirs(os.path.join(a.dir, "logs"), exist_ok=True)
    doc = load(a.dir)
    doc["machine"] = {"gpu": a.gpu, "cpu": a.cpu, "cores": a.cores}
    n = len(doc["calls"]) + 1
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    doc["calls"].append({"call": n, "when": when, "commit": a.commit, "steps": a.steps})
    write(a.dir, doc, a.mirror)
    print(n)


def cmd_record(a):
    doc = load(a.dir)
    kind, result = judge(a.name, a.rc, read_log(a.dir, a.name), a.judge, a.limit, a.limit_by)
    put_row(doc, {"name": a.name, "kind": kind, "result": result, "seconds": a.seconds,
                  "call": a.call})
    write(a.dir, doc, a.mirror)
    print(f"{a.name}: {result}")


def cmd_not_run(a):
    doc = load(a.dir)
    if a.could_not_run:
        kind, result = "could_not_run", f"could not run ({a.why})"
    else:
        kind, result = "failed", f"FAILED (not run: {a.why})"
    put_row(doc, {"name": a.name, "kind": kind, "result": result, "seconds": 0.0,
                  "call": a.call})
    write(a.dir, doc, a.mirror)
    print(f"{a.name}: {result}")


def cmd_step(a):
    doc = load(a.dir)
    doc["steps"] = [s for s in doc["steps"] if s["step"] != a.step]
    doc["steps"].append({"step": a.step, "seconds": a.seconds, "call": a.call})
    write(a.dir, doc, a.mirror)


def cmd_write(a):
    write(a.dir, load(a.dir), a.mirror)


def cmd_end(a):
    doc = load(a.dir)
    rows = [r for r in doc["rows"] if r["call"] == a.call]
    c = counts(rows)
    print(f"this call: {summary(rows)}")
    if c["failed"] or c["defect"]:
        return 1
    if c["could_not_run"]:
        return 3
    return 0


def seconds(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number of seconds") from None
    if not v >= 0:
        raise argparse.ArgumentTypeError(f"'{text}': seconds must be 0 or more")
    return v


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    def command(name, fn):
        p = sub.add_parser(name)
        p.add_argument("dir")
        if name != "end":
            p.add_argument("--mirror", default="")
        p.set_defaults(fn=fn)
        return p

    p = command("begin", cmd_begin)
    for opt in ("--steps", "--commit", "--gpu", "--cpu", "--cores"):
        p.add_argument(opt, default="")
    p = command("record", cmd_record)
    p.add_argument("--call", type=int, required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--rc", type=int, required=True)
    p.add_argument("--seconds", type=seconds, required=True)
    p.add_argument("--judge", choices=("plain", "sanitizer", "op2c"), default="plain")
    p.add_argument("--limit", type=seconds)
    p.add_argument("--limit-by", choices=("own", "call"), default="own")
    p = command("not-run", cmd_not_run)
    p.add_argument("--call", type=int, required=True)
    p.add_argument("--name", required=True)
    p.add_argument("--why", required=True)
    p.add_argument("--could-not-run", action="store_true")
    p = command("step", cmd_step)
    p.add_argument("--call", type=int, required=True)
    p.add_argument("--step", required=True)
    p.add_argument("--seconds", type=seconds, required=True)
    command("write", cmd_write)
    p = command("end", cmd_end)
    p.add_argument("--call", type=int, required=True)
    a = ap.parse_args(argv[1:])
    if not os.path.isdir(a.dir) and a.command != "begin":
        print(f"gpu_report: {a.dir}: no such folder (begin makes it)", file=sys.stderr)
        return 2
    try:
        return a.fn(a) or 0
    except Bad as e:
        print(f"gpu_report: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
