"""Checks op2_common_bench_report.py on made-up runs whose figures are known.

usage: op2_common_bench_report_test.py REPORT_PY WORK_DIR

Cases:
  table     OP2's seq 31 s and the suite's 11 s (medians of three rounds):
            2.82x; OP2's OpenMP at part sizes 256 (median 21 s), 1024 (16 s)
            and 4096 (19 s, though its single fastest round, 14 s, beats
            every other): 1024 is the fastest median and stands for OP2, so
            the suite's 8 s OpenMP is at 2.00x; a failed round (nan) is left
            out of its median; the ratios round by round pair each run with
            OP2's of the same round (OpenMP: at the chosen part size)
  docs      --docs replaces this host's earlier block, keeps another host's
            (translator/c, one part size) and makes the summary again: one
            row a host, and the range over hosts with the best build only
  bad       a malformed line of times.tsv, a meta.txt without a host, no run
            of OP2's: exit 2
"""
import os
import shutil
import subprocess
import sys

from test_checks import check, finish

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

script, work = sys.argv[1:3]


META = """host_key=test-cpu-f1-m2-2
host=Test CPU (family 1, model 2), 2 CPUs (1 thread(s) per core)
date=2026-01-02 03:04 UTC
command=validation/op2-common-bench.sh --rounds 3
suite_commit=0123456789ab
build=build/release
op2_commit=b9e7a58da6e5
app_commit=36e46346659b
translator=translator-v2
translator_why=
threads=2
iterations=1000
rounds=3
load_before=0.10 0.20 0.30
load_after=1.00 1.10 1.20
load_runs=0.50-1.50
"""

TIMES = {
    "op2-seq": [30, 32, 31],
    "seq": [10, 12, 11],
    "op2-openmp-256": [20, 21, 22],
    "op2-openmp-1024": [15, 17, 16],
    "op2-openmp-4096": [14, 19, 19],
    "openmp": [8, "nan", 8],
}


def make(name, meta=META, times=TIMES, extra=None):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, "meta.txt"), "w") as f:
        f.write(meta)
    with open(os.path.join(d, "times.tsv"), "w") as f:
        for variant, values in times.items():
            for r, v in enumerate(values, 1):
                f.write(f"{variant}\t{r}\t{v}\n")
        if extra:
            f.write(extra)
    with open(os.path.join(d, "agree.txt"), "w") as f:
        f.write("seq: the rms history agrees with OP2's seq run\n")
    return d


def run(d, *args):
    p = subprocess.run([sys.executable, script, d, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


# --- table ---
d = make("table")
rc, out = run(d)
check(rc == 0, f"table: exit {rc}\n{out}")
row = {l.split("|")[1].strip(): [c.strip() for c in l.split("|")[2:-1]] for l in out.splitlines()
       if l.startswith("| ") and not l.startswith("| build")}
check(row.get("airfoil_seq", [""] * 5)[1:] == ["11.00", "10.00-12.00", "2.82x", "3.00 2.67 2.82"],
      f"table: airfoil_seq row {row.get('airfoil_seq')}")
fastest = [k for k in row if "(fastest)" in k]
check(fastest == ["OP2-Common OpenMP (translator-v2), 2 threads, OP_PART_SIZE=1024 **(fastest)**"],
      f"table: the fastest part size should be 1024 (median), not {fastest}")
check(row.get("airfoil_openmp, 2 threads", [""] * 5) == ["8.00 - 8.00", "8.00", "8.00-8.00", "2.00x",
                                                          "1.88 - 2.00"],
      f"table: airfoil_openmp row {row.get('airfoil_openmp, 2 threads')}")
check("the fastest median (1024) taken" in out, "table: the chosen part size is named")
check('"seq": 2.82' in out and '"openmp": 2.0' in out, "table: the summary comment carries the ratios")
check(os.path.exists(os.path.join(d, "table.md")), "table: table.md written")

# --- docs ---
docs = os.path.join(work, "performance.md")
other = """<!-- op2-common-bench host other-cpu-f9-m9-2: begin -->
#### Other CPU

| build | rounds (s) | median (s) | range (s) | OP2-Common's median over this |
|---|---|---:|---:|---:|
| OP2-Common seq (translator/c) | 73.21 | 73.21 | - |  |

<!-- op2-common-bench summary: {"host": "Other CPU (family 9, model 9), 2 CPUs", "date": "2026-11-23", "commit": "21a51b40aee3", "translator": "translator/c", "part_sizes": [], "part_size": null, "threads": "2", "iterations": "1000", "load": "idle", "seq": 3.62, "openmp": 4.35} -->
<!-- op2-common-bench host other-cpu-f9-m9-2: end -->
"""
old_mine = """<!-- op2-common-bench host test-cpu-f1-m2-2: begin -->
OLD TABLE OF THIS HOST
<!-- op2-common-bench host test-cpu-f1-m2-2: end -->
"""
with open(docs, "w") as f:
    f.write("# Performance\n\nbefore\n\n<!-- validation/op2-common-bench.sh: begin -->\nold summary\n"
            "<!-- validation/op2-common-bench.sh: hosts -->\n\n" + old_mine + "\n" + other +
            "<!-- validation/op2-common-bench.sh: end -->\n\nafter\n")
rc, out = run(d, "--docs", docs)
text = open(docs).read()
check(rc == 0, f"docs: exit {rc}\n{out}")
check("OLD TABLE OF THIS HOST" not in text and "old summary" not in text, "docs: this host's old block replaced")
check(text.count("host test-cpu-f1-m2-2: begin") == 1 and text.count("host other-cpu-f9-m9-2: begin") == 1,
      "docs: one block a host")
check("| Other CPU (family 9, model 9), 2 CPUs | 2026-11-23, commit 21a51b40aee3, 1000 iterations | idle | "
      "translator/c, automatic part size | 3.62x | 4.35x (2 threads) |" in text, "docs: the other host's summary row")
check("| 0.50-1.50 | translator-v2, OpenMP part size 1024 (fastest of 256-4096) | 2.82x | 2.00x (2 threads) |" in text,
      "docs: this host's summary row")
check("seq 2.82x, OpenMP 2.00x (1 host)" in text, "docs: the range covers the best builds only")
check(text.startswith("# Performance\n\nbefore\n") and text.endswith("after\n"), "docs: outside the markers kept")
rc, _ = run(d, "--docs", docs)
check(open(docs).read() == text, "docs: a second merge of the same block changes nothing")

# --- bad ---
rc, out = run(make("bad_times", extra="op2-seq\tone\n"))
check(rc == 2 and "times.tsv:" in out, f"bad: malformed times.tsv line: exit {rc}\n{out}")
rc, out = run(make("bad_meta", meta=META.replace("host=Test CPU", "hostname=Test CPU")))
check(rc == 2 and "meta.txt" in out, f"bad: meta.txt without host: exit {rc}\n{out}")
rc, out = run(make("no_op2", times={"seq": [1, 2, 3]}))
check(rc == 2 and "no run of OP2-Common" in out, f"bad: no OP2 run: exit {rc}\n{out}")

finish("op2_common_bench_report_test")
