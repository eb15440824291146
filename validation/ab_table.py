#!/usr/bin/env python3
"""The table of scripts/gpu-check.sh's ab step: every candidate option of the
GPU backends timed against the current default on every benchmark, in rounds
interleaved in one call. From the runs' result.json files in DIR, each in a
folder BENCH.CANDIDATE.rROUND (the candidate "default" is the run without
options), per benchmark and candidate: the timed loop's seconds of each round
(wall_seconds_main_loop), the best, its ratio to the default's best, and the
verdict the defaults are chosen from: "faster" when every round of the
candidate beat every round of the default, "slower" when every round lost,
else "within noise" (the rounds overlap). Writes OUT (Markdown) and, beside
it, OUT with .csv for .md, each to a temporary name and renamed.

usage: ab_table.py DIR OUT.md
Exit 0, or 2 when DIR holds no run or a result.json cannot be read.
"""
import csv
import json
import os
import re
import sys

RUN = re.compile(r"^([a-z0-9_-]+)\.([a-z0-9_-]+)\.r(\d+)$")


def seconds(path):
    with open(path) as f:
        return float(json.load(f)["wall_seconds_main_loop"])


def verdict(cand, dflt):
    if not cand or not dflt:
        return "no result"
    if max(cand) < min(dflt):
        return "faster"
    if min(cand) > max(dflt):
        return "slower"
    return "within noise"


def write_atomically(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 2 or not os.path.isdir(argv[0]) or not argv[1].endswith(".md"):
        sys.stderr.write(__doc__)
        return 2
    d, out_md = argv
    runs = {}  # (bench, candidate) -> [seconds per round]
    rounds = 0
    try:
        for name in sorted(os.listdir(d)):
            m = RUN.match(name)
            if not m:
                continue
            key = (m.group(1), m.group(2))
            runs.setdefault(key, [])
            rounds = max(rounds, int(m.group(3)))
            res = os.path.join(d, name, "result.json")
            if os.path.isfile(res):
                runs[key].append(seconds(res))
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.stderr.write("ab_table.py: cannot read a result in %s: %s\n" % (d, e))
        return 2
    if not runs:
        sys.stderr.write("ab_table.py: no run BENCH.CANDIDATE.rN in %s\n" % d)
        return 2
    lines = ["| benchmark | candidate | seconds per round | best (s) | best / default's | verdict |",
             "|---|---|---|---|---|---|"]
    rows = [["benchmark", "candidate", "rounds", "best_seconds", "ratio_to_default", "verdict"]]
    benches = sorted({b for b, _ in runs})
    for b in benches:
        dflt = runs.get((b, "default"), [])
        cands = ["default"] + sorted(c for bb, c in runs if bb == b and c != "default")
        for c in cands:
            t = runs.get((b, c), [])
            best = min(t) if t else None
            ratio = best / min(dflt) if t and dflt and min(dflt) > 0 else None
            v = "the default" if c == "default" else verdict(t, dflt)
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                b, c, ", ".join("%.4f" % s for s in t) or "none",
                "%.4f" % best if best is not None else "-",
                "%.3f" % ratio if ratio is not None else "-", v))
            rows.append([b, c, len(t), "%.6f" % best if best is not None else "",
                         "%.4f" % ratio if ratio is not None else "", v])
    text = ("Candidates against the default, %d interleaved round(s); the timed loop's seconds "
            "(wall_seconds_main_loop)\n\n" % rounds) + "\n".join(lines) + "\n"
    out_csv = out_md[:-3] + ".csv"
    try:
        write_atomically(out_md, text)
        tmp = out_csv + ".tmp"
        with open(tmp, "w", newline="") as f:
            csv.writer(f).writerows(rows)
        os.replace(tmp, out_csv)
    except OSError as e:
        sys.stderr.write("ab_table.py: cannot write %s: %s\n" % (out_md, e))
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv[1:]))
