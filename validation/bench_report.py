"""The report of scripts/bench.sh: median time and achieved GB/s of every
benchmark on every backend, beside the published figures, with the machine,
commit and compiler; JSON, CSV and plots beside it.

usage: bench_report.py --runs DIR --out DIR --published CSV --size full|small
         [--cases FILE] [--compare OP2_COMPARE] [--failed TEXT]...
         [--commit C] [--compiler C] [--gpu G] [--mpi M] [--compile-commands F]
         [--build DIR] [--note TEXT] [--copy-one GBS] [--copy-all GBS]
         [--copy-gpu GBS] [--threads N] [--planned N] [--interrupted]
         [--backend-label NAME=TEXT]... [--docs MD --docs-images DIR]
         [--command TEXT] [--host TEXT] [--cores N] [--load-before L]
         [--load-after L]

DIR holds SOLVER/BACKEND/K/{exit,log,out/}, out/ being the run's output_dir.
A run is a timing only when it exited 0 and every verdict of its result.json
passed; the others are listed as failed, with the verdict that failed. Every
timing's results are compared with those of its benchmark's base run, the
first timing on seq (else on the first backend measured), everything the run
wrote (result_compare.py), bitwise, else within the benchmark's tolerance
(--cases, validation/bench_cases.txt); one whose results differ beyond it is
kept in the tables and flagged. Writes report.md, bench.json, bench.csv and,
where matplotlib imports, bench-time.png (the time per backend against the
published bars) and bench-loops.png (each loop's achieved GB/s against the
copy bandwidth measured in the same run). With --docs, the report also
replaces the part of MD between the lines "<!-- scripts/bench.sh: begin -->"
and "<!-- scripts/bench.sh: end -->", and the plots go to --docs-images.
Exit 0; 1 a run failed or a timing's results differ from the base's; 2 bad
input.

What ran, where: the command line as given (--command), the host (--host:
CPU model, family and model), the commit (and whether the tree had
uncommitted changes), the load average before and after the runs against
the cores, and whether that made the machine too busy to time
(host_load.py), on the terminal and in the report.

Time of a run: the solve as result.json gives it (result_files.main_seconds);
GB/s of a run: the bytes of all its loops (OP2's count) over their seconds.
"""
import argparse
import csv
import datetime
import io
import json
import os
import platform
import shlex
import sys

from host_load import load_verdict
from result_compare import PROBLEM_STATES, Rule, compare_runs, read_exit, result_json_path
from result_files import (ResultError, fmt_seconds, json_text, load_result, loop_table,
                          main_seconds, md_table, median, replace_between_markers, text_table,
                          write_atomically)

BEGIN = "<!-- scripts/bench.sh: begin -->"
END = "<!-- scripts/bench.sh: end -->"
ORDER = ("seq", "openmp", "cuda", "offload", "mpi", "mpi_openmp")


def optional_float(text):
    return None if text in (None, "") else float(text)


def read_published(path):
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    need = ("benchmark", "label", "device", "precision", "seconds", "compare_with", "kind",
            "source")
    for n, r in enumerate(rows, 1):
        if any(r.get(k) in (None, "") for k in need):
            raise ValueError(f"{path}: figure {n}: every one of {', '.join(need)} is needed")
        try:
            r["seconds"] = float(r["seconds"])
        except ValueError:
            raise ValueError(f"{path}: figure {n}: seconds '{r['seconds']}' is not a number") \
                from None
        if not r["seconds"] > 0:
            raise ValueError(f"{path}: figure {n}: seconds must be positive")
    return rows


def subdirs(path):
    if not os.path.isdir(path):
        return []
    return sorted(d for d in os.listdir(path) if os.path.isdir(os.path.join(path, d)))


def backend_order(b):
    return ORDER.index(b) if b in ORDER else len(ORDER)


def read_tolerances(path, size):
    """{solver: Rule} of the benchmarks of this size in the cases file
    (solver size rtol atol deck arguments...)."""
    rules = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#") or len(words) < 2 or words[1] != size:
                continue
            try:
                rules[words[0]] = Rule(float(words[2]), float(words[3]))
            except (IndexError, ValueError) as e:
                raise ValueError(f"{path}:{n}: expected solver, size, rtol, atol (numbers >= 0), "
                                 f"deck: {e}") from None
    return rules


def failed_verdicts(doc):
    """The verdicts of a result.json that did not pass, in words."""
    checks = doc.get("validation", {}).get("checks", [])
    bad = [f"{c.get('name')} ({c.get('value')} {c.get('comparison')} {c.get('limit')})"
           for c in checks if isinstance(c, dict) and c.get("passed") is not True]
    if not bad and doc.get("validation", {}).get("passed") is not True:
        bad.append("validation.passed is not true")
    return bad


def compare_with_base(solver, backend, runs, base, rule, compare):
    """(state, notes): the results of a backend's timings against the base
    run's: "base", "equal", "within" or "differ", and a line per run that
    differs."""
    states, notes = [], []
    for k, run in runs:
        if base and run == base[2]:
            states.append("base")
            continue
        rows, _ = compare_runs(base[2], run, rule, compare)
        bad = [r for r in rows if r["state"] in PROBLEM_STATES]
        states.append("differ" if bad else "within" if any(r["state"] == "within" for r in rows)
                      else "equal")
        if bad:
            shown = "; ".join(f"{r['what']} {r['verdict']}" + (f" ({r['note']})" if r["note"]
                                                              else "") for r in bad[:3])
            more = f"; {len(bad) - 3} more" if len(bad) > 3 else ""
            notes.append(f"{solver} {backend} run {k}: results differ from the base's "
                         f"({base[0]} run {base[1]}): {shown}{more}")
    order = ("equal", "base", "within", "differ")  # the base backend says "base" where its runs agree
    return max(states, key=order.index) if states else "equal", notes


def collect(runs_dir, rules=None, compare=None):
    """{solver: {backend: stats}} of the timings, the runs that are not
    timings (failed), and the timings whose results differ from the base's."""
    data, failed, flagged = {}, [], []
    for solver in subdirs(runs_dir):
        timings = {}
        for backend in sorted(subdirs(os.path.join(runs_dir, solver)), key=backend_order):
            times, gbs, loops, time_key, runs = [], [], {}, None, []
            for k in subdirs(os.path.join(runs_dir, solver, backend)):
                run = os.path.join(runs_dir, solver, backend, k)
                rc = read_exit(run)
                if rc is None:
                    continue  # not completed
                if rc != 0:
                    failed.append(f"{solver} {backend} run {k}: exit status {rc} "
                                  f"({os.path.join(run, 'log')})")
                    continue
                try:
                    doc = load_result(result_json_path(run))
                    t, time_key = main_seconds(doc, result_json_path(run))
                except ResultError as e:
                    failed.append(str(e))
                    continue
                bad = failed_verdicts(doc)
                if bad:
                    failed.append(f"{solver} {backend} run {k}: not a timing: the verdict "
                                  f"{', '.join(bad)} failed")
                    continue
                table = loop_table(doc)
                seconds = sum(s for _, s, _ in table.values())
                times.append(t)
                runs.append((k, run))
                gbs.append(sum(b for _, _, b in table.values()) / seconds * 1e-9
                           if seconds > 0 else 0.0)
                for name, (calls, s, b) in table.items():
                    loops.setdefault(name, []).append((calls, s, b / s * 1e-9 if s > 0 else 0.0))
            if not times:
                continue
            timings[backend] = runs
            data.setdefault(solver, {})[backend] = {
                "runs": len(times), "times": times, "time_key": time_key,
                "median": median(times), "min": min(times), "max": max(times),
                "gb_per_s": median(gbs),
                "loops": {n: {"calls": median([c for c, _, _ in v]),
                              "seconds": median([s for _, s, _ in v]),
                              "gb_per_s": median([g for _, _, g in v])}
                          for n, v in loops.items()}}
        if not timings:
            continue
        first = "seq" if "seq" in timings else next(iter(timings))
        base = (first, timings[first][0][0], timings[first][0][1])
        rule = (rules or {}).get(solver, Rule())
        for backend, runs in timings.items():
            state, notes = compare_with_base(solver, backend, runs, base, rule, compare)
            data[solver][backend]["results"] = state
            data[solver][backend]["results_base"] = f"{base[0]} run {base[1]}"
            data[solver][backend]["results_rule"] = rule.describe()
            flagged += notes
    return data, failed, flagged


RESULTS_WORDS = {"base": "base", "equal": "bitwise equal", "within": "within tolerance",
                 "differ": "DIFFERENT"}


def results_word(st):
    return RESULTS_WORDS.get(st.get("results"), "-")


def proc_line(path, prefix):
    """The first line of a /proc file that starts with prefix, or None."""
    try:
        with open(path, encoding="utf-8") as f:
            return next((line for line in f if line.startswith(prefix)), None)
    except OSError:
        return None


def cpu_model():
    line = proc_line("/proc/cpuinfo", "model name")
    return line.split(":", 1)[1].strip() if line else (platform.processor() or "unknown")


def memory_gib():
    line = proc_line("/proc/meminfo", "MemTotal:")
    try:
        return int(line.split()[1]) / 1024 / 1024
    except (AttributeError, ValueError, IndexError):
        return None


def compile_flags(path):
    """The optimisation flags a solver was compiled with, from compile_commands.json."""
    try:
        with open(path, encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, ValueError):
        return ""
    for e in entries:
        if "/solvers/" in e.get("file", "") and e.get("command"):
            words = shlex.split(e["command"])
            return " ".join(w for w in words[1:]
                            if w.startswith(("-O", "-m", "-f", "-std")))
    return ""


def copy_for(backend, copy):
    """The copy bandwidth a backend's loops are held against."""
    if backend == "seq":
        return copy["one_thread"]
    if backend in ("cuda", "offload"):
        return copy["gpu"]
    return copy["all_threads"]


def comparisons(data, published, size):
    """Each published figure with the measured time it is compared with."""
    rows = []
    for p in published:
        measured = data.get(p["benchmark"], {})
        row = dict(p)
        row["measured_backend"] = row["measured_seconds"] = row["ratio"] = None
        if size == "full" and measured:
            backend = p["compare_with"] if p["compare_with"] in measured else \
                min(measured, key=lambda b: measured[b]["median"])
            row["measured_backend"] = backend
            row["measured_seconds"] = measured[backend]["median"]
            row["ratio"] = row["measured_seconds"] / p["seconds"]
        rows.append(row)
    return rows


def plots(data, comps, copy, labels, out, size):
    """bench-time.png and bench-loops.png; the names written, or [] without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, NullFormatter
    except ImportError:
        print("bench_report.py: matplotlib not found: no plots "
              "(scripts/install-deps.sh installs python3-matplotlib)", file=sys.stderr)
        return []
    solvers = list(data)
    if not solvers:
        return []
    written = []
    colours = {"seq": "#4c72b0", "openmp": "#55a868", "cuda": "#c44e52", "offload": "#dd8452",
               "mpi": "#8172b2", "mpi_openmp": "#ccb974"}

    fig, axes = plt.subplots(1, len(solvers), figsize=(3.2 * len(solvers) + 1, 4.2), squeeze=False)
    for ax, solver in zip(axes[0], solvers):
        names, values, lo, hi, cols, hatches = [], [], [], [], [], []
        for b, st in data[solver].items():
            names.append(labels.get(b, b))
            values.append(st["median"])
            lo.append(st["median"] - st["min"])
            hi.append(st["max"] - st["median"])
            cols.append(colours.get(b, "#777777"))
            hatches.append("")
        if size == "full":
            for c in comps:
                if c["benchmark"] == solver:
                    names.append(f"{c['label']}\n({c['device']})")
                    values.append(c["seconds"])
                    lo.append(0)
                    hi.append(0)
                    cols.append("#dddddd")
                    hatches.append("//")
        x = range(len(names))
        bars = ax.bar(x, values, yerr=[lo, hi], color=cols, edgecolor="#333333", capsize=3)
        for bar, h in zip(bars, hatches):
            bar.set_hatch(h)
        ax.set_yscale("log")
        ax.margins(y=0.12)
        plain = FuncFormatter(lambda v, _: f"{v:g}")
        ax.yaxis.set_major_formatter(plain)
        low, high = ax.get_ylim()
        # Minor ticks labelled only within a decade, where no major one may fall.
        ax.yaxis.set_minor_formatter(plain if high / low < 10 else NullFormatter())
        ax.tick_params(axis="y", which="both", labelsize=7)
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize=7)
        ax.set_title(solver)
        ax.set_ylabel("time of the solve (s)")
        for xi, v in zip(x, values):
            ax.annotate(f"{v:.3g}", (xi, v), ha="center", va="bottom", fontsize=7)
    fig.suptitle("Median time per backend (bars: min to max of the runs); "
                 + ("hatched: published" if size == "full" else "reduced decks"), fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bench-time.png"), dpi=110)
    plt.close(fig)
    written.append("bench-time.png")

    fig, axes = plt.subplots(1, len(solvers), figsize=(3.6 * len(solvers) + 1, 4.2), squeeze=False)
    for ax, solver in zip(axes[0], solvers):
        backends = list(data[solver])
        loop_names = []
        for b in backends:
            loop_names += [n for n in data[solver][b]["loops"] if n not in loop_names]
        width = 0.8 / max(1, len(backends))
        for i, b in enumerate(backends):
            lp = data[solver][b]["loops"]
            ax.bar([j + i * width for j in range(len(loop_names))],
                   [lp[n]["gb_per_s"] if n in lp else 0 for n in loop_names], width,
                   color=colours.get(b, "#777777"), label=labels.get(b, b))
        seen = set()
        for b in backends:
            c = copy_for(b, copy)
            if c > 0 and c not in seen:
                seen.add(c)
                ax.axhline(c, color=colours.get(b, "#777777"), linestyle="--", linewidth=1)
                ax.annotate(f"copy {c:.1f} GB/s", (len(loop_names) - 0.5, c), ha="right",
                            va="bottom", fontsize=7)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(loop_names))])
        ax.set_xticklabels(loop_names, rotation=60, ha="right", fontsize=7)
        ax.set_title(solver)
        ax.set_ylabel("achieved GB/s (OP2's bytes / time)")
        ax.legend(fontsize=7)
    fig.suptitle("Each loop's bandwidth against the copy bandwidth measured in the same run "
                 "(dashed)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "bench-loops.png"), dpi=110)
    plt.close(fig)
    written.append("bench-loops.png")
    return written


def report_md(a, machine, data, comps, failed, flagged, images, image_prefix):
    copy = machine["copy_gb_per_s"]
    labels = machine["backends"]
    lines = []
    if a.interrupted:
        lines += [f"**Interrupted** after {machine['runs_done']} of {a.planned} runs: what was "
                  "measured so far.", ""]
    if machine["too_busy_to_time"]:
        lines += [f"**{machine['load']}**", ""]
    if a.size == "small":
        lines += ["**Reduced decks** (`--size small`): a check of the command, not comparable "
                  "with the published figures.", ""]
    gpu = machine["gpu"] or "none"
    lines += [
        f"- machine: {machine['cpu']}, {machine['cores']} cores"
        + (f", {machine['memory_gib']:.0f} GiB" if machine["memory_gib"] else "")
        + f"; GPU: {gpu}",
        f"- commit {machine['commit']}, {a.build}; {machine['compiler']}; "
        f"flags `{machine['flags']}`" + (f"; {machine['mpi']}" if machine["mpi"] else ""),
        f"- copy bandwidth (op2-cpu-bandwidth, same run): {copy['one_thread']:.1f} GB/s with "
        f"1 thread, {copy['all_threads']:.1f} GB/s with {a.threads} threads"
        + (f"; GPU (op2-gpu-bandwidth): {copy['gpu']:.0f} GB/s" if copy["gpu"] else ""),
        f"- {machine['date']}; command `{machine['command']}`",
        f"- {machine['load']}"]
    if a.note:
        lines.append(f"- {a.note}")
    lines += ["", "Time of the solve (the timed loop of iterations or steps, as the run "
              "prints it), median of the runs that passed their verdicts; GB/s: the bytes of "
              "all loops by OP2's count over their time, against the copy bandwidth of the same "
              "run; results: everything the runs wrote against the benchmark's base run "
              "(the first on seq), bitwise or within the tolerance of "
              "validation/bench_cases.txt.", ""]
    rows = []
    for solver, per in data.items():
        for b, st in per.items():
            c = copy_for(b, copy)
            rows.append([solver, labels.get(b, b), st["runs"], f"{st['median']:.3g}",
                         f"{st['min']:.3g}-{st['max']:.3g}", f"{st['gb_per_s']:.1f}",
                         f"{100 * st['gb_per_s'] / c:.0f}%" if c > 0 else "-",
                         results_word(st)])
    lines.append(md_table(["benchmark", "backend", "runs", "median (s)", "min-max (s)", "GB/s",
                           "of copy", "results"], rows, right=(2, 3, 4, 5, 6)))
    if flagged:
        lines += ["", "**Timings whose results differ from the base's** (measured, but not of "
                  "the same computation):", ""] + [f"- {f}" for f in flagged]
    if a.size == "full":
        lines += ["", "Against the published figures (ratio: the time here over theirs; below 1 "
                  "is faster here):", ""]
        rows = []
        for c in comps:
            here = "-" if c["measured_backend"] is None else \
                f"{c['measured_seconds']:.3g} ({labels.get(c['measured_backend'], c['measured_backend'])})"
            rows.append([c["benchmark"], c["label"], c["device"], c["precision"],
                         f"{c['seconds']:g}", here,
                         "-" if c["ratio"] is None else f"{c['ratio']:.2f}",
                         c["source"] + ("" if c["kind"] == "published" else " (not published)")])
        lines.append(md_table(["benchmark", "figure", "device", "precision", "seconds",
                               "here (s)", "ratio", "source"], rows, right=(4, 5, 6)))
        without = [s for s in data if not any(c["benchmark"] == s for c in comps)]
        if without:
            lines += ["", f"No published time for: {', '.join(without)} (the bandwidth above is "
                      "its measure)."]
    lines += ["", "Per loop (median of the runs):", ""]
    rows = []
    for solver, per in data.items():
        for b, st in per.items():
            c = copy_for(b, copy)
            for name, lp in st["loops"].items():
                rows.append([solver, labels.get(b, b), name, f"{lp['calls']:.0f}",
                             fmt_seconds(lp["seconds"]), f"{lp['gb_per_s']:.1f}",
                             f"{100 * lp['gb_per_s'] / c:.0f}%" if c > 0 else "-"])
    lines.append(md_table(["benchmark", "backend", "loop", "calls", "time (s)", "GB/s",
                           "of copy"], rows, right=(3, 4, 5, 6)))
    if images:
        lines += [""] + [f"![{name[:-4]}]({image_prefix}{name})" for name in images]
    if failed:
        lines += ["", "Failed runs (not timings):", ""] + [f"- {f}" for f in failed]
    return "\n".join(lines) + "\n"


def update_docs(path, body, images, out, image_dir):
    os.makedirs(image_dir, exist_ok=True)
    for name in images:
        with open(os.path.join(out, name), "rb") as f:
            write_atomically(os.path.join(image_dir, name), f.read())
    replace_between_markers(path, BEGIN, END, body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--published", required=True)
    ap.add_argument("--size", choices=("full", "small"), required=True)
    ap.add_argument("--cases", help="the benchmarks' tolerances (validation/bench_cases.txt); "
                    "without: bitwise")
    ap.add_argument("--compare", help="op2-compare, for the HDF5 files")
    ap.add_argument("--failed", action="append", default=[],
                    help="a run that failed outside DIR (the CUDA tuning run), in words")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--compiler", default="")
    ap.add_argument("--gpu", default="")
    ap.add_argument("--mpi", default="")
    ap.add_argument("--compile-commands", default="")
    ap.add_argument("--build", default="build/release", help="the build folder the runs came from")
    ap.add_argument("--note", default="")
    ap.add_argument("--copy-one", type=float, default=0.0)
    ap.add_argument("--copy-all", type=float, default=0.0)
    ap.add_argument("--copy-gpu", type=float, default=0.0)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--planned", type=int, default=0)
    ap.add_argument("--interrupted", action="store_true")
    ap.add_argument("--backend-label", action="append", default=[])
    ap.add_argument("--docs")
    ap.add_argument("--docs-images")
    ap.add_argument("--command", default="", help="the command line, all its options")
    ap.add_argument("--host", default="", help="the machine: CPU model, family, model")
    ap.add_argument("--cores", type=int, default=os.cpu_count() or 0)
    ap.add_argument("--load-before", type=optional_float, default=None)
    ap.add_argument("--load-after", type=optional_float, default=None)
    a = ap.parse_args()
    if a.docs and not a.docs_images:
        ap.error("--docs needs --docs-images")

    published = read_published(a.published)
    data, failed, flagged = collect(a.runs, read_tolerances(a.cases, a.size) if a.cases else {},
                                    a.compare)
    failed = a.failed + failed
    labels = dict(x.split("=", 1) for x in a.backend_label if "=" in x)
    copy = {"one_thread": a.copy_one, "all_threads": a.copy_all, "gpu": a.copy_gpu}
    busy, load_text = load_verdict(a.load_before, a.load_after, a.cores)
    machine = {
        "cpu": a.host or cpu_model(), "cores": a.cores, "memory_gib": memory_gib(),
        "gpu": a.gpu, "commit": a.commit, "compiler": a.compiler, "mpi": a.mpi,
        "flags": compile_flags(a.compile_commands) if a.compile_commands else "",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": a.command or "scripts/bench.sh (options not recorded)",
        "load_before": a.load_before, "load_after": a.load_after, "too_busy_to_time": busy,
        "load": load_text,
        "copy_gb_per_s": copy, "backends": labels,
        "runs_done": sum(st["runs"] for per in data.values() for st in per.values()),
    }
    comps = comparisons(data, published, a.size)
    os.makedirs(a.out, exist_ok=True)
    images = plots(data, comps, copy, labels, a.out, a.size)

    body = report_md(a, machine, data, comps, failed, flagged, images, "")
    write_atomically(os.path.join(a.out, "report.md"), "# Benchmarks\n\n" + body)
    doc = {"status": "interrupted" if a.interrupted else "done", "size": a.size,
           "machine": machine, "benchmarks": data, "published": comps, "failed_runs": failed,
           "flagged_timings": flagged,
           "runs_planned": a.planned}
    write_atomically(os.path.join(a.out, "bench.json"), json_text(doc))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["benchmark", "backend", "loop", "runs", "calls", "seconds_median",
                "seconds_min", "seconds_max", "gb_per_s", "copy_gb_per_s", "results"])
    for solver, per in data.items():
        for b, st in per.items():
            w.writerow([solver, b, "(solve)", st["runs"], "", f"{st['median']:.6g}",
                        f"{st['min']:.6g}", f"{st['max']:.6g}", f"{st['gb_per_s']:.4g}",
                        f"{copy_for(b, copy):.4g}", st.get("results", "")])
            for name, lp in st["loops"].items():
                w.writerow([solver, b, name, st["runs"], f"{lp['calls']:.0f}",
                            f"{lp['seconds']:.6g}", "", "", f"{lp['gb_per_s']:.4g}",
                            f"{copy_for(b, copy):.4g}", ""])
    write_atomically(os.path.join(a.out, "bench.csv"), buf.getvalue())

    rows = [[s, labels.get(b, b), st["runs"], f"{st['median']:.3g}",
             f"{st['min']:.3g}-{st['max']:.3g}", f"{st['gb_per_s']:.1f}", results_word(st)]
            for s, per in data.items() for b, st in per.items()]
    print()
    print(text_table(["benchmark", "backend", "runs", "median (s)", "min-max (s)", "GB/s",
                      "results"], rows) if rows else "(nothing measured)")
    if a.size == "full":
        print()
        print(text_table(["benchmark", "published", "device", "s", "here (s)", "ratio"],
                         [[c["benchmark"], c["label"], c["device"], f"{c['seconds']:g}",
                           "-" if c["measured_seconds"] is None else f"{c['measured_seconds']:.3g}",
                           "-" if c["ratio"] is None else f"{c['ratio']:.2f}"] for c in comps]))
    for f in failed:
        print(f"  failed: {f}")
    for f in flagged:
        print(f"  FLAGGED: {f}")
    print(f"bench: {load_text}")
    print(f"\nbench: report in {os.path.join(a.out, 'report.md')}, bench.json, bench.csv"
          + (", " + ", ".join(images) if images else ""))
    if a.docs:
        update_docs(a.docs, report_md(a, machine, data, comps, failed, flagged, images,
                                      os.path.basename(os.path.normpath(a.docs_images)) + "/"),
                    images, a.out, a.docs_images)
        print(f"bench: {a.docs} and {a.docs_images}/ updated")
    return 1 if failed or flagged else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    try:
        sys.exit(main())
    except (OSError, ValueError, ResultError) as e:
        print(f"bench_report.py: {e}", file=sys.stderr)
        sys.exit(2)
