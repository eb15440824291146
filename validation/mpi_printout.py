#!/usr/bin/env python3
"""Checks of what an MPI run prints at its start (docs/mpi.md): the
distribution table (per set and process: owned, core, execute and
non-execute halo, neighbours) and the imbalance of every set.

usage: mpi_printout.py imbalance -- COMMAND [ARGS...]
         runs COMMAND (an MPI run on more than one process), which must exit
         0, and checks that every set of its table has an imbalance, equal
         (to the 3 decimals printed) to the set's largest owned count over
         its mean over the processes.
       mpi_printout.py timing HALO_LOOP REDUCE_LOOP -- COMMAND [ARGS...]
         runs COMMAND likewise and checks its timing table: every loop gives
         compute, halo and reduce seconds, none above the loop's largest time,
         and the two loops named (one that exchanges halos, one that reduces
         over the processes) show time in their column.

Exit 0 when every check holds, 1 when one does not (saying which), 2 on bad
usage or a run that failed or printed no table.
"""
import re
import subprocess
import os
import sys

HEAD = re.compile(r"^OP2 MPI: (\d+) processes; partitioner (\S+ \S+) on set '([^']*)';")
ROW = re.compile(r"^  (\S+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$")
IMBALANCE = re.compile(r"^  imbalance \(largest part / mean\) per set: (.*)$")
TIMING_HEAD = re.compile(r"^  loop +calls +max time \(s\) +mean \(s\) +compute \(s\) +halo \(s\) "
                         r"+reduce \(s\) +share +GB/s$")
NUM = r"([0-9]+(?:\.[0-9]+)?)"
TIMING_ROW = re.compile(r"^  (\S+) +(\d+) +" + r" +".join([NUM] * 5) + r" +[0-9.]+% +[0-9.]+$")


class PrintoutError(Exception):
    pass


def parse(text):
    """The distribution of a run's printout: nprocs, partitioner, prime set,
    rows {set: {rank: (owned, core, exec, nonexec, neighbours)}} (in the order
    printed) and imbalance {set: value}."""
    out = {"nprocs": None, "rows": {}, "imbalance": None}
    for line in text.splitlines():
        m = HEAD.match(line)
        if m:
            out["nprocs"], out["partitioner"], out["prime"] = int(m.group(1)), m.group(2), m.group(3)
            continue
        if out["nprocs"] is None:
            continue
        m = ROW.match(line)
        if m and out["imbalance"] is None:
            out["rows"].setdefault(m.group(1), {})[int(m.group(2))] = tuple(
                int(m.group(k)) for k in range(3, 8))
            continue
        m = IMBALANCE.match(line)
        if m and out["imbalance"] is None:
            out["imbalance"] = {}
            for item in m.group(1).split(","):
                name, _, value = item.strip().rpartition(" ")
                try:
                    out["imbalance"][name] = float(value)
                except ValueError:
                    raise PrintoutError("imbalance line: '%s' is not 'SET VALUE'" % item.strip())
    if out["nprocs"] is None:
        raise PrintoutError("no 'OP2 MPI: N processes' line (a run on one process prints none)")
    if not out["rows"]:
        raise PrintoutError("no rows of the distribution table")
    return out


def check_imbalance(dist):
    """The problems found, as sentences (none: the check holds)."""
    bad = []
    P = dist["nprocs"]
    imb = dist["imbalance"]
    if imb is None:
        return ["no 'imbalance (largest part / mean) per set' line"]
    for name, rows in dist["rows"].items():
        if sorted(rows) != list(range(P)):
            bad.append("set %s: rows for processes %s, not 0 to %d" % (name, sorted(rows), P - 1))
            continue
        owned = [rows[r][0] for r in range(P)]
        expect = max(owned) / (sum(owned) / P) if sum(owned) else 0.0
        if name not in imb:
            bad.append("set %s: no imbalance printed" % name)
        elif abs(imb[name] - expect) > 0.0005 + 1e-12:
            bad.append("set %s: imbalance %.3f printed, but its parts (%s) give %.3f"
                       % (name, imb[name], " ".join(map(str, owned)), expect))
    for name in imb:
        if name not in dist["rows"]:
            bad.append("imbalance of set %s, which the table does not have" % name)
    return bad


def check_timing(text, halo_loop, reduce_loop):
    """The problems found in the timing table of a run on many processes."""
    lines = text.splitlines()
    at = [i for i, l in enumerate(lines) if TIMING_HEAD.match(l)]
    if not at:
        return ["no timing table with compute, halo and reduce columns"]
    rows = {}
    for l in lines[at[0] + 2:]:
        m = TIMING_ROW.match(l)
        if not m:
            break
        rows[m.group(1)] = [float(m.group(k)) for k in range(3, 8)]
    bad = []
    if not rows:
        bad.append("the timing table has no rows")
    for name, (largest, mean, compute, halo, reduce) in rows.items():
        for what, v in (("compute", compute), ("halo", halo), ("reduce", reduce)):
            if v > largest + 0.00005:
                bad.append("loop %s: %s %.4f s above its largest time %.4f s" % (name, what, v, largest))
    for name, col in ((halo_loop, 3), (reduce_loop, 4)):
        if name not in rows:
            bad.append("no row for loop %s" % name)
        elif rows[name][col] <= 0.0:
            bad.append("loop %s: no %s time" % (name, "halo" if col == 3 else "reduce"))
    return bad


def run(command):
    try:
        p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        raise PrintoutError("cannot run %s: %s" % (command[0], e))
    if p.returncode != 0:
        sys.stdout.write(p.stdout)
        raise PrintoutError("the run exited %d" % p.returncode)
    return p.stdout


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    timing = len(argv) >= 5 and argv[0] == "timing" and argv[3] == "--"
    if not timing and (len(argv) < 3 or argv[0] != "imbalance" or argv[1] != "--"):
        sys.stderr.write(__doc__)
        return 2
    try:
        text = run(argv[4:] if timing else argv[2:])
        if timing:
            bad = check_timing(text, argv[1], argv[2])
            for b in bad:
                print("mpi_printout.py: %s" % b)
            if not bad:
                print("mpi_printout.py: every loop's compute, halo and reduce seconds as expected")
            return 1 if bad else 0
        dist = parse(text)
    except PrintoutError as e:
        print("mpi_printout.py: %s" % e, file=sys.stderr)
        return 2
    bad = check_imbalance(dist)
    for b in bad:
        print("mpi_printout.py: %s" % b)
    if bad:
        return 1
    print("mpi_printout.py: imbalance of %d sets on %d processes as their parts give: %s"
          % (len(dist["rows"]), dist["nprocs"],
             ", ".join("%s %.3f" % kv for kv in dist["imbalance"].items())))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv[1:]))
