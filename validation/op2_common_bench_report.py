#!/usr/bin/env python3
"""The report of validation/op2-common-bench.sh: OP2-Common's airfoil beside
this suite's, one host's table, and in docs/performance.md every host's
table with a summary of the ratios over the hosts.

usage: op2_common_bench_report.py WORK [--docs FILE]

WORK holds what the script's runs left:
  times.tsv   one line per run: VARIANT, ROUND, SECONDS (nan: the run failed)
              VARIANT: op2-seq, seq, seq-renumber, op2-openmp-P (OP2's
              OpenMP build with OP_PART_SIZE=P), openmp, openmp-renumber
  meta.txt    KEY=VALUE lines: host_key, host, date, command, suite_commit,
              build, op2_commit, app_commit, tree_commit (of the library and
              translator used), translator, translator_why, threads,
              iterations, rounds, load_before, load_after, load_runs (the
              lowest and highest 1-minute load average after a run), note
  agree.txt   one line per comparison of rms histories (optional)

Writes WORK/table.md (this host's block) and prints it. OP2's OpenMP figure
is its fastest part size: the lowest median over the rounds, each part size
having run once in every round. With --docs, the block replaces this host's
(host_key) between FILE's markers, or joins them, and the summary at their
top is made again from every host's block.

Exit 0; 2 on bad input (a missing file, a malformed line, no OP2 run).
"""
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from result_files import replace_between_markers, write_atomically  # noqa: E402

BEGIN = "<!-- validation/op2-common-bench.sh: begin -->"
END = "<!-- validation/op2-common-bench.sh: end -->"
HOSTS = "<!-- validation/op2-common-bench.sh: hosts -->"
SUMMARY = re.compile(r"<!-- op2-common-bench summary: (\{.*?\}) -->")
BLOCK = re.compile(r"<!-- op2-common-bench host (\S+): begin -->\n.*?<!-- op2-common-bench host \1: end -->\n",
                   re.S)
META_KEYS = ("host_key", "host", "date", "command", "suite_commit", "build", "op2_commit", "app_commit",
             "tree_commit", "translator", "translator_why", "threads", "iterations", "rounds", "load_before",
             "load_after", "load_runs", "note")


def fail(msg):
    print(f"op2_common_bench_report: {msg}", file=sys.stderr)
    sys.exit(2)


def read_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")


def read_meta(path):
    meta = {}
    for n, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        if not sep or key not in META_KEYS:
            fail(f"{path}:{n}: expected KEY=VALUE with KEY one of {', '.join(META_KEYS)}: {line!r}")
        meta[key] = value
    for key in ("host_key", "host", "threads", "translator"):
        if not meta.get(key):
            fail(f"{path}: no {key}")
    if not re.fullmatch(r"[a-z0-9-]+", meta["host_key"]):
        fail(f"{path}: host_key {meta['host_key']!r}: lower-case letters, digits and '-' only")
    return meta


def read_times(path):
    """{variant: [seconds per round, in round order]}, nan for a failed run."""
    times = {}
    for n, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 3 or not re.fullmatch(r"op2-seq|op2-openmp-[1-9][0-9]*|seq|seq-renumber|openmp|"
                                                 r"openmp-renumber", parts[0]):
            fail(f"{path}:{n}: expected VARIANT<TAB>ROUND<TAB>SECONDS: {line!r}")
        try:
            s = float(parts[2])
        except ValueError:
            fail(f"{path}:{n}: seconds {parts[2]!r} is not a number")
        if not (math.isnan(s) or (math.isfinite(s) and s > 0)):
            fail(f"{path}:{n}: seconds {parts[2]!r}: expected a positive time or nan")
        times.setdefault(parts[0], []).append(s)
    return times


def median(values):
    ok = [v for v in values if not math.isnan(v)]
    return statistics.median(ok) if ok else math.nan


def span(values):
    ok = [v for v in values if not math.isnan(v)]
    return f"{min(ok):.2f}-{max(ok):.2f}" if ok else "-"


def secs(v):
    return "-" if math.isnan(v) else f"{v:.2f}"


def ratio(op2, ours):
    return math.nan if math.isnan(op2) or math.isnan(ours) else op2 / ours


def fmt_ratio(r):
    return "-" if math.isnan(r) else f"{r:.2f}x"


def part_sizes(times):
    return sorted(int(v.rsplit("-", 1)[1]) for v in times if v.startswith("op2-openmp-"))


def host_block(meta, times, agree):
    threads = meta["threads"]
    tr = meta["translator"]
    sizes = part_sizes(times)
    if "op2-seq" not in times and not sizes:
        fail("times.tsv holds no run of OP2-Common")
    op2_seq = median(times.get("op2-seq", []))
    medians = {p: median(times[f"op2-openmp-{p}"]) for p in sizes}
    best = min((p for p in sizes if not math.isnan(medians[p])), key=lambda p: medians[p], default=None)
    op2_omp = medians[best] if best is not None else math.nan
    rows = []

    def row(name, variant, base, base_rounds=None):
        v = times[variant]
        m = median(v)
        per_round = ""
        if base_rounds is not None:
            per_round = " ".join("-" if math.isnan(r) else f"{r:.2f}"
                                 for r in (ratio(b, x) for b, x in zip(base_rounds, v)))
        rows.append(f"| {name} | {' '.join(secs(x) for x in v)} | {secs(m)} | {span(v)} | "
                    f"{fmt_ratio(ratio(base, m)) if base is not None else ''} | {per_round} |")
        return m

    suite = {}
    if "op2-seq" in times:
        row(f"OP2-Common seq ({tr})", "op2-seq", None)
    for variant, name in (("seq", "airfoil_seq"), ("seq-renumber", "airfoil_seq renumber=yes")):
        if variant in times:
            suite[variant] = row(name, variant, op2_seq, times.get("op2-seq", []))
    for p in sizes:
        mark = " **(fastest)**" if p == best and len(sizes) > 1 else ""
        row(f"OP2-Common OpenMP ({tr}), {threads} threads, OP_PART_SIZE={p}{mark}", f"op2-openmp-{p}", None)
    for variant, name in (("openmp", f"airfoil_openmp, {threads} threads"),
                          ("openmp-renumber", f"airfoil_openmp renumber=yes, {threads} threads")):
        if variant in times:
            suite[variant] = row(name, variant, op2_omp, times[f"op2-openmp-{best}"] if best else [])

    why = f" (translator-v2 did not run: {meta['translator_why']})" if meta.get("translator_why") else ""
    if len(sizes) > 1:
        parts = (f"OP2's OpenMP run with OP_PART_SIZE = {', '.join(map(str, sizes))} in every round, the "
                 f"fastest median ({best}) taken")
    elif sizes:
        parts = f"OP2's OpenMP run with OP_PART_SIZE = {sizes[0]} only"
    else:
        parts = "no OpenMP run of OP2's"
    lines = [
        f"<!-- op2-common-bench host {meta['host_key']}: begin -->",
        f"#### {meta['host']}",
        "",
        f"- {meta.get('date', '')}; command `{meta.get('command', '')}`; this suite at commit "
        f"{meta.get('suite_commit', '?')} ({meta.get('build', '?')}); {meta.get('rounds', '?')} interleaved rounds "
        f"of {meta.get('iterations', '?')} iterations; load average before the runs {meta.get('load_before', '?')}, "
        f"after {meta.get('load_after', '?')}"
        + (f", between runs {meta['load_runs']} (1 minute)" if meta.get("load_runs") else ""),
    ]
    if meta.get("note"):
        lines.append(f"- {meta['note']}")
    tree = f" of its tree at {meta['tree_commit']}" if meta.get("tree_commit") else ""
    lines.append(f"- OP2-Common {meta.get('op2_commit', '?')} (airfoil as of {meta.get('app_commit', '?')}), "
                 f"generated by its {tr}{tree}{why}, g++ -O3 -march=native; {parts}")
    lines += [f"- {a}" for a in agree if a.strip()]
    lines += ["",
              "| build | rounds (s) | median (s) | range (s) | OP2-Common's median over this | "
              "OP2-Common over this, round by round |",
              "|---|---|---:|---:|---:|---|"]
    lines += rows
    summary = {
        "host": meta["host"], "date": meta.get("date", "")[:10], "commit": meta.get("suite_commit", ""),
        "translator": tr, "part_sizes": sizes, "part_size": best, "threads": threads,
        "iterations": meta.get("iterations", ""), "load": meta.get("load_runs", ""),
        "seq": round(ratio(op2_seq, suite.get("seq", math.nan)), 2),
        "openmp": round(ratio(op2_omp, suite.get("openmp", math.nan)), 2),
    }
    text = json.dumps(summary, ensure_ascii=True).replace("--", "-\\u002d")
    lines += ["", f"<!-- op2-common-bench summary: {text} -->",
              f"<!-- op2-common-bench host {meta['host_key']}: end -->", ""]
    return "\n".join(lines)


def best_build(s):
    return s["translator"] == "translator-v2" and len(s.get("part_sizes") or []) > 1


def summary_table(blocks):
    rows, best = [], []
    for block in blocks:
        m = SUMMARY.search(block)
        if not m:
            continue
        s = json.loads(m.group(1))
        if s.get("part_size") is None:
            parts = "automatic part size"
        elif len(s.get("part_sizes") or []) > 1:
            parts = (f"OpenMP part size {s['part_size']} (fastest of "
                     f"{'-'.join(str(x) for x in (s['part_sizes'][0], s['part_sizes'][-1]))})")
        else:
            parts = f"OpenMP part size {s['part_size']}"
        rows.append(f"| {s['host']} | {s['date']}, commit {s['commit']}, {s['iterations']} iterations | "
                    f"{s.get('load') or '-'} | {s['translator']}, {parts} | "
                    f"{fmt_ratio(s['seq'])} | {fmt_ratio(s['openmp'])} ({s['threads']} threads) |")
        if best_build(s):
            best.append(s)
    if not rows:
        return ""
    out = ["OP2-Common's median time over this suite's, per host (each host's table below):", "",
           "| host | measured | load average (1 minute) between runs | OP2-Common's build | seq | OpenMP |",
           "|---|---|---|---|---:|---:|"] + rows + [""]
    if best:
        def rng(key):
            vals = [s[key] for s in best if not math.isnan(s[key])]
            if not vals:
                return "-"
            lo, hi = min(vals), max(vals)
            return f"{lo:.2f}x" if lo == hi else f"{lo:.2f}x to {hi:.2f}x"
        out += [f"Over the hosts measured against OP2-Common's best build (translator-v2, part size tuned): "
                f"seq {rng('seq')}, OpenMP {rng('openmp')} ({len(best)} host{'s' if len(best) > 1 else ''}).", ""]
    return "\n".join(out)


def merge_docs(path, block, host_key):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        fail(f"{path}: needs one line '{BEGIN}' and one '{END}'")
    inner = text.split(BEGIN, 1)[1].split(END, 1)[0]
    blocks = [m.group(0) for m in BLOCK.finditer(inner)]
    keys = [BLOCK.match(b).group(1) for b in blocks]
    if host_key in keys:
        blocks[keys.index(host_key)] = block
    else:
        blocks.append(block)
    body = summary_table(blocks) + "\n" + HOSTS + "\n\n" + "\n".join(blocks)
    replace_between_markers(path, BEGIN, END, body)


def main(argv):
    args = argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    docs = None
    if len(args) == 3 and args[1] == "--docs":
        docs = args[2]
        args = args[:1]
    if len(args) != 1:
        fail("usage: op2_common_bench_report.py WORK [--docs FILE]")
    work = args[0]
    meta = read_meta(os.path.join(work, "meta.txt"))
    times = read_times(os.path.join(work, "times.tsv"))
    agree_path = os.path.join(work, "agree.txt")
    agree = read_lines(agree_path) if os.path.exists(agree_path) else []
    block = host_block(meta, times, agree)
    write_atomically(os.path.join(work, "table.md"), block)
    print(block, end="")
    if docs:
        merge_docs(docs, block, meta["host_key"])
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main(sys.argv))
