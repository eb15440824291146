#!/usr/bin/env python3
"""The strong-scaling table of scripts/gpu-check.sh's mpi step: from the runs'
result.json files in DIR (airfoil_seq, airfoil_npP, heat_seq, heat_npP,
airfoil_cuda_npP), per solver and process count the timed loop's seconds
(wall_seconds_main_loop), the speed-up over one process and over seq, and
the parallel efficiency (speed-up over one process / P), as Markdown.

usage: mpi_scaling.py DIR
Exit 0, or 2 when DIR holds no run or a result.json cannot be read.
"""
import json
import os
import re
import sys

RUN = re.compile(r"^(airfoil|heat)(_cuda)?_np(\d+)$")


def seconds(path):
    with open(path) as f:
        return float(json.load(f)["wall_seconds_main_loop"])


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        sys.stderr.write(__doc__)
        return 2
    d = argv[0]
    runs = {}
    try:
        for name in sorted(os.listdir(d)):
            m = RUN.match(name)
            res = os.path.join(d, name, "result.json")
            if m and os.path.isfile(res):
                runs[(m.group(1) + (m.group(2) or ""), int(m.group(3)))] = seconds(res)
        seq = {s: seconds(os.path.join(d, s + "_seq", "result.json"))
               for s in ("airfoil", "heat") if os.path.isfile(os.path.join(d, s + "_seq", "result.json"))}
    except (OSError, ValueError, KeyError) as e:
        print("mpi_scaling.py: %s" % e, file=sys.stderr)
        return 2
    if not runs:
        print("mpi_scaling.py: no run in %s" % d, file=sys.stderr)
        return 2
    print("| executable | processes | timed loop (s) | speed-up over 1 process | over seq | efficiency |")
    print("|---|---:|---:|---:|---:|---:|")
    for (solver, P), t in sorted(runs.items()):
        one = runs.get((solver, 1))
        base = seq.get(solver.replace("_cuda", ""))
        print("| %s_mpi%s | %d | %.3f | %s | %s | %s |" % (
            solver.replace("_cuda", ""), "_cuda" if solver.endswith("_cuda") else "", P, t,
            "%.2f" % (one / t) if one else "-", "%.2f" % (base / t) if base else "-",
            "%.0f%%" % (100.0 * one / t / P) if one else "-"))
    for s, t in sorted(seq.items()):
        print("\n%s_seq: %.3f s" % (s, t), end="")
    print()
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv[1:]))
