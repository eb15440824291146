"""The airfoil benchmark against the memory bandwidth of the machine it ran on.

usage: python3 airfoil_targets.py RESULT_JSON COPY_GBS [--max-seconds S]

RESULT_JSON is the result.json of an airfoil run (the standard run: 1000
iterations on the 720000-cell mesh), COPY_GBS the STREAM-like copy bandwidth
measured on the same device (op2-gpu-bandwidth, or op2-cpu-bandwidth on a
CPU). Prints a markdown table: per loop its calls, time, achieved GB/s (OP2's
measure: the bytes the loop must move at least over its time) and that as a
fraction of COPY_GBS, with the targets of the CUDA backend:

  direct loops (save_soln, update)  >= 80% of the copy bandwidth
  res_calc                          >= 50%
  the iterations                    <= S seconds (default 1.0: an H100)

Exit status: 0 when every target is met, 1 when one is not, 2 on bad input.
"""
import json
import os
import sys

DIRECT = ("save_soln", "update")
TARGETS = {"save_soln": 0.80, "update": 0.80, "res_calc": 0.50}


def fail(msg):
    print(f"airfoil_targets.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main(argv):
    args = list(argv[1:])
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    max_seconds = 1.0
    if "--max-seconds" in args:
        i = args.index("--max-seconds")
        if i + 1 >= len(args):
            fail("--max-seconds needs a value")
        try:
            max_seconds = float(args[i + 1])
        except ValueError:
            fail(f"--max-seconds: '{args[i + 1]}' is not a number")
        del args[i:i + 2]
    if len(args) != 2:
        fail("usage: airfoil_targets.py RESULT_JSON COPY_GBS [--max-seconds S]")
    path, copy_text = args
    try:
        copy_gbs = float(copy_text)
    except ValueError:
        fail(f"COPY_GBS: '{copy_text}' is not a number")
    if not copy_gbs > 0:
        fail(f"COPY_GBS must be positive, not {copy_text}")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: {e}")
    if doc.get("solver") != "airfoil" or not isinstance(doc.get("loops"), list):
        fail(f"{path}: not the result.json of an airfoil run")

    met = True
    print(f"airfoil: {doc.get('cells')} cells, {doc.get('iterations')} iterations, "
          f"backend {doc.get('backend')}; copy bandwidth {copy_gbs:.1f} GB/s\n")
    print("| loop | calls | time (s) | GB/s | of copy | target | |")
    print("|---|---:|---:|---:|---:|---:|---|")
    seen = set()
    for lp in doc["loops"]:
        name = lp.get("loop")
        gbs = float(lp.get("gb_per_s", 0.0))
        frac = gbs / copy_gbs
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            seen.add(name)
            ok = frac >= target
            met &= ok
            verdict = "met" if ok else "NOT MET"
        print(f"| {name}{' (direct)' if name in DIRECT else ''} | {lp.get('calls')} | "
              f"{float(lp.get('seconds', 0.0)):.4f} | {gbs:.1f} | {100 * frac:.0f}% | "
              f"{'' if target is None else f'>= {100 * target:.0f}%'} | {verdict} |")
    missing = sorted(set(TARGETS) - seen)
    if missing:
        fail(f"{path}: no timing for loop(s) {', '.join(missing)}")
    wall = float(doc.get("wall_seconds_iterations", float("nan")))
    ok = wall <= max_seconds
    met &= ok
    print(f"| all iterations | | {wall:.4f} | | | <= {max_seconds:g} s | "
          f"{'met' if ok else 'NOT MET'} |")
    print(f"\ntargets: {'all met' if met else 'NOT all met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
