#!/usr/bin/env python3
"""Every script and program of the suite answers --help with its usage and
--version with the suite's version, and does nothing else.

usage: help_check.py SOURCE_DIR BUILD_DIR

The scripts are every *.sh and *.py file of the source tree, the test drivers
of the tests/ folders included (run by hand, they say what they are instead of
running their tests), but those listed in NOT_RUN_ALONE (each with why); the
programs are every executable of the build tree but the test drivers
(NOT_PROGRAMS). Each is run as
`X --help` (python3 X --help for a .py file) from an empty scratch folder,
with a PATH whose first entries are stand-ins for the tools a script would
build, install, test or draw with (cmake, ctest, apt-get, gnuplot, ...): a
stand-in that is called leaves a note, and the check fails. It passes when
every one exits 0 within TIMEOUT seconds, prints a line with "usage" on
stdout and nothing on stderr, calls no stand-in and writes nothing in the
scratch folder; and when each answers --version the same way with one line
"NAME (op2suite VERSION, commit ...)".

Exit 0 when all of them do, 1 otherwise (each failure printed).
"""
import os
import re
import stat
import subprocess
import sys
import tempfile

TIMEOUT = 30

# What --version prints: the program's name, the suite's version, the commit.
VERSION_LINE = r"^\S+ \(op2suite \d+\.\d+\S*, commit ([0-9a-f]{7,40}|unknown)"

# Tools a --help must not reach for.
STAND_INS = ["cmake", "ctest", "ninja", "make", "apt-get", "apt", "sudo", "dpkg", "mpirun",
             "mpiexec", "gnuplot", "nvcc", "pvpython", "git", "tar", "valgrind",
             "compute-sanitizer", "nvidia-smi"]

# Files of the source tree that are not run on their own, and why.
NOT_RUN_ALONE = {
    "scripts/lib/help.sh": "sourced by the scripts (it is their --help)",
    "scripts/lib/runs.sh": "sourced by regress.sh and bench.sh",
    "scripts/lib/op2_common.sh": "sourced by gpu-bundle.sh and op2-common-bench.sh",
    "scripts/lib/mpi-wait.sh": "sourced by runs.sh and the launchers that call mpirun",
    "validation/result_compare.py": "a module regress_report.py and bench_report.py import",
    "validation/result_files.py": "a module the report scripts import",
    "validation/host_load.py": "a module the report scripts import",
    "validation/bad_inputs/make_files.sh": "a step of validation/bad_inputs/run.sh, which sets "
                                           "its variables",
    "validation/tests/test_checks.py": "a module the Python tests import",
    "scripts/lib/suite_version.py": "a module the Python scripts import (their --version)",
}

# Executables of the build tree that are test drivers (ctest runs them with
# the arguments it knows), not programs a user runs.
NOT_PROGRAMS = re.compile(r"^(test_.*|io_test_.*|.*_tests?|op2app_.*|common_test_.*|xdmf_check|"
                          r"euler_check|airfoil_tamper_h5|jacobi_jac_exact|compare_make_files|"
                          r"fuzz_.*)$")

failures = []


def fail(what, why, out=""):
    failures.append(what)
    print("FAIL  %s: %s" % (what, why))
    if out.strip():
        print("      " + "\n      ".join(out.strip().splitlines()[-8:]))


def scripts(src):
    found = []
    for d, dirs, names in os.walk(src):
        rel = os.path.relpath(d, src)
        dirs[:] = [x for x in dirs if not x.startswith(".") and x not in ("build", "outputs")
                   and not (rel == "." and x == "docs")]
        for n in names:
            path = os.path.normpath(os.path.join(rel, n))
            if n.endswith((".sh", ".py")) and path not in NOT_RUN_ALONE:
                found.append(path)
    return sorted(found)


def programs(build):
    found = []
    for d, dirs, names in os.walk(build):
        # Not the build's programs: what tests and runs wrote (test-output/, the
        # installed copies and the outside applications of the install test),
        # and the fuzzers with the configure-time probe beside them (libFuzzer
        # programs, run by validation/fuzz/run_fuzz.sh).
        dirs[:] = [x for x in dirs if x not in ("CMakeFiles", "tests", "Testing", "generated",
                                                "test-output", "man", "fuzz")]
        for n in names:
            p = os.path.join(d, n)
            st = os.stat(p)
            if (stat.S_ISREG(st.st_mode) and st.st_mode & stat.S_IXUSR and "." not in n
                    and not NOT_PROGRAMS.match(n)):
                found.append(p)
    return sorted(found)


def stand_ins(where, notes):
    os.makedirs(where)
    for tool in STAND_INS:
        path = os.path.join(where, tool)
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho \"%s $*\" >> '%s'\nexit 1\n" % (tool, notes))
        os.chmod(path, 0o755)


def run(what, cmd, scratch, notes, env, want):
    """Runs cmd in scratch; want: a regular expression its stdout must match."""
    for f in os.listdir(scratch):
        os.remove(os.path.join(scratch, f))
    if os.path.exists(notes):
        os.remove(notes)
    try:
        r = subprocess.run(cmd, cwd=scratch, env=env, capture_output=True, text=True,
                           timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        fail(what, "still running after %d s" % TIMEOUT)
        return
    ok = True
    if r.returncode != 0:
        fail(what, "exit %d, expected 0" % r.returncode, r.stdout + r.stderr)
        ok = False
    if not re.search(want, r.stdout):
        fail(what, "stdout does not match '%s'" % want, r.stdout)
        ok = False
    if r.stderr.strip():
        fail(what, "wrote on stderr", r.stderr)
        ok = False
    if os.path.exists(notes):
        fail(what, "called a tool it does not need to answer", open(notes).read())
        ok = False
    left = os.listdir(scratch)
    if left:
        fail(what, "left files in the folder it ran in: %s" % ", ".join(sorted(left)))
        ok = False
    if ok:
        print("OK    %s" % what)


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(sys.argv) != 3:
        print("usage: help_check.py SOURCE_DIR BUILD_DIR", file=sys.stderr)
        return 2
    src, build = (os.path.abspath(a) for a in sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="help_check.") as tmp:
        scratch = os.path.join(tmp, "cwd")
        os.makedirs(scratch)
        notes = os.path.join(tmp, "called")
        stand_ins(os.path.join(tmp, "bin"), notes)
        env = dict(os.environ, PATH=os.path.join(tmp, "bin") + os.pathsep + os.environ["PATH"])
        found = scripts(src)
        for s in found:
            path = os.path.join(src, s)
            cmd = [sys.executable, path, "--help"] if s.endswith(".py") else ["bash", path, "--help"]
            with open(path) as f:
                if s.endswith(".sh") and f.readline().strip() == "#!/bin/sh":
                    cmd[0] = "sh"
            run(s, cmd, scratch, notes, env, r"(?i)usage")
            run(s + " --version", cmd[:-1] + ["--version"], scratch, notes, env, VERSION_LINE)
        progs = programs(build)
        for p in progs:
            name = os.path.relpath(p, build)
            run(name, [p, "--help"], scratch, notes, env, r"(?i)usage")
            run(name + " --version", [p, "--version"], scratch, notes, env, VERSION_LINE)
        print("help_check: %d scripts and %d programs, %d failed" % (len(found), len(progs),
                                                                      len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main())
