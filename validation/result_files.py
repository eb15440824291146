"""What regress_report.py and bench_report.py share: reading a solver's
result.json, and writing tables and files.

Keys of result.json relied on (docs/regress-bench.md): "loops", the list the
library's op_timing_json writes ({"loop", "calls", "seconds", "bytes",
"gb_per_s"} each), and for the time of the solve (the timed loop of steps or
iterations, without set-up and output) the first key of MAIN_TIME_KEYS
present (wall_seconds_main_loop, which every solver writes since result.json
format 1; the others for older files); any other "wall_seconds_*" key but
those of set-up, output and the whole run; or else the sum of the loops'
seconds. "solver" and "backend" are
read when present.
"""
import json
import math
import os
import tempfile

MAIN_TIME_KEYS = ("wall_seconds_main_loop", "wall_seconds_main", "wall_seconds_solve",
                  "wall_seconds_iterations", "wall_seconds_steps")
NOT_MAIN_TIME = ("wall_seconds_setup", "wall_seconds_output", "wall_seconds_total",
                 "wall_seconds_run", "wall_seconds_tutorial_total")


class ResultError(Exception):
    """A result.json that is missing, unreadable or not of the expected shape."""


def _number(value, what, path):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ResultError(f"{path}: {what} is not a finite number: {value!r}")
    if value < 0:
        raise ResultError(f"{path}: {what} is negative: {value!r}")
    return float(value)


def load_result(path):
    """The result.json at path, checked: a dict whose "loops" are a list of
    loops with a name and non-negative calls, seconds and bytes."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise ResultError(f"{path}: {e.strerror}") from None
    except ValueError as e:
        raise ResultError(f"{path}: not JSON: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("loops"), list):
        raise ResultError(f"{path}: no list of loops (not a solver's result.json)")
    for i, lp in enumerate(doc["loops"]):
        if not isinstance(lp, dict) or not isinstance(lp.get("loop"), str):
            raise ResultError(f"{path}: loops[{i}] has no name")
        for key in ("calls", "seconds", "bytes"):
            _number(lp.get(key, 0), f"loops[{i}].{key}", path)
    return doc


def loop_table(doc):
    """{loop name: (calls, seconds, bytes)} of a loaded result."""
    return {lp["loop"]: (float(lp.get("calls", 0)), float(lp.get("seconds", 0)),
                         float(lp.get("bytes", 0))) for lp in doc["loops"]}


def main_seconds(doc, path="result.json"):
    """(seconds, key): the time of the solve and the key it was read from."""
    for key in MAIN_TIME_KEYS:
        if key in doc:
            return _number(doc[key], key, path), key
    for key, value in doc.items():
        if key.startswith("wall_seconds_") and key not in NOT_MAIN_TIME:
            return _number(value, key, path), key
    return sum(s for _, s, _ in loop_table(doc).values()), "sum of loops"


def median(values):
    v = sorted(values)
    n = len(v)
    if n == 0:
        return float("nan")
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def text_table(header, rows):
    """A table for the terminal: columns padded to their widest cell."""
    cells = [header] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def md_table(header, rows, right=()):
    """A Markdown table; columns whose index is in right are right-aligned."""
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def json_text(doc):
    """doc as JSON text; infinities and NaNs (op2-compare's relative
    difference against a zero) become the strings "inf", "-inf", "nan"."""
    def clean(v):
        if isinstance(v, float) and not math.isfinite(v):
            return str(v)
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return v
    return json.dumps(clean(doc), indent=1, allow_nan=False) + "\n"


def write_atomically(path, data):
    """Writes text or bytes to path through a temporary file and a rename, so
    that an interrupted write never leaves half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        # mkstemp makes the file private; give it the mode a new file gets.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def replace_between_markers(path, begin, end, body):
    """Writes body into the text file at path between its one line begin and,
    after it, its one line end (both kept), atomically."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"{path}: needs one line '{begin}' and, after it, one '{end}'")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    write_atomically(path, head + begin + "\n" + body + end + tail)


def fmt_seconds(s):
    """Seconds with 3 significant digits, or a dash."""
    if s is None or not math.isfinite(s):
        return "-"
    return f"{s:.3g}" if s >= 0.001 else f"{s:.2e}"
