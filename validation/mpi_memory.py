#!/usr/bin/env python3
"""Memory of the MPI executables per process against the one-process build
(docs/mpi.md, "Memory per process"). For each case (a solver and its
arguments) the seq executable's peak resident set is measured, then the MPI
executable's on P processes with each partitioner; the largest process's peak
must be at most 1.3 x (seq's peak / P) + FIXED MB (the MPI library and the
layer's fixed costs).

usage: mpi_memory.py [--build DIR] [--procs LIST] [--partitioners LIST]
                     [--cases LIST] [--size standard|small] [--fixed-mb MB]
                     [--out DIR] [--update-docs FILE] [--note TEXT]
       mpi_memory.py --measure -- COMMAND [ARGS...]

  --build DIR         the build whose executables run (default build/release)
  --procs LIST        process counts, comma-separated (default 1,2,4)
  --partitioners LIST PTSCOTCH,RCB,BLOCK (default all three)
  --cases LIST        heat, airfoil, euler, jacobi-jac, jacobi-dense (default all)
  --size S            standard: the sizes of docs/mpi.md's table; small: a few
                      seconds a run, for the test (default standard)
  --fixed-mb MB       the fixed part of the bound (default 40)
  --out DIR           where runs write (default outputs/mpi-memory)
  --update-docs FILE  also write the table into FILE between its markers
                      "<!-- mpi_memory.py: begin -->" and "<!-- mpi_memory.py: end -->"
  --note TEXT         a line the table carries (the state of the machine)
  --measure           (used through mpirun) runs COMMAND and prints its peak
                      resident set: "mpi_memory: rank R peak K kB"

The MPI runs go through mpirun (--oversubscribe: more processes than cores
are fine, the memory does not depend on speed). jacobi's dense system has no
coordinates: RCB is not run for it. Exit 0 when every run fits its bound, 1
when one does not, 2 on bad usage or a run that failed.
"""
import argparse
import datetime
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys

BEGIN = "<!-- mpi_memory.py: begin -->"
END = "<!-- mpi_memory.py: end -->"
PEAK = re.compile(r"mpi_memory: rank (\d+) peak (\d+) kB")

# name: (solver, arguments) per size. airfoil's mesh is generated on first use.
CASES = {
    "standard": {
        "heat": ("heat", "n=1500 nsteps=2 write_ppm=no write_hdf5=no"),
        "airfoil": ("airfoil", "mesh=meshes/data/new_grid.dat iterations=2 write_solution=no image=none"),
        "euler": ("euler", "nx=1000 ny=1000 max_steps=2 images=no hdf5=none"),
        "jacobi-jac": ("jacobi", "problem=jac nn=1500 max_iters=2 tolerance=0 write_solution=no"),
        "jacobi-dense": ("jacobi", "problem=dense ndim=2000 max_iters=2 tolerance=0 write_solution=no"),
    },
    "small": {
        "heat": ("heat", "n=700 nsteps=2 write_ppm=no write_hdf5=no"),
        "airfoil": ("airfoil", "mesh={out}/airfoil_100x150.dat mesh_i=100 mesh_j=150 iterations=2 "
                    "write_solution=no image=none"),
        "euler": ("euler", "nx=500 ny=500 max_steps=2 images=no hdf5=none"),
        "jacobi-jac": ("jacobi", "problem=jac nn=700 max_iters=2 tolerance=0 write_solution=no"),
        "jacobi-dense": ("jacobi", "problem=dense ndim=1000 max_iters=2 tolerance=0 write_solution=no"),
    },
}
NO_COORDINATES = {"jacobi-dense"}


class RunError(Exception):
    pass


def measure(command):
    """Runs command, prints its peak resident set (this is what mpirun runs)."""
    try:
        pid = os.fork()
    except OSError as e:
        print("mpi_memory: cannot fork: %s" % e, file=sys.stderr)
        return 2
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    rank = os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0"))
    print("mpi_memory: rank %s peak %d kB" % (rank, usage.ru_maxrss), file=sys.stderr, flush=True)
    return os.waitstatus_to_exitcode(status)


def run(command, log):
    """The peaks (kB) of command's processes, by rank; its printout in log."""
    p = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                                OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1"))
    with open(log, "w") as f:
        f.write(" ".join(command) + "\n" + p.stdout)
    if p.returncode != 0:
        raise RunError("%s exited %d (log: %s)" % (" ".join(command), p.returncode, log))
    peaks = {int(r): int(k) for r, k in PEAK.findall(p.stdout)}
    if not peaks:
        raise RunError("%s printed no peak (log: %s)" % (" ".join(command), log))
    return peaks


def table(rows, fixed):
    out = ["| case | partitioner | processes | seq (MB) | bound (MB) | largest process (MB) | "
           "over seq / P | fits |",
           "|---|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        out.append("| %s | %s | %d | %.0f | %.0f | %.0f | %.2f | %s |" % (
            r["case"], r["partitioner"], r["procs"], r["seq_mb"], r["bound_mb"], r["peak_mb"],
            r["peak_mb"] / (r["seq_mb"] / r["procs"]), "yes" if r["fits"] else "**NO**"))
    out.append("")
    out.append("bound = 1.3 x seq / P + %g MB; \"over seq / P\": the largest process's peak over "
               "seq's share" % fixed)
    return "\n".join(out)


def update_docs(path, text):
    with open(path) as f:
        doc = f.read()
    a, b = doc.find(BEGIN), doc.find(END)
    if a < 0 or b < a:
        raise RunError("%s has no %s ... %s markers" % (path, BEGIN, END))
    doc = doc[:a + len(BEGIN)] + "\n" + text + "\n" + doc[b:]
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(doc)
    os.replace(tmp, path)


def main(argv):
    if argv[:2] == ["--measure", "--"] and len(argv) > 2:
        return measure(argv[2:])
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--procs", default="1,2,4")
    ap.add_argument("--partitioners", default="PTSCOTCH,RCB,BLOCK")
    ap.add_argument("--cases", default=",".join(CASES["standard"]))
    ap.add_argument("--size", default="standard", choices=sorted(CASES))
    ap.add_argument("--fixed-mb", type=float, default=40.0)
    ap.add_argument("--out", default="outputs/mpi-memory")
    ap.add_argument("--update-docs")
    ap.add_argument("--note", default="")
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
    cases = a.cases.split(",")
    bad = [c for c in cases if c not in CASES[a.size]] + \
          [p for p in a.partitioners.split(",") if p not in ("PTSCOTCH", "RCB", "BLOCK")]
    if bad or any(p < 1 for p in procs):
        print("mpi_memory.py: unknown case or partitioner, or a bad process count: %s"
              % ", ".join(bad or [a.procs]), file=sys.stderr)
        return 2
    mpirun = shutil.which("mpirun")
    if not mpirun:
        print("mpi_memory.py: mpirun is not installed (scripts/install-deps.sh)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    me = [sys.executable, os.path.abspath(__file__), "--measure", "--"]
    rows = []
    try:
        for case in cases:
            solver, args = CASES[a.size][case]
            args = args.format(out=a.out).split()
            exe = os.path.join(a.build, "solvers", solver, solver + "_%s")
            outdir = os.path.join(a.out, case)
            seq = run(me + [exe % "seq"] + args + ["output_dir=%s/seq" % outdir],
                      os.path.join(a.out, "%s_seq.log" % case))[0] / 1024.0
            print("%s: seq %.0f MB" % (case, seq), flush=True)
            for pt in a.partitioners.split(","):
                if pt == "RCB" and case in NO_COORDINATES:
                    continue
                for P in procs:
                    peaks = run([mpirun, "--oversubscribe", "-np", str(P)] + me + [exe % "mpi"] + args +
                                ["output_dir=%s/mpi" % outdir, "--op-partition=" + pt],
                                os.path.join(a.out, "%s_%s_np%d.log" % (case, pt, P)))
                    if len(peaks) != P:
                        raise RunError("%s on %d processes: %d peaks printed" % (case, P, len(peaks)))
                    peak = max(peaks.values()) / 1024.0
                    bound = 1.3 * seq / P + a.fixed_mb
                    rows.append({"case": case, "partitioner": pt, "procs": P, "seq_mb": seq,
                                 "peak_mb": peak, "bound_mb": bound, "fits": peak <= bound})
                    print("  %-8s np %d: largest process %.0f MB, bound %.0f MB%s"
                          % (pt, P, peak, bound, "" if peak <= bound else "  EXCEEDED"), flush=True)
    except (RunError, OSError) as e:
        print("mpi_memory.py: %s" % e, file=sys.stderr)
        return 2
    text = table(rows, a.fixed_mb)
    print(text)
    if a.update_docs:
        head = ("Taken %s: `validation/mpi_memory.py%s` (peak resident set, `getrusage`'s "
                "`ru_maxrss`, of each process); %s, %d cores; build %s." % (
                    datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                    "".join(" " + shlex.quote(x) for x in argv), platform.processor() or platform.machine(),
                    os.cpu_count() or 0, a.build))
        try:
            update_docs(a.update_docs, head + ("\n\n" + a.note if a.note else "") + "\n\n" + text)
        except (RunError, OSError) as e:
            print("mpi_memory.py: %s" % e, file=sys.stderr)
            return 2
    return 0 if all(r["fits"] for r in rows) else 1


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv[1:]))
