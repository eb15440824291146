#!/usr/bin/env python3
"""The report of scripts/setup-bench.sh: heat's set-up and solve from each
run's result.json, and op2-plan-bench's tables as they were printed.

usage: setup_report.py OUT N THREADS

OUT/runs/heat-<backend>-<cold|warm>/result.json give wall_seconds_setup and
wall_seconds_solve; OUT/runs/plans-<mesh>.log are op2-plan-bench's output.
Prints markdown on stdout; exit 0, or 1 when a run left nothing to report.
"""
import json
import os
import platform
import sys


def cpu_name():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip().split("\n\n", 1)[1].split("\n\n", 1)[0])
        return 0
    if len(argv) != 4:
        print("usage: setup_report.py OUT N THREADS", file=sys.stderr)
        return 2
    out, n, threads = argv[1], argv[2], argv[3]
    missing = 0
    print(f"# Set-up and plans: heat n = {n}, {threads} thread(s), {cpu_name()}, "
          f"{os.cpu_count()} CPUs\n")
    print("| run | set-up (s) | solve (s) | set-up / solve |")
    print("|---|---:|---:|---:|")
    for backend in ("seq", "openmp"):
        for temp in ("cold", "warm"):
            name = f"heat-{backend}-{temp}"
            path = os.path.join(out, "runs", name, "result.json")
            try:
                with open(path, encoding="utf-8") as f:
                    r = json.load(f)
                setup, solve = float(r["wall_seconds_setup"]), float(r["wall_seconds_solve"])
            except (OSError, ValueError, KeyError) as e:
                print(f"| {name} | no result ({e}) | | |")
                missing += 1
                continue
            print(f"| {name} | {setup:.2f} | {solve:.3f} | {setup / solve:.1f} |")
    for mesh in ("heat", "jacobi", "airfoil"):
        path = os.path.join(out, "runs", f"plans-{mesh}.log")
        try:
            with open(path, encoding="utf-8") as f:
                lines = [l.rstrip("\n") for l in f]
        except OSError as e:
            print(f"\nop2-plan-bench {mesh}: no output ({e})")
            missing += 1
            continue
        print(f"\n## op2-plan-bench {mesh}\n")
        for l in lines:
            if l.startswith("|") or not l.startswith("OP2:"):
                print(l)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
