"""The report of scripts/regress.sh: per solver, backend and result whether
the change's is bitwise equal to the base's, changed (bits moved where no
tolerance applies), within a tolerance or different (everything a run
writes, result_compare.py: exit status, verdicts, result.json, histories,
HDF5 fields, pictures, any other file), and what was compared; per solver
and loop the change's time against the base's over interleaved pairs of
runs; what ran, where (command, host, load, commits).

usage: regress_report.py --runs DIR --cases FILE --out DIR --base TEXT
         --change TEXT --timing-preset P --threshold PCT --min-seconds S
         --bitwise 0|1 --planned N --compare OP2_COMPARE
         [--rtol R] [--atol A] [--backend-label NAME=TEXT]...
         [--command TEXT] [--host TEXT] [--cores N] [--load-before L]
         [--load-after L] [--interrupted]

DIR holds PRESET/SOLVER.CASE/BACKEND/{base,change}/K/{exit,log,out/}, out/
being the run's output_dir. The results of every pair K are compared, change
against base; a comparison takes its worst outcome over the pairs. Base and
change run on the same backend, preset and machine, where the CPU backends
give the same bits run after run (docs/regress-bench.md measures it): so the
rule is bitwise, and a tolerance applies only where one is asked for
(--rtol, --atol) or on a backend that is not reproducible run to run
(NOT_REPRODUCIBLE: the case's tolerance of the cases file, the reason in the
report). Prints the tables, writes report.md and report.json to --out. Exit
status: 0 clean, 1 a problem (results changed, a result beyond the tolerance
asked for, a verdict that passed in the base fails in the change, another
exit status, a loop slowed beyond the threshold), 2 bad input.

A loop is slower when the median of its change/base time ratios over the
pairs exceeds 1 + threshold and the change was slower in every pair: both
runs of a pair ran one after the other, so a drift of the machine moves
both; a median above the threshold with some pair the other way is reported
as such, not as a problem (noise: run it again with more pairs).
"""
import argparse
import os
import sys

from result_compare import (PROBLEM_STATES, VERDICT, Rule, compare_runs, kinds_covered,
                            merge_pairs, read_exit, result_json_path)
from host_load import load_verdict
from result_files import (ResultError, fmt_seconds, json_text, load_result, loop_table, md_table,
                          median, text_table, write_atomically)

MIN_PAIRS = 3
# The backends whose runs do not give the same bits from one run to the next,
# and why: compared within the case's tolerance (validation/regress_cases.txt).
NOT_REPRODUCIBLE = {
    "cuda": "indirect increments with atomicAdd (the default strategy where a loop allows it) "
            "add up in the order the GPU's threads reach them (docs/cuda.md, \"Global "
            "reductions and constants\")",
    "offload": "indirect increments with `omp atomic` (the default strategy where a loop only "
               "increments) add up in the order the device's threads reach them "
               "(docs/offload.md, \"Strategies\")",
}
# The verdicts of a loop that was timed and judged.
JUDGED = ("SLOWER", "slower, not in every pair", "faster", "faster, not in every pair", "same")


def read_cases(path):
    cases = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if len(words) < 4:
                sys.exit(f"regress_report.py: {path}:{n}: expected solver, case, rtol, atol")
            try:
                rtol, atol = float(words[2]), float(words[3])
            except ValueError:
                sys.exit(f"regress_report.py: {path}:{n}: rtol '{words[2]}' and atol "
                         f"'{words[3]}' must be numbers")
            if not (rtol >= 0 and atol >= 0):
                sys.exit(f"regress_report.py: {path}:{n}: rtol and atol must be >= 0")
            cases[f"{words[0]}.{words[1]}"] = {"rtol": rtol, "atol": atol}
    return cases


def subdirs(path):
    return sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d))) \
        if os.path.isdir(path) else []


def results_of(dir_, rule, compare):
    """Rows for the results table of one preset/case/backend (every pair's
    results compared, each comparison with its worst state over the pairs),
    what was compared, and the problems."""
    pairs = [k for k in subdirs(os.path.join(dir_, "base"))
             if read_exit(os.path.join(dir_, "base", k)) is not None
             and read_exit(os.path.join(dir_, "change", k)) is not None]
    if not pairs:
        return [], [], []  # no pair completed (interrupted)
    per_pair, covered = [], []
    for k in pairs:
        rows, cov = compare_runs(os.path.join(dir_, "base", k), os.path.join(dir_, "change", k),
                                 rule, compare)
        per_pair.append((k, rows))
        covered = covered or cov
    rows = merge_pairs(per_pair)
    problems = [f"{r['what']} {r['verdict']}" + (f": {r['note']}" if r["note"] else "")
                for r in rows if r["state"] in PROBLEM_STATES]
    return rows, covered, problems


def rule_for(case, backend, a):
    """The rule of a case on a backend, and why it is that one."""
    if a.bitwise:
        return Rule(bitwise=True), "--bitwise"
    if a.rtol is not None or a.atol is not None:
        return Rule(a.rtol or 0.0, a.atol or 0.0), "asked for (--rtol, --atol)"
    if backend in NOT_REPRODUCIBLE:
        return Rule(case["rtol"], case["atol"]), \
            f"the case's; {backend} is not reproducible run to run"
    return Rule(bitwise=True), "reproducible run to run (measured: docs/regress-bench.md)"


def not_timed(exits):
    """Why no pair of a case/backend was timed: {side: [exit statuses]}."""
    why = []
    for side in ("base", "change"):
        bad = sorted({e for e in exits[side] if e not in (0, None)})
        if bad:
            n = sum(1 for e in exits[side] if e not in (0, None))
            why.append(f"the {side}'s runs exited {', '.join(map(str, bad))} ({n} of "
                       f"{len(exits[side])})")
    return "; ".join(why) or "no pair completed"


def timings_of(dir_, threshold, min_seconds):
    """Rows of the timing table of one case/backend, problems, and why
    nothing was timed (empty when something was)."""
    pairs, exits, unread = [], {"base": [], "change": []}, []
    for k in subdirs(os.path.join(dir_, "base")):
        b_run, c_run = (os.path.join(dir_, s, k) for s in ("base", "change"))
        exits["base"].append(read_exit(b_run))
        exits["change"].append(read_exit(c_run))
        if read_exit(b_run) != 0 or read_exit(c_run) != 0:
            continue
        try:
            pairs.append((loop_table(load_result(result_json_path(b_run))),
                          loop_table(load_result(result_json_path(c_run)))))
        except ResultError as e:
            print(f"regress_report.py: {e}", file=sys.stderr)
            unread.append(str(e))
    rows, problems = [], []
    if not pairs:
        return rows, problems, "; ".join(unread) or not_timed(exits)
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
    return rows, problems, ""


def screen_rows(results):
    """The results table for the terminal: what is bitwise equal in a group
    (preset, case, backend) takes one line."""
    rows, groups = [], {}
    for r in results:
        groups.setdefault((r["preset"], r["solver"], r["case"], r["backend"]), []).append(r)
    for (preset, solver, case, backend), rs in groups.items():
        shown = [r for r in rs if r["state"] != "equal"]
        same = len(rs) - len(shown)
        if same:
            what = f"(all {same} results)" if not shown else f"(the other {same} results)"
            rows.append([preset, solver, case, backend, what, VERDICT["equal"], "-", "-", "-", ""])
        rows += [[preset, solver, case, backend, r["what"], r["verdict"],
                  fmt_diff(r.get("max_abs")), fmt_diff(r.get("max_rel")),
                  r.get("where") or "-", r.get("note", "")] for r in shown]
    return rows


def fmt_diff(v):
    return "-" if v is None else f"{v:.3g}"


def fmt_ratio(v):
    return "-" if v is None else f"{v:.3f}"


def optional_float(text):
    return None if text in (None, "") else float(text)


def largest(changed):
    """The changed row with the largest relative difference (else absolute)."""
    key = [r for r in changed if r.get("max_rel") is not None or r.get("max_abs") is not None]
    if not key:
        return None
    return max(key, key=lambda r: (r.get("max_rel") or 0.0, r.get("max_abs") or 0.0))


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
    ap.add_argument("--rtol", type=optional_float, default=None)
    ap.add_argument("--atol", type=optional_float, default=None)
    ap.add_argument("--planned", type=int, default=0)
    ap.add_argument("--backend-label", action="append", default=[],
                    help="NAME=TEXT: how a backend ran (\"openmp, 2 threads\")")
    ap.add_argument("--command", default="", help="the command line, all its options")
    ap.add_argument("--host", default="", help="the machine: CPU model, family, model")
    ap.add_argument("--cores", type=int, default=0)
    ap.add_argument("--load-before", type=optional_float, default=None)
    ap.add_argument("--load-after", type=optional_float, default=None)
    ap.add_argument("--compare", default="", help="op2-compare, for the HDF5 files")
    ap.add_argument("--interrupted", action="store_true")
    a = ap.parse_args()
    if not (a.threshold >= 0 and a.min_seconds >= 0):
        ap.error("--threshold and --min-seconds must be >= 0")
    if any(x is not None and not x >= 0 for x in (a.rtol, a.atol)):
        ap.error("--rtol and --atol must be >= 0")
    threshold = a.threshold / 100.0
    cases = read_cases(a.cases)
    labels = dict(x.split("=", 1) for x in a.backend_label if "=" in x)

    results, compared, timings, problems, changed, untimed = [], [], [], [], [], []
    ran, rules = [], {}
    done = 0
    for preset in subdirs(a.runs):
        for case_name in subdirs(os.path.join(a.runs, preset)):
            case = cases.get(case_name)
            if case is None:
                continue
            solver, cname = case_name.split(".", 1)
            for backend in subdirs(os.path.join(a.runs, preset, case_name)):
                rule, why = rule_for(case, backend, a)
                if backend not in ran:
                    ran.append(backend)
                rules.setdefault(backend, set()).add(why)
                d = os.path.join(a.runs, preset, case_name, backend)
                done += sum(read_exit(os.path.join(d, s, k)) is not None
                            for s in ("base", "change") for k in subdirs(os.path.join(d, s)))
                where = {"preset": preset, "solver": solver, "case": cname, "backend": backend}
                rows, covered, probs = results_of(d, rule, a.compare)
                results += [dict(where, **r) for r in rows]
                changed += [dict(where, **r) for r in rows if r["state"] == "changed"]
                if covered:
                    compared.append(dict(where, rule=rule.describe(), rule_why=why,
                                         covered=covered, kinds=kinds_covered(rows)))
                problems += [f"{preset} {solver}/{cname} {backend}: {p}" for p in probs]
                if preset == a.timing_preset:
                    rows, probs, why_not = timings_of(d, threshold, a.min_seconds)
                    timings += [dict(where, **r) for r in rows]
                    problems += [f"{solver}/{cname} {backend}: {p}" for p in probs]
                    if why_not:
                        untimed.append(f"{solver}/{cname} {backend}: nothing timed: {why_not}")

    others = len(problems) - len(changed)
    status = "interrupted" if a.interrupted else \
        "regression" if others else "changed" if changed else "clean"
    busy, load_text = load_verdict(a.load_before, a.load_after, a.cores)
    backends_ran = "; ".join(labels.get(b, b) for b in ran) or "none"
    rule_lines = []
    for b in ran:
        for why in sorted(rules[b]):
            rule_lines.append(f"{b}: {why}" + (f": {NOT_REPRODUCIBLE[b]}"
                                               if why.startswith("the case's") else ""))
    head = ([f"command: {a.command}"] if a.command else []) + \
        ([f"host: {a.host}"] if a.host else []) + [
        f"load: {load_text}",
        f"base: {a.base}", f"change: {a.change}",
        f"runs: {done} of {a.planned}" + (" (interrupted: what was measured so far)"
                                          if a.interrupted else ""),
        f"ran: {backends_ran}",
        f"timing: {a.timing_preset} build; a loop fails when its median time ratio exceeds "
        f"{1 + threshold:.3g} and it was slower in every pair; loops under "
        f"{a.min_seconds:g} s a run are not judged",
        "results: everything each run wrote, every pair, against the base's on the same "
        "backend, preset and machine: " +
        ("any difference fails (--bitwise)" if a.bitwise else
         f"within --rtol {a.rtol or 0:g}, --atol {a.atol or 0:g} (asked for)"
         if a.rtol is not None or a.atol is not None else
         "bitwise (any bit that moves is a result CHANGED), a tolerance only on a backend "
         "not reproducible run to run") + "; " + "; ".join(rule_lines)]

    r_head = ["preset", "solver", "case", "backend", "result", "verdict", "max abs diff",
              "max rel diff", "where", "note"]
    r_rows = [[r["preset"], r["solver"], r["case"], r["backend"], r["what"], r["verdict"],
               fmt_diff(r.get("max_abs")), fmt_diff(r.get("max_rel")), r.get("where") or "-",
               r.get("note", "")] for r in results]
    c_head = ["preset", "solver", "case", "backend", "rule", "compared"]
    c_rows = [[c["preset"], c["solver"], c["case"], c["backend"], c["rule"],
               ", ".join(c["covered"])] for c in compared]
    t_head = ["solver", "case", "backend", "loop", "pairs", "base (s)", "change (s)",
              "ratio", "spread", "verdict"]
    t_rows = [[t["solver"], t["case"], t["backend"], t["loop"], t["pairs"],
               fmt_seconds(t.get("base_median")), fmt_seconds(t.get("change_median")),
               fmt_ratio(t.get("ratio_median")),
               "-" if t.get("ratio_min") is None else
               f"{t['ratio_min']:.3f}-{t['ratio_max']:.3f}", t["verdict"]] for t in timings]
    kinds = []
    for c in compared:
        kinds += [k for k in c["kinds"] if k not in kinds]
    covered = (f"{', '.join(kinds)} of {len(compared)} case run(s), each listed above"
               if compared else "nothing compared")
    judged = sum(1 for t in timings if t["loop"] != "(all loops)" and t.get("verdict") in JUDGED)
    pairs = max((t.get("pairs", 0) for t in timings), default=0)
    timed = (f"no loop slower ({judged} loops judged over {pairs} pairs)" if judged else
             f"no loop judged for time (fewer than {MIN_PAIRS} pairs or all under "
             f"{a.min_seconds:g} s)")
    if busy and judged:
        timed += " on a machine too busy to time"
    top = largest(changed)
    changed_text = ""
    if changed:
        cases_moved = sorted({f"{r['solver']}/{r['case']} {r['backend']}" for r in changed})
        changed_text = (f"{len(changed)} result(s) changed bits where base and change are "
                        f"reproducible to the bit ({', '.join(cases_moved)})")
        if top:
            changed_text += (f"; the largest difference: {top['what']} "
                             f"({top['preset']} {top['solver']}/{top['case']} {top['backend']}), "
                             f"abs {fmt_diff(top.get('max_abs'))}, rel "
                             f"{fmt_diff(top.get('max_rel'))}"
                             + (f" at {top['where']}" if top.get("where") else ""))
    summary = {"clean": f"CLEAN: every result as the base's ({covered}); {timed}",
               "changed": f"RESULTS CHANGED: {changed_text}",
               "regression": f"REGRESSION: {len(problems)} problem(s)"
                             + (f", of which {changed_text}" if changed else ""),
               "interrupted": f"INTERRUPTED after {done} of {a.planned} runs"
                              + (f"; {len(problems)} problem(s) so far" if problems else "")}[status]
    times_none = "(none: " + "; ".join(untimed) + ")" if untimed else "(none)"

    print()
    print("\n".join(head))
    print("\nResults, change against base\n")
    print(text_table(r_head, screen_rows(results)) if results else "(none)")
    print("\nCompared\n")
    print(text_table(c_head, c_rows) if c_rows else "(none)")
    print("\nTimes, median over the pairs (ratio = change / base; spread = smallest-largest "
          "pair ratio)\n")
    print(text_table(t_head, t_rows) if t_rows else times_none)
    if t_rows:
        for u in untimed:
            print(f"  {u}")
    print()
    for p in problems:
        print(f"  {p}")
    if busy:
        print(f"regress: {load_text}")
    print(f"regress: {summary}")

    md = ["# Regression check", ""] + [f"- {h}" for h in head] + [
        "", f"**{summary}**", ""] + [f"- {p}" for p in problems] + [
        "", "## Results, change against base", "",
        md_table(r_head, r_rows) if r_rows else "(none)", "",
        "## What was compared", "",
        md_table(c_head, c_rows) if c_rows else "(none)", "",
        "## Times per loop (median over the pairs; ratio = change / base)", "",
        md_table(t_head, t_rows, right=(4, 5, 6, 7)) if t_rows else times_none, ""] + \
        ([f"- {u}" for u in untimed] + [""] if t_rows and untimed else [])
    os.makedirs(a.out, exist_ok=True)
    write_atomically(os.path.join(a.out, "report.md"), "\n".join(md))
    doc = {"status": status, "command": a.command, "host": a.host, "cores": a.cores,
           "load_before": a.load_before, "load_after": a.load_after, "too_busy_to_time": busy,
           "base": a.base, "change": a.change, "runs_done": done,
           "runs_planned": a.planned, "timing_preset": a.timing_preset, "backends": ran,
           "backend_labels": labels, "threshold_percent": a.threshold,
           "min_seconds": a.min_seconds, "bitwise": bool(a.bitwise), "rtol": a.rtol,
           "atol": a.atol, "problems": problems, "changed": changed,
           "largest_change": top, "results": results, "compared": compared,
           "timings": timings, "not_timed": untimed}
    write_atomically(os.path.join(a.out, "report.json"), json_text(doc))
    print(f"regress: report in {os.path.join(a.out, 'report.md')} and report.json")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    try:
        sys.exit(main())
    except (OSError, ValueError, ResultError) as e:
        print(f"regress_report.py: {e}", file=sys.stderr)
        sys.exit(2)
