"""Everything two runs of a solver wrote as results, compared, for
scripts/regress.sh (change against base) and scripts/bench.sh (each run
against the benchmark's base run): one rule for every number, bitwise, or
where a tolerance is given, within |a - b| <= atol + rtol |b| (b the base's;
a NaN is never within it), as op2-compare applies it to the fields. Without
a tolerance, a number whose bits moved is "changed" (CHANGED), a problem of
its own kind; with one, "within tolerance" or "DIFFERENT".

What is compared (docs/regress-bench.md):
  exit status   the run's, equal
  verdicts      result.json's validation.checks, by name: one that passed in
                the base and fails in the change is a problem whatever its
                numbers; value and limit by the rule
  result.json   every number and yes/no but those of the run's timing (keys
                with "seconds", "gb_per_s" or "bytes" in their name), when and
                where it ran and how it was built or configured (date, build,
                machine, backend, threads, processes, part_size); text (paths,
                names) is not compared; list items by their name (loops)
  *.csv         column by column (as the header names them), row by row
  *.h5          every dataset, through op2-compare
  *.ppm, *.png  pixel by pixel; a difference is a problem where every other
                result of the run is bitwise equal, changed where some other
                result changed bits, and not judged where some moved within
                the tolerance (a picture of such fields may move by a pixel)
  other files   text: its numbers by the rule, the words around them equal;
                not text: the same bytes
A file in one run only is a difference. A run's results are those of its
output folder, or of output/failed where a verdict failed (solver_output.h).

Each comparison is a row: {kind, what, state, verdict, max_abs, max_rel,
where, note}; state is one of STATES, and PROBLEM_STATES are problems.
"""
import csv
import json
import math
import os
import re
import struct
import subprocess
import zlib

from check_pictures import read_png, read_ppm

# From the best to the worst outcome. "changed": bits moved where no
# tolerance applies (the runs compared are reproducible to the bit);
# "differ": beyond the tolerance given, or another exit status, text, file.
STATES = ("equal", "within", "unjudged", "changed", "differ", "error")
PROBLEM_STATES = ("changed", "differ", "error")
VERDICT = {"equal": "bitwise equal", "within": "within tolerance", "unjudged": "not judged",
           "changed": "CHANGED", "differ": "DIFFERENT", "error": "ERROR"}
# The kinds in the order reports list them, with what a summary calls them.
KINDS = (("exit", "exit status"), ("verdict", "verdicts"), ("json", "result.json"),
         ("csv", "histories (CSV)"), ("hdf5", "HDF5 fields"), ("picture", "pictures"),
         ("text", "other text files"), ("bytes", "other files"))
# result.json keys that say how, when and where a run ran, not what it computed.
NOT_RESULTS = ("build", "machine", "date", "backend", "threads", "processes", "part_size",
               "validation")
TIMING_WORDS = ("seconds", "gb_per_s", "bytes")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")
# op2-compare's lines (validation/compare.c).
DATASET = re.compile(r"^(/\S*) \[[^\]]*\] [^:]+: (identical|equal within tolerance|"
                     r"(\d+) of (\d+) elements differ)"
                     r"(?:, max abs diff (\S+), max rel diff (\S+))?")
ONLY = re.compile(r"^(/\S*): only in (A|B)")
MISMATCH = re.compile(r"^(/\S*): ((?:type|shape) mismatch: .*)")
WORST = re.compile(r"^\s+(\d+)\s+(\d+)\s+\S")


class Rule:
    """Bitwise, or within |a - b| <= atol + rtol |b| when either is set and
    bitwise is not asked for."""

    def __init__(self, rtol=0.0, atol=0.0, bitwise=False):
        if not (rtol >= 0 and atol >= 0):
            raise ValueError(f"a tolerance must be >= 0 (rtol {rtol}, atol {atol})")
        self.rtol, self.atol = float(rtol), float(atol)
        self.tolerant = not bitwise and (self.rtol > 0 or self.atol > 0)

    def within(self, a, b):
        return self.tolerant and abs(a - b) <= self.atol + self.rtol * abs(b)

    def describe(self):
        return f"rtol {self.rtol:g}, atol {self.atol:g}" if self.tolerant else "bitwise"


def same_bits(a, b):
    """Two numbers are the same double (NaN with NaN, -0 apart from 0)."""
    return struct.pack("<d", float(a)) == struct.pack("<d", float(b))


def row(kind, what, state, note="", max_abs=None, max_rel=None, where=None):
    return {"kind": kind, "what": what, "state": state, "verdict": VERDICT[state],
            "max_abs": max_abs, "max_rel": max_rel, "where": where, "note": note}


class Diffs:
    """The differences of a set of numbers: how many, the largest, where."""

    def __init__(self):
        self.count = self.beyond = 0
        self.max_abs = self.max_rel = None
        self.where = None
        self.tolerant = False

    def add(self, a, b, rule, where):
        self.count += 1
        self.tolerant = rule.tolerant
        if not rule.within(a, b):
            self.beyond += 1
        d = abs(a - b)
        rel = d / abs(b) if b != 0 else (math.inf if a != 0 else 0.0)
        if math.isnan(d):
            d = rel = math.inf
        if self.max_abs is None or d > self.max_abs:
            self.max_abs, self.where = d, where
        self.max_rel = rel if self.max_rel is None else max(self.max_rel, rel)

    def state(self):
        if not self.count:
            return "equal"
        if not self.tolerant:
            return "changed"
        return "differ" if self.beyond else "within"


def numbers_row(kind, what, diffs, total, rule, unit="values"):
    if not diffs.count:
        return row(kind, what, "equal")
    n = diffs.beyond if diffs.beyond else diffs.count
    note = f"{n} of {total} {unit} " + (("beyond the tolerance" if rule.tolerant else
                                         "changed (bitwise, no tolerance)")
                                        if diffs.beyond else "differ, within the tolerance")
    return row(kind, what, diffs.state(), note, diffs.max_abs, diffs.max_rel, diffs.where)


def compare_number(kind, what, a, b, rule):
    d = Diffs()
    if not same_bits(a, b):
        d.add(float(a), float(b), rule, None)
    r = numbers_row(kind, what, d, 1, rule)
    if d.count:
        r["note"] = f"{fmt(b)} in the base, {fmt(a)} in the change"
    return r


def fmt(v):
    return "null" if v is None else f"{v:.17g}" if isinstance(v, float) else str(v)


# ---- where a run's results are ----

def read_exit(run):
    """The exit status regress.sh and bench.sh wrote for a run, or None."""
    try:
        with open(os.path.join(run, "exit"), encoding="utf-8") as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def output_dir(run):
    """A run's output_dir: run/out (regress.sh and bench.sh put it there)."""
    return os.path.join(run, "out")


def result_json_path(run):
    """The run's result.json: in its output folder, or in failed/ when a
    verdict failed."""
    top = os.path.join(output_dir(run), "result.json")
    failed = os.path.join(output_dir(run), "failed", "result.json")
    return failed if os.path.exists(failed) and not os.path.exists(top) else top


def result_files(run):
    """{name: path} of every file a run wrote, names relative to its output
    folder, failed/ taken out of them; hidden names (a staging folder left by
    a killed run) left out."""
    top = output_dir(run)
    files = {}
    for folder, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(names):
            if n.startswith("."):
                continue
            path = os.path.join(folder, n)
            rel = os.path.relpath(path, top)
            if rel.startswith("failed" + os.sep):
                rel = rel[len("failed") + 1:]
            files[rel] = path
    return files


def kind_of(name):
    low = name.lower()
    if low.endswith(".h5"):
        return "hdf5"
    if low.endswith((".ppm", ".png")):
        return "picture"
    if low.endswith(".csv"):
        return "csv"
    if low.endswith(".json"):
        return "json"
    return "text"


# ---- each kind ----

def compare_exit(b, c):
    if b == c:
        return row("exit", "exit status", "equal", f"{b} in both")
    return row("exit", "exit status", "differ", f"{b} in the base, {c} in the change")


def json_values(doc, prefix=""):
    """{path: value} of the numbers, yes/nos and nulls of a result.json that
    are results (NOT_RESULTS and TIMING_WORDS left out); list items by their
    "loop" or "name" where they have one."""
    out = {}
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = []
        for i, v in enumerate(doc):
            key = v.get("loop", v.get("name")) if isinstance(v, dict) else None
            items.append((f"[{key}]" if isinstance(key, str) else f"[{i}]", v))
    else:
        return {prefix: doc} if not isinstance(doc, str) else {}
    for k, v in items:
        if not prefix and k in NOT_RESULTS:
            continue
        if isinstance(doc, dict) and any(w in k for w in TIMING_WORDS):
            continue
        path = f"{prefix}{k}" if k.startswith("[") else f"{prefix}.{k}" if prefix else k
        out.update(json_values(v, path))
    return out


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f), None
    except (OSError, ValueError) as e:
        return None, f"cannot read {os.path.basename(path)}: {e}"


def compare_json(name, a_path, b_path, rule):
    """Rows of a JSON file's values (one per value that is not bitwise equal,
    or one for the whole file when all are), and the count compared."""
    a, err_a = load_json(a_path)
    b, err_b = load_json(b_path)
    if err_a or err_b:
        return [row("json", name, "error", err_a or err_b)], 0
    va, vb = json_values(a), json_values(b)
    rows = []
    for path in list(vb) + [p for p in va if p not in vb]:
        what = f"{name}: {path}"
        if path not in va or path not in vb:
            side = "base" if path in vb else "change"
            rows.append(row("json", what, "differ", f"only in the {side}'s file"))
            continue
        x, y = va[path], vb[path]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y))
        if numeric:
            r = compare_number("json", what, x, y, rule)
        else:
            r = row("json", what, "equal" if x == y and type(x) is type(y) else "differ",
                    "" if x == y else f"{fmt(y)} in the base, {fmt(x)} in the change")
        if r["state"] != "equal":
            rows.append(r)
    if not rows:
        rows.append(row("json", name, "equal"))
    return rows, len(set(va) | set(vb))


def checks_of(doc):
    checks = (doc or {}).get("validation", {}).get("checks", []) if isinstance(doc, dict) else []
    out = {}
    for c in checks if isinstance(checks, list) else []:
        if isinstance(c, dict) and isinstance(c.get("name"), str):
            name, n = c["name"], 2
            while name in out:  # the same name twice: told apart by its place
                name, n = f"{c['name']} ({n})", n + 1
            out[name] = c
    return out


def compare_verdicts(a_path, b_path, rule):
    """A row per verdict of result.json; the number of verdicts."""
    a = load_json(a_path)[0] if a_path else None
    b = load_json(b_path)[0] if b_path else None
    ca, cb = checks_of(a), checks_of(b)
    rows = []
    for name in list(cb) + [n for n in ca if n not in cb]:
        what = f"verdict {name}"
        if name not in ca or name not in cb:
            side = "base" if name in cb else "change"
            rows.append(row("verdict", what, "differ", f"only in the {side}'s result.json"))
            continue
        x, y = ca[name], cb[name]
        shown = (f"{fmt(y.get('value'))} {y.get('comparison', '?')} {fmt(y.get('limit'))} in the "
                 f"base, {fmt(x.get('value'))} {x.get('comparison', '?')} {fmt(x.get('limit'))} "
                 "in the change")
        if y.get("passed") is True and x.get("passed") is not True:
            r = row("verdict", what, "differ", "passed in the base, fails in the change: " + shown)
            r["verdict"] = "FAILS in the change"
            rows.append(r)
            continue
        d = Diffs()
        for key in ("value", "limit"):
            u, v = x.get(key), y.get(key)
            if u is None or v is None or isinstance(u, bool) or isinstance(v, bool):
                if u != v:
                    d.add(math.nan, 0.0, rule, key)
            elif not same_bits(u, v):
                d.add(float(u), float(v), rule, key)
        state = d.state()
        if x.get("comparison") != y.get("comparison"):
            state = "differ"
        r = row("verdict", what, state, "" if state == "equal" else shown,
                d.max_abs, d.max_rel, d.where)
        if state == "equal":
            r["note"] = "passed in both" if x.get("passed") else "failed in both"
        elif x.get("passed") and not y.get("passed"):
            r["note"] = "failed in the base, passes in the change: " + shown
        rows.append(r)
    return rows, len(set(ca) | set(cb))


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return [r for r in csv.reader(f)]


def compare_csv(name, a_path, b_path, rule):
    """A row per column, and "N columns, M rows"."""
    try:
        a, b = read_csv(a_path), read_csv(b_path)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        return [row("csv", name, "error", f"cannot read: {e}")], ""
    ha, hb = (a[0] if a else []), (b[0] if b else [])
    da, db = a[1:], b[1:]
    rows = []
    if len(da) != len(db):
        rows.append(row("csv", f"{name}: rows", "differ",
                        f"{len(db)} rows in the base, {len(da)} in the change"))
    for col in hb + [h for h in ha if h not in hb]:
        what = f"{name}: {col}"
        if col not in ha or col not in hb:
            side = "base" if col in hb else "change"
            rows.append(row("csv", what, "differ", f"a column of the {side}'s file only"))
            continue
        ia, ib = ha.index(col), hb.index(col)
        d, words = Diffs(), 0
        for n, (ra, rb) in enumerate(zip(da, db), 2):
            x = ra[ia] if ia < len(ra) else ""
            y = rb[ib] if ib < len(rb) else ""
            if x == y:
                continue
            try:
                d.add(float(x), float(y), rule, f"line {n}")
            except ValueError:
                words += 1
        r = numbers_row("csv", what, d, min(len(da), len(db)), rule)
        if words:
            r = row("csv", what, "differ", f"{words} cells that are not numbers differ"
                    + (f"; {r['note']}" if r["note"] else ""), d.max_abs, d.max_rel, d.where)
        rows.append(r)
    return rows, f"{len(hb)} columns, {len(db)} rows"


def parse_compare(text):
    """{dataset: {...}} from op2-compare's output, and its verdict word."""
    fields, current, verdict = {}, None, None
    for line in text.splitlines():
        m = DATASET.match(line)
        if m:
            current = m.group(1)
            state = m.group(2)
            fields[current] = {
                "state": "equal" if state == "identical" else
                         "within" if state.startswith("equal") else "differ",
                "differ": int(m.group(3)) if m.group(3) else 0,
                "elements": int(m.group(4)) if m.group(4) else None,
                "max_abs": float(m.group(5)) if m.group(5) else None,
                "max_rel": float(m.group(6)) if m.group(6) else None,
            }
            continue
        m = ONLY.match(line)
        if m:
            side = "change" if m.group(2) == "A" else "base"
            fields[m.group(1)] = {"state": "differ", "note": f"only in the {side}'s file"}
            current = None
            continue
        m = MISMATCH.match(line)
        if m:
            fields[m.group(1)] = {"state": "differ", "note": m.group(2)}
            current = None
            continue
        m = WORST.match(line)
        if m and current and "row" not in fields[current]:
            fields[current]["row"] = int(m.group(1))
            fields[current]["comp"] = int(m.group(2))
            continue
        if line.startswith("op2-compare: "):
            verdict = line.split()[1].rstrip(":")
    return fields, verdict


def run_compare(compare, args):
    p = subprocess.run([compare, "--worst", "1"] + args, capture_output=True, text=True,
                       errors="replace")
    return parse_compare(p.stdout + p.stderr), p.stdout + p.stderr


def compare_hdf5(name, a_path, b_path, rule, compare):
    """A row per dataset (op2-compare, bitwise, then within the tolerance
    where that differs), and the count of datasets."""
    if not compare or not os.access(compare, os.X_OK):
        return [row("hdf5", name, "error", f"op2-compare not found ({compare or 'none given'})")], 0
    (bits, verdict), text = run_compare(compare, [a_path, b_path])
    if verdict not in ("EQUAL", "DIFFERENT"):
        last = (text.strip().splitlines() or ["no output"])[-1]
        return [row("hdf5", name, "error", f"op2-compare could not compare the files: {last}")], 0
    tol = {}
    if verdict == "DIFFERENT" and rule.tolerant:
        (tol, _), _ = run_compare(compare, ["--rtol", repr(rule.rtol), "--atol", repr(rule.atol),
                                            a_path, b_path])
    rows = []
    for field, f in bits.items():
        what = f"{name}: {field}"
        where = None if f.get("row") is None else f"row {f['row']}, comp {f['comp']}"
        if f["state"] == "equal":
            rows.append(row("hdf5", what, "equal"))
            continue
        note = f.get("note", "")
        # Elements that differ in value (not a shape, type or missing dataset):
        # changed where no tolerance applies.
        numbers = not note and f.get("elements")
        state = "within" if tol.get(field, {}).get("state") == "within" else \
            "changed" if numbers and not rule.tolerant else "differ"
        if numbers:
            n = tol.get(field, f).get("differ") or f["differ"]
            note = f"{n} of {f['elements']} elements " + (
                "differ, within the tolerance" if state == "within" else
                "beyond the tolerance" if rule.tolerant else "changed (bitwise, no tolerance)")
        rows.append(row("hdf5", what, state, note, f.get("max_abs"), f.get("max_rel"), where))
    return rows, len(bits)


def read_picture(path):
    return read_ppm(path) if path.lower().endswith(".ppm") else read_png(path)


def picture_size(path):
    """ "W x H pixels" of a picture, from its header."""
    if path.lower().endswith(".png"):
        head = png_stream(path, pixels=False)[0]
        w, h = struct.unpack(">II", head[:8])
    else:
        w, h, _ = read_ppm(path)
    return f"{w} x {h} pixels"


def png_stream(path, pixels=True):
    """The header and the inflated image data of a PNG: equal streams are
    equal pixels, without unfiltering them."""
    with open(path, "rb") as f:
        data = f.read()
    pos, head, idat = 8, b"", b""
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            head = data[pos + 8:pos + 8 + n]
        elif kind == b"IDAT" and pixels:
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    if len(head) < 8:
        raise ValueError(f"{path}: no PNG header (IHDR)")
    return head, zlib.decompress(idat) if pixels else b""


def compare_picture(name, a_path, b_path):
    """A row for a picture (its state "differ" until compare_runs decides
    whether that is judged), and its size."""
    try:
        with open(a_path, "rb") as f, open(b_path, "rb") as g:
            if f.read() == g.read():
                return row("picture", name, "equal"), picture_size(b_path)
        if name.lower().endswith(".png") and png_stream(a_path) == png_stream(b_path):
            return row("picture", name, "equal", "other bytes, the same pixels"), \
                picture_size(b_path)
        wa, ha, pa = read_picture(a_path)
        wb, hb, pb = read_picture(b_path)
    except (OSError, ValueError, zlib.error, struct.error, IndexError) as e:
        return row("picture", name, "error", f"cannot read: {e}"), ""
    size = f"{wb} x {hb} pixels"
    if (wa, ha) != (wb, hb):
        return row("picture", name, "differ", f"{wb} x {hb} pixels in the base, {wa} x {ha} in "
                   "the change"), size
    n = sum(1 for i in range(0, len(pb), 3) if pa[i:i + 3] != pb[i:i + 3])
    if n == 0:
        return row("picture", name, "equal", "other bytes, the same pixels"), size
    return row("picture", name, "differ", f"{n} of {wb * hb} pixels differ"), size


def compare_text(name, a_path, b_path, rule):
    """A file of another kind: as text, its numbers by the rule and the rest
    equal; as bytes where it is not text."""
    with open(a_path, "rb") as f, open(b_path, "rb") as g:
        a, b = f.read(), g.read()
    try:
        ta, tb = a.decode("utf-8"), b.decode("utf-8")
    except UnicodeDecodeError:
        if a == b:
            return row("bytes", name, "equal"), "bytes"
        return row("bytes", name, "differ", "the bytes differ (not text)"), "bytes"
    if a == b:
        return row("text", name, "equal"), "text"
    na, nb = NUMBER.findall(ta), NUMBER.findall(tb)
    if NUMBER.split(ta) != NUMBER.split(tb) or len(na) != len(nb):
        line = next((i for i, (x, y) in enumerate(zip(ta.splitlines(), tb.splitlines()), 1)
                     if x != y), min(ta.count("\n"), tb.count("\n")) + 1)
        return row("text", name, "differ", f"the text differs (line {line})"), "text"
    d = Diffs()
    for i, (x, y) in enumerate(zip(na, nb)):
        if x != y:
            d.add(float(x), float(y), rule, f"number {i + 1}")
    return numbers_row("text", name, d, len(nb), rule, "numbers"), "text"


# ---- two runs ----

def compare_runs(base, change, rule, compare=None):
    """(rows, covered): every result of the run in folder change against
    the one in folder base (each with its exit file and out/), and what was
    compared, as a list of phrases ("history.csv (2 columns, 300 rows)")."""
    b_exit, c_exit = read_exit(base), read_exit(change)
    rows = [compare_exit(b_exit, c_exit)]
    covered = ["exit status"]
    fb, fc = result_files(base), result_files(change)
    jb = fb.get("result.json")
    jc = fc.get("result.json")
    if jb or jc:
        vrows, n = compare_verdicts(jc, jb, rule)
        rows += vrows
        covered.append(f"{n} verdicts")
    for name in sorted(set(fb) | set(fc)):
        kind = kind_of(name)
        if name not in fb or name not in fc:
            side = "base" if name in fb else "change"
            rows.append(row(kind, name, "differ", f"written by the {side}'s run only"))
            covered.append(name)
            continue
        a, b = fc[name], fb[name]
        if kind == "hdf5":
            rs, n = compare_hdf5(name, a, b, rule, compare)
            rows += rs
            covered.append(f"{name} ({n} fields)")
        elif kind == "json":
            rs, n = compare_json(name, a, b, rule)
            rows += rs
            covered.append(f"{name} ({n} values)")
        elif kind == "csv":
            rs, size = compare_csv(name, a, b, rule)
            rows += rs
            covered.append(f"{name} ({size})")
        elif kind == "picture":
            r, size = compare_picture(name, a, b)
            rows.append(r)
            covered.append(f"{name} ({size})")
        else:
            r, how = compare_text(name, a, b, rule)
            rows.append(r)
            covered.append(f"{name} ({how})")
    # A picture drawn from values that moved within the tolerance may move by
    # a pixel: judged only where nothing else moved; where others changed
    # bits, it changed with them.
    moved = [r["what"] for r in rows if r["state"] == "within"]
    changed = [r["what"] for r in rows if r["state"] == "changed"]
    for r in rows:
        if r["kind"] == "picture" and r["state"] == "differ" and (moved or changed) and \
                "pixels differ" in r["note"]:
            new, others, how = ("changed", changed, "changed too") if changed else \
                ("unjudged", moved, "within the tolerance")
            r["state"], r["verdict"] = new, VERDICT[new]
            r["note"] += ("; not judged: " if new == "unjudged" else "; ") + others[0] + (
                f" and {len(others) - 1} more" if len(others) > 1 else "") + f" {how}"
    return rows, covered


def kinds_covered(rows):
    """The names of the kinds of KINDS that rows compared, in order."""
    seen = {r["kind"] for r in rows}
    return [label for kind, label in KINDS if kind in seen]


def worst_state(states):
    return max(states, key=STATES.index) if states else "equal"


def merge_pairs(per_pair):
    """One list of rows from those of several pairs ([(k, rows)]): each
    comparison with its worst state over the pairs and, where the pairs
    disagree, which ones moved."""
    merged, order = {}, []
    for k, rows in per_pair:
        for r in rows:
            key = (r["kind"], r["what"])
            if key not in merged:
                merged[key] = {"row": r, "moved": []}
                order.append(key)
            m = merged[key]
            if r["state"] != "equal":
                m["moved"].append(k)
            if STATES.index(r["state"]) > STATES.index(m["row"]["state"]):
                m["row"] = r
    out = []
    for key in order:
        r, moved = dict(merged[key]["row"]), merged[key]["moved"]
        if moved and len(moved) < len(per_pair):
            r["note"] = (r["note"] + "; " if r["note"] else "") + \
                f"in pair{'s' if len(moved) > 1 else ''} {', '.join(map(str, moved))} of " \
                f"{len(per_pair)}"
        out.append(r)
    # A file's one row "all equal" goes where another pair has rows of its values.
    detailed = {(r["kind"], r["what"].split(": ", 1)[0]) for r in out if ": " in r["what"]}
    return [r for r in out if r["state"] != "equal" or (r["kind"], r["what"]) not in detailed]

