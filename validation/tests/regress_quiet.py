"""Whether a regress.sh run was timed on a machine quiet enough to resolve a
slowdown of one loop: the pairs' time ratios (change / base) of a loop the
change did not touch, which share each run's conditions with the loop it
did, all within a band around 1.

usage: regress_quiet.py REPORT_JSON CONTROL_LOOP BAND

Prints the control loop's ratios; exit 0 when every one is within
[1 / (1 + BAND), 1 + BAND] (quiet), 1 when one is not (noisy), 2 when the
report has no timed pairs of that loop.
"""
import json
import sys
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

path, loop, band = sys.argv[1], sys.argv[2], float(sys.argv[3])
try:
    with open(path, encoding="utf-8") as f:
        timings = json.load(f)["timings"]
except (OSError, ValueError, KeyError) as e:
    print(f"regress_quiet.py: {path}: {e}")
    sys.exit(2)
ratios = next((t.get("ratios") for t in timings if t.get("loop") == loop), None)
if not ratios:
    print(f"regress_quiet.py: {path}: no timed pairs of loop {loop}")
    sys.exit(2)
quiet = all(1 / (1 + band) <= r <= 1 + band for r in ratios)
print(f"{loop}, unchanged, change/base per pair: {' '.join(f'{r:.3f}' for r in ratios)}: "
      + ("quiet" if quiet else "noisy") + f" (band {1 / (1 + band):.3f}-{1 + band:.3f})")
sys.exit(0 if quiet else 1)
