#!/usr/bin/env python3
"""The partition model (op2-partition-model) against runs (docs/performance.md,
"MPI: the partition model"): the counts it predicts from one process must be
those of the executables on P processes, which do not depend on speed, so
oversubscribed runs on a small machine show them.

usage: mpi_model_check.py CASE [--build DIR] [--procs LIST] [--partitioners LIST]
                          [--out DIR]

  CASE               airfoil (C-mesh I = 60, J = 40: 7200 cells) or heat (60 x 60)
  --build DIR        the build to run (default build/release)
  --procs LIST       process counts (default 2,4,8,16)
  --partitioners L   RCB,BLOCK (default both). PT-Scotch's parts change with
                     the process count (the model runs it on one process), so
                     its counts are not the runs' and it is not checked.
  --out DIR          where runs write (default outputs/mpi-model-check)

For each partitioner and process count P it runs the model with P parts
(its --census table: every part's owned elements, execute and non-execute
halo and the processes it receives from, per set) and the executable on P
processes (its distribution table and its halo exchanges per set), and
checks, per set and process, that:
  - owned, execute halo, non-execute halo and neighbours are the model's;
  - the messages of each set's exchanges are the exchanges times the model's
    messages per exchange (the pairs of parts where one sends to the other);
and, on the first process count, from two runs of different lengths, that
each set's exchanges an iteration are the model's (its loops' assumption).
Exit 0 when every count agrees, 1 when one does not, 2 on bad usage or a run
that failed.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_printout  # noqa: E402

EXCHANGES = re.compile(r"^  halo exchanges of set (\S+): (\d+) of a dat, (\d+) messages,", re.M)
PER_ITER = re.compile(r"^halo exchanges an iteration:(.*)$", re.M)
LIB = {"RCB": "GEOM:RCB", "BLOCK": "BLOCK:BLOCK"}
CASES = {
    # model arguments, executable, arguments, the key that sets the iterations
    "airfoil": (["airfoil", "60", "40"], "airfoil", "mesh={out}/airfoil_60x40.dat mesh_i=60 mesh_j=40 "
                "write_solution=no image=none", "iterations"),
    "heat": (["heat", "60"], "heat", "n=60 write_ppm=no write_hdf5=no", "nsteps"),
}


class CheckError(Exception):
    pass


def run(command, log):
    p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                                OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
    with open(log, "w") as f:
        f.write(" ".join(command) + "\n" + p.stdout)
    if p.returncode != 0:
        raise CheckError("%s exited %d (log: %s)" % (" ".join(command), p.returncode, log))
    return p.stdout


def exchanges(text):
    return {s: (int(e), int(m)) for s, e, m in EXCHANGES.findall(text)}


def main(argv):
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("case", nargs="?")
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--procs", default="2,4,8,16")
    ap.add_argument("--partitioners", default="RCB,BLOCK")
    ap.add_argument("--out", default="outputs/mpi-model-check")
    ap.add_argument("-h", "--help", action="store_true")
    try:
        a = ap.parse_args(argv)
        procs = [int(p) for p in a.procs.split(",")]
    except (SystemExit, ValueError):
        sys.stderr.write(__doc__)
        return 2
    if a.help:
        print(__doc__)
        return 0
    pts = a.partitioners.split(",")
    if a.case not in CASES or any(p not in LIB for p in pts) or any(p < 2 for p in procs):
        sys.stderr.write(__doc__)
        return 2
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("mpi_model_check.py: mpirun is not installed", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    margs, solver, args, iter_key = CASES[a.case]
    args = args.format(out=a.out).split()
    exe = os.path.join(a.build, "solvers", solver, solver + "_mpi")
    model = os.path.join(a.build, "tools", "op2-partition-model")
    census_csv = os.path.join(a.out, "%s_census.csv" % a.case)
    bad = []
    try:
        text = run([model] + margs + ["--parts", ",".join(map(str, procs)), "--partitioners",
                                      ",".join(LIB[p] for p in pts), "--census", census_csv],
                   os.path.join(a.out, "%s_model.log" % a.case))
        m = PER_ITER.search(text)
        if not m:
            raise CheckError("the model printed no 'halo exchanges an iteration' line")
        words, per_iter = m.group(1).split(), {}
        for k in range(0, len(words) - 2, 3):
            per_iter[words[k]] = per_iter.get(words[k], 0) + int(words[k + 2])
        census = {}
        with open(census_csv) as f:
            for r in csv.DictReader(f):
                key = (r["partitioner"].split()[-1] if r["partitioner"] != "GEOM RCB" else "RCB",
                       int(r["parts"]))
                census.setdefault(key, {}).setdefault(r["set"], {})[int(r["part"])] = r
        for pt in pts:
            for P in procs:
                c = census.get((pt, P))
                if not c:
                    raise CheckError("the census has no rows for %s on %d parts" % (pt, P))
                lengths = (2, 4) if P == procs[0] else (2,)
                texts = [run([mpirun, "--oversubscribe", "-np", str(P), exe] + args +
                             ["%s=%d" % (iter_key, k), "--op-partition=" + pt,
                              "output_dir=%s/%s_%s_np%d" % (a.out, a.case, pt, P)],
                             os.path.join(a.out, "%s_%s_np%d_%d.log" % (a.case, pt, P, k)))
                         for k in lengths]
                dist = mpi_printout.parse(texts[0])
                what = "%s %s np %d" % (a.case, pt, P)
                for s, rows in dist["rows"].items():
                    for r, v in rows.items():
                        want = c[s][r]
                        got = {"owned": v[0], "exec": v[2], "nonexec": v[3], "recv_from": v[4]}
                        for k, x in got.items():
                            if int(want[k]) != x:
                                bad.append("%s: set %s, process %d: %s %d, the model %s"
                                           % (what, s, r, k, x, want[k]))
                ex = exchanges(texts[0])
                for s, (e, msgs) in ex.items():
                    per_exchange = sum(int(v["send_to"]) for v in c[s].values())
                    if msgs != e * per_exchange:
                        bad.append("%s: set %s: %d messages in %d exchanges, the model %d an exchange"
                                   % (what, s, msgs, e, per_exchange))
                if len(texts) == 2:
                    ex2 = exchanges(texts[1])
                    for s, n in per_iter.items():
                        got = (ex2.get(s, (0, 0))[0] - ex.get(s, (0, 0))[0]) / (lengths[1] - lengths[0])
                        if got != n:
                            bad.append("%s: set %s: %g exchanges an iteration, the model %d"
                                       % (what, s, got, n))
                print("%s: %d sets x %d processes%s" % (what, len(dist["rows"]), P,
                      ", exchanges an iteration checked" if len(texts) == 2 else ""), flush=True)
    except (CheckError, mpi_printout.PrintoutError, OSError, KeyError) as e:
        print("mpi_model_check.py: %s" % e, file=sys.stderr)
        return 2
    for b in bad:
        print("mpi_model_check.py: %s" % b)
    if not bad:
        print("mpi_model_check.py: the model's halos, neighbours and messages are the runs'")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv[1:]))
