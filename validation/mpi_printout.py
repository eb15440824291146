#!/usr/bin/env python3
"""Checks of what an MPI run prints at its start (docs/mpi.md): the
distribution table (per set and process: owned, core, execute and
non-execute halo, neighbours) and the imbalance of every set.

usage: mpi_printout.py imbalance -- COMMAND [ARGS...]
         runs COMMAND (an MPI run on more than one process), which must exit
         0, and checks that every set of its table has an imbalance, equal
         (to the 3 decimals printed) to the set's largest owned count over
         its mean over the processes.

Exit 0 when every check holds, 1 when one does not (saying which), 2 on bad
usage or a run that failed or printed no table.
"""
import re
import subprocess
import sys

HEAD = re.compile(r"^OP2 MPI: (\d+) processes; partitioner (\S+ \S+) on set '([^']*)';")
ROW = re.compile(r"^  (\S+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$")
IMBALANCE = re.compile(r"^  imbalance \(largest part / mean\) per set: (.*)$")


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
    if len(argv) < 3 or argv[0] != "imbalance" or argv[1] != "--":
        sys.stderr.write(__doc__)
        return 2
    try:
        text = run(argv[2:])
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
    sys.exit(main(sys.argv[1:]))
