"""The report of scripts/regress.sh: per solver, backend and output field
whether the change's result is bitwise equal to the base's, within the
stated tolerance or different; per solver and loop the change's time against
the base's over interleaved pairs of runs.

usage: regress_report.py --runs DIR --cases FILE --out DIR --base TEXT
         --change TEXT --timing-preset P --threshold PCT --min-seconds S
         --bitwise 0|1 --planned N --threads N [--interrupted]

DIR holds PRESET/SOLVER.CASE/BACKEND/{base,change}/K/{exit,result.json,log}
and, beside base/ and change/, op2-compare's output on the first pair:
compare-bitwise.txt and (when that differs and the case has a tolerance)
compare-tolerance.txt. Prints the tables, writes report.md and report.json
to --out. Exit status: 0 clean, 1 a problem (a result changed beyond its
tolerance, a run failed where the base's passed, a loop slowed beyond the
threshold), 2 bad input.

A loop is slower when the median of its change/base time ratios over the
pairs exceeds 1 + threshold and the change was slower in every pair: both
runs of a pair ran one after the other, so a drift of the machine moves
both; a median above the threshold with some pair the other way is reported
as such, not as a problem (noise: run it again with more pairs).
"""
import argparse
import json
import math
import os
import re
import sys

from result_files import (ResultError, fmt_seconds, json_text, load_result, loop_table, md_table,
                          median, text_table, write_atomically)

DATASET = re.compile(r"^(/\S*) \[[^\]]*\] [^:]+: (identical|equal within tolerance|"
                     r"(\d+) of (\d+) elements differ)"
                     r"(?:, max abs diff (\S+), max rel diff (\S+))?")
ONLY = re.compile(r"^(/\S*): only in (A|B)")
MISMATCH = re.compile(r"^(/\S*): ((?:type|shape) mismatch: .*)")
WORST = re.compile(r"^\s+(\d+)\s+(\d+)\s+\S")
MIN_PAIRS = 3


def parse_compare(path):
    """{field: {...}} from op2-compare's output, and its verdict word."""
    fields, current, verdict = {}, None, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = DATASET.match(line)
            if m:
                current = m.group(1)
                state = m.group(2)
                fields[current] = {
                    "state": "identical" if state == "identical" else
                             "within" if state.startswith("equal") else "differ",
                    "differ": int(m.group(3)) if m.group(3) else 0,
                    "elements": int(m.group(4)) if m.group(4) else None,
                    "max_abs": float(m.group(5)) if m.group(5) else None,
                    "max_rel": float(m.group(6)) if m.group(6) else None,
                }
                continue
            m = ONLY.match(line)
            if m:
                side = "change" if m.group(2) == "A" else "base"
                fields[m.group(1)] = {"state": "differ", "note": f"only in the {side}'s file"}
                current = None
                continue
            m = MISMATCH.match(line)
            if m:
                fields[m.group(1)] = {"state": "differ", "note": m.group(2)}
                current = None
                continue
            m = WORST.match(line)
            if m and current and "row" not in fields[current]:
                fields[current]["row"] = int(m.group(1))
                fields[current]["comp"] = int(m.group(2))
                continue
            if line.startswith("op2-compare: "):
                verdict = line.split()[1].rstrip(":")
    return fields, verdict


def read_exit(run):
    try:
        with open(os.path.join(run, "exit"), encoding="utf-8") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def read_cases(path):
    cases = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if len(words) < 5:
                sys.exit(f"regress_report.py: {path}:{n}: expected solver, case, file, rtol, atol")
            cases[f"{words[0]}.{words[1]}"] = {"file": words[2], "rtol": words[3],
                                               "atol": words[4]}
    return cases


def subdirs(path):
    return sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d))) \
        if os.path.isdir(path) else []


def results_of(dir_, case, bitwise):
    """Rows for the results table of one preset/case/backend, and problems."""
    rows, problems = [], []
    b_exit = read_exit(os.path.join(dir_, "base", "1"))
    c_exit = read_exit(os.path.join(dir_, "change", "1"))
    if b_exit is None or c_exit is None:
        return rows, problems  # the first pair was not completed (interrupted)
    if c_exit != 0 or b_exit != 0:
        if c_exit != 0 and b_exit == 0:
            what = f"the change's run failed (exit {c_exit}; the base's passed)"
            problems.append(what)
        elif c_exit == 0:
            what = f"the base's run failed (exit {b_exit}); the change's passed"
        else:
            what = f"both runs failed (exit {b_exit} base, {c_exit} change)"
        rows.append({"field": "(run)", "verdict": "RUN FAILED" if c_exit else "base failed",
                     "note": what})
        return rows, problems
    bit_path = os.path.join(dir_, "compare-bitwise.txt")
    if not os.path.exists(bit_path):
        missing = [s for s in ("base", "change")
                   if not os.path.exists(os.path.join(dir_, s, "1", case["file"]))]
        what = f"no {case['file']} from the {' and the '.join(missing)} run"
        rows.append({"field": case["file"], "verdict": "DIFFERENT", "note": what})
        problems.append(what)
        return rows, problems
    bits, verdict = parse_compare(bit_path)
    if verdict not in ("EQUAL", "DIFFERENT"):
        what = f"op2-compare could not compare the files (see {bit_path})"
        rows.append({"field": case["file"], "verdict": "ERROR", "note": what})
        problems.append(what)
        return rows, problems
    tol_path = os.path.join(dir_, "compare-tolerance.txt")
    tol = parse_compare(tol_path)[0] if os.path.exists(tol_path) else {}
    for field, b in bits.items():
        row = {"field": field, "max_abs": b.get("max_abs"), "max_rel": b.get("max_rel"),
               "row": b.get("row"), "comp": b.get("comp"), "note": b.get("note", "")}
        if b["state"] == "identical":
            row["verdict"] = "bitwise equal"
        elif tol.get(field, {}).get("state") == "within":
            row["verdict"] = "within tolerance"
        else:
            row["verdict"] = "DIFFERENT"
            n = tol.get(field, b).get("differ")
            if n and not row["note"]:
                total = b.get("elements")
                row["note"] = (f"{n} of {total} elements beyond the tolerance" if tol
                               else f"{n} of {total} elements differ" + (
                                   " (bitwise check)" if bitwise else " (no tolerance stated)"))
            problems.append(f"{field} {row['note'] or 'differs'}")
        rows.append(row)
    return rows, problems


def timings_of(dir_, threshold, min_seconds):
    """Rows of the timing table of one case/backend, and problems."""
    pairs = []
    for k in subdirs(os.path.join(dir_, "base")):
        b_run, c_run = (os.path.join(dir_, s, k) for s in ("base", "change"))
        if read_exit(b_run) != 0 or read_exit(c_run) != 0:
            continue
        try:
            pairs.append((loop_table(load_result(os.path.join(b_run, "result.json"))),
                          loop_table(load_result(os.path.join(c_run, "result.json")))))
        except ResultError as e:
            print(f"regress_report.py: {e}", file=sys.stderr)
    rows, problems = [], []
    if not pairs:
        return rows, problems
    names = list(pairs[0][0]) + [n for n in pairs[0][1] if n not in pairs[0][0]]
    for name in names + ["(all loops)"]:
        if name == "(all loops)":
            b = [sum(s for _, s, _ in p[0].values()) for p in pairs]
            c = [sum(s for _, s, _ in p[1].values()) for p in pairs]
        else:
            if any(name not in p[0] or name not in p[1] for p in pairs):
                side = "base" if name in pairs[0][0] else "change"
                rows.append({"loop": name, "verdict": f"only in the {side}", "pairs": len(pairs)})
                continue
            b = [p[0][name][1] for p in pairs]
            c = [p[1][name][1] for p in pairs]
        ratios = [ci / bi for bi, ci in zip(b, c) if bi > 0]
        row = {"loop": name, "pairs": len(pairs), "base_median": median(b),
               "change_median": median(c), "ratios": ratios,
               "ratio_median": median(ratios) if ratios else None,
               "ratio_min": min(ratios) if ratios else None,
               "ratio_max": max(ratios) if ratios else None}
        if len(ratios) < MIN_PAIRS:
            row["verdict"] = f"not judged ({len(ratios)} pairs)"
        elif row["base_median"] < min_seconds:
            row["verdict"] = "too short to judge"
        elif row["ratio_median"] > 1 + threshold:
            if row["ratio_min"] > 1:
                row["verdict"] = "SLOWER"
                problems.append(f"loop {name} {row['ratio_median']:.2f}x the base's time "
                                f"(pairs {row['ratio_min']:.2f} to {row['ratio_max']:.2f})")
            else:
                row["verdict"] = "slower, not in every pair"
        elif row["ratio_median"] < 1 / (1 + threshold):
            row["verdict"] = "faster" if row["ratio_max"] < 1 else "faster, not in every pair"
        else:
            row["verdict"] = "same"
        rows.append(row)
    return rows, problems


def screen_rows(results):
    """The results table for the terminal: a group (preset, case, backend)
    whose fields are all bitwise equal takes one line."""
    rows, groups = [], {}
    for r in results:
        groups.setdefault((r["preset"], r["solver"], r["case"], r["backend"]), []).append(r)
    for (preset, solver, case, backend), rs in groups.items():
        if all(r["verdict"] == "bitwise equal" for r in rs):
            rows.append([preset, solver, case, backend, f"(all {len(rs)} fields)", "bitwise equal",
                         "-", "-", "-", ""])
            continue
        rows += [[preset, solver, case, backend, r["field"], r["verdict"],
                  fmt_diff(r.get("max_abs")), fmt_diff(r.get("max_rel")), fmt_where(r),
                  r.get("note", "")] for r in rs]
    return rows


def fmt_diff(v):
    return "-" if v is None else f"{v:.3g}"


def fmt_where(r):
    return "-" if r.get("row") is None else f"row {r['row']}, comp {r['comp']}"


def fmt_ratio(v):
    return "-" if v is None else f"{v:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--change", required=True)
    ap.add_argument("--timing-preset", required=True)
    ap.add_argument("--threshold", type=float, required=True, help="percent")
    ap.add_argument("--min-seconds", type=float, required=True)
    ap.add_argument("--bitwise", type=int, default=0)
    ap.add_argument("--planned", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--interrupted", action="store_true")
    a = ap.parse_args()
    if not (a.threshold >= 0 and a.min_seconds >= 0):
        ap.error("--threshold and --min-seconds must be >= 0")
    threshold = a.threshold / 100.0
    cases = read_cases(a.cases)

    results, timings, problems = [], [], []
    done = 0
    for preset in subdirs(a.runs):
        for case_name in subdirs(os.path.join(a.runs, preset)):
            case = cases.get(case_name)
            if case is None:
                continue
            solver, cname = case_name.split(".", 1)
            for backend in subdirs(os.path.join(a.runs, preset, case_name)):
                d = os.path.join(a.runs, preset, case_name, backend)
                done += sum(read_exit(os.path.join(d, s, k)) is not None
                            for s in ("base", "change") for k in subdirs(os.path.join(d, s)))
                where = {"preset": preset, "solver": solver, "case": cname, "backend": backend}
                rows, probs = results_of(d, case, a.bitwise)
                results += [dict(where, **r) for r in rows]
                problems += [f"{preset} {solver}/{cname} {backend}: {p}" for p in probs]
                if preset == a.timing_preset:
                    rows, probs = timings_of(d, threshold, a.min_seconds)
                    timings += [dict(where, **r) for r in rows]
                    problems += [f"{solver}/{cname} {backend}: {p}" for p in probs]

    status = "interrupted" if a.interrupted else ("regression" if problems else "clean")
    head = [f"base: {a.base}", f"change: {a.change}",
            f"runs: {done} of {a.planned}" + (" (interrupted: what was measured so far)"
                                               if a.interrupted else ""),
            f"timing: {a.timing_preset} build, OpenMP with {a.threads} threads; a loop fails when "
            f"its median time ratio exceeds {1 + threshold:.3g} and it was slower in every pair; "
            f"loops under {a.min_seconds:g} s a run are not judged",
            "results: " + ("any difference fails (--bitwise)" if a.bitwise else
                           "bitwise, else within the case's tolerance "
                           "(validation/regress_cases.txt)")]

    r_head = ["preset", "solver", "case", "backend", "field", "verdict", "max abs diff",
              "max rel diff", "where", "note"]
    r_rows = [[r["preset"], r["solver"], r["case"], r["backend"], r["field"], r["verdict"],
               fmt_diff(r.get("max_abs")), fmt_diff(r.get("max_rel")), fmt_where(r),
               r.get("note", "")] for r in results]
    t_head = ["solver", "case", "backend", "loop", "pairs", "base (s)", "change (s)",
              "ratio", "spread", "verdict"]
    t_rows = [[t["solver"], t["case"], t["backend"], t["loop"], t["pairs"],
               fmt_seconds(t.get("base_median")), fmt_seconds(t.get("change_median")),
               fmt_ratio(t.get("ratio_median")),
               "-" if t.get("ratio_min") is None else
               f"{t['ratio_min']:.3f}-{t['ratio_max']:.3f}", t["verdict"]] for t in timings]
    summary = {"clean": "CLEAN: every result as the base's, no loop slower",
               "regression": f"REGRESSION: {len(problems)} problem(s)",
               "interrupted": f"INTERRUPTED after {done} of {a.planned} runs"
                              + (f"; {len(problems)} problem(s) so far" if problems else "")}[status]

    print()
    print("\n".join(head))
    print("\nResults, change against base (first pair)\n")
    print(text_table(r_head, screen_rows(results)) if results else "(none)")
    print("\nTimes, median over the pairs (ratio = change / base; spread = smallest-largest "
          "pair ratio)\n")
    print(text_table(t_head, t_rows) if t_rows else "(none)")
    print()
    for p in problems:
        print(f"  {p}")
    print(f"regress: {summary}")

    md = ["# Regression check", ""] + [f"- {h}" for h in head] + [
        "", f"**{summary}**", ""] + [f"- {p}" for p in problems] + [
        "", "## Results, change against base", "",
        md_table(r_head, r_rows) if r_rows else "(none)", "",
        "## Times per loop (median over the pairs; ratio = change / base)", "",
        md_table(t_head, t_rows, right=(4, 5, 6, 7)) if t_rows else "(none)", ""]
    os.makedirs(a.out, exist_ok=True)
    write_atomically(os.path.join(a.out, "report.md"), "\n".join(md))
    doc = {"status": status, "base": a.base, "change": a.change, "runs_done": done,
           "runs_planned": a.planned, "timing_preset": a.timing_preset,
           "threshold_percent": a.threshold, "min_seconds": a.min_seconds,
           "bitwise": bool(a.bitwise), "threads": a.threads, "problems": problems,
           "results": results, "timings": timings}
    write_atomically(os.path.join(a.out, "report.json"), json_text(doc))
    print(f"regress: report in {os.path.join(a.out, 'report.md')} and report.json")
    return 1 if problems else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, ResultError) as e:
        print(f"regress_report.py: {e}", file=sys.stderr)
        sys.exit(2)
