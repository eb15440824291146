"""Checks result_compare.py on made-up runs whose differences are known, one
kind at a time: a base run with every kind of result (exit status, verdicts,
result.json, history.csv, HDF5 fields, PPM and PNG pictures, XDMF text, a
file that is not text), and changes of it, each of which must come out as
the state written beside it.

usage: result_compare_test.py OP2_COMPARE COMPARE_FILES_DIR WORK_DIR

COMPARE_FILES_DIR holds the HDF5 files of compare_make_files (base.h5, ulp.h5
one ulp away in one element, int_diff.h5, missing.h5 without a dataset).
"""
import copy
import json
import os
import shutil
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import result_compare as rc  # noqa: E402
from test_checks import check, finish  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

compare, h5dir, work = sys.argv[1:4]
TOL = rc.Rule(1e-12, 1e-15)


RESULT = {
    "format": "op2suite-result", "format_version": 1, "solver": "airfoil", "backend": "seq",
    "threads": 1, "processes": 1, "part_size": 16384, "deck": "",
    "parameters": {"mesh": "/work/base/mesh.dat", "iterations": 300, "renumber": False},
    "build": {"commit": "aaaa", "commit_dirty": False},
    "machine": {"hostname": "vm", "cores": 2}, "date": "2026-01-01T00:00:00Z",
    "cells": 48000, "final_rms": 1.7383147616214405e-04,
    "wall_seconds_iterations": 0.59, "wall_seconds_total": 0.72, "wall_seconds_main_loop": 0.59,
    "seconds_per_step": 0.002, "floor_bytes_per_step": 1e9,
    "loops": [{"loop": "update", "calls": 600, "seconds": 0.1, "bytes": 3.9e9, "gb_per_s": 37.0},
              {"loop": "res_calc", "calls": 600, "seconds": 0.3, "bytes": 4.3e9,
               "gb_per_s": 14.5}],
    "validation": {"passed": True, "checks": [
        {"name": "completed", "passed": True, "value": 300.0, "comparison": ">=",
         "limit": 300.0, "detail": "300 of 300 iterations"},
        {"name": "finite_residual", "passed": True, "value": 0.0, "comparison": "<=",
         "limit": 0.0, "detail": "final rms"}]}}
HISTORY = "iteration,rms\n1,2.6968374642720185e-03\n2,2.5629901448055970e-03\n" \
          "3,2.4000000000000000e-03\n"
XMF = '<DataItem Dimensions="48000 4" Format="HDF">q.h5:/p_q</DataItem>\n<Time Value="0.25"/>\n'
W, H = 8, 6
PIXELS = bytes((x * 30 + y * 7 + c * 50) % 256 for y in range(H) for x in range(W)
               for c in range(3))


def ppm(pixels):
    return b"P6\n%d %d\n255\n" % (W, H) + pixels


def png(pixels, level):
    raw = b"".join(b"\x00" + pixels[3 * W * y:3 * W * (y + 1)] for y in range(H))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + \
            struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b"")


def make_run(name, exit_status=0, result=None, history=HISTORY, h5="base.h5", pixels=PIXELS,
             png_level=9, xmf=XMF, blob=b"\x00\x01\xff", folder="", extra=None):
    run = os.path.join(work, name)
    out = os.path.join(run, "out", folder)
    os.makedirs(out)
    with open(os.path.join(run, "exit"), "w") as f:
        f.write(f"{exit_status}\n")
    files = {"result.json": json.dumps(result or RESULT), "history.csv": history, "q.xmf": xmf,
             "mach.ppm": ppm(pixels), "mach.png": png(pixels, png_level), "state.bin": blob}
    files.update(extra or {})
    for n, data in files.items():
        if data is None:
            continue
        with open(os.path.join(out, n), "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
    if h5:
        shutil.copy(os.path.join(h5dir, h5), os.path.join(out, "q.h5"))
    return run


def changed(**kw):
    doc = copy.deepcopy(RESULT)
    edit = kw.pop("edit", None)
    if edit:
        edit(doc)
    return doc


def rows_of(name, rule=TOL, **kw):
    run = make_run(name, **kw)
    rows, covered = rc.compare_runs(base, run, rule, compare)
    return {r["what"]: r for r in rows}, covered


def expect(rows, what, state, note=None):
    r = rows.get(what)
    check(r is not None, f"no row '{what}' (rows: {sorted(rows)})")
    if r is None:
        return
    check(r["state"] == state, f"'{what}': state {r['state']} ({r['note']}), expected {state}")
    if note:
        check(note in r["note"], f"'{what}': note '{r['note']}' does not say '{note}'")


def only_problems(rows, *whats):
    bad = sorted(w for w, r in rows.items() if r["state"] in rc.PROBLEM_STATES)
    check(bad == sorted(whats), f"problems {bad}, expected {sorted(whats)}")


shutil.rmtree(work, ignore_errors=True)
base = make_run("base")

# The same results (another PNG compression, another path, timing, host,
# commit, thread count): everything equal, and every kind listed as compared.
rows, covered = rows_of("same", png_level=1, result=changed(edit=lambda d: d.update(
    wall_seconds_total=9.9, seconds_per_step=1.0, floor_bytes_per_step=2e9, date="x", threads=2,
    machine={"hostname": "other"}, build={"commit": "bbbb"},
    parameters=dict(d["parameters"], mesh="/work/change/mesh.dat"),
    loops=[dict(lp, seconds=lp["seconds"] * 2, gb_per_s=1.0) for lp in d["loops"]])))
only_problems(rows)
check(all(r["state"] == "equal" for r in rows.values()), "same: a row is not bitwise equal")
expect(rows, "mach.png", "equal", "the same pixels")
check(covered == ["exit status", "2 verdicts", "history.csv (2 columns, 3 rows)",
                  "mach.png (8 x 6 pixels)", "mach.ppm (8 x 6 pixels)", "q.h5 (9 fields)",
                  "q.xmf (text)", "result.json (7 values)", "state.bin (bytes)"],
      f"same: covered {covered}")
check(rc.kinds_covered(list(rows.values())) ==
      ["exit status", "verdicts", "result.json", "histories (CSV)", "HDF5 fields", "pictures",
       "other text files", "other files"], f"same: kinds {rc.kinds_covered(list(rows.values()))}")

# The exit status alone.
rows, _ = rows_of("exit", exit_status=3)
expect(rows, "exit status", "differ", "0 in the base, 3 in the change")
only_problems(rows, "exit status")

# A reduction off by a little: result.json's number and the history's column.
rows, _ = rows_of("rms", history=HISTORY.replace("2.4000000000000000e-03", "2.4000000010000000e-03"),
                  result=changed(edit=lambda d: d.update(final_rms=1.8498e-04)))
expect(rows, "history.csv: rms", "differ", "1 of 3 values beyond the tolerance")
check(rows.get("history.csv: rms", {}).get("where") == "line 4",
      f"rms: where {rows.get('history.csv: rms', {}).get('where')}, expected line 4")
expect(rows, "result.json: final_rms", "differ")
only_problems(rows, "history.csv: rms", "result.json: final_rms")

# Within the tolerance: not a problem, and the pictures then not judged.
rows, _ = rows_of("within", history=HISTORY.replace("2.4000000000000000e-03",
                                                    "2.4000000000000004e-03"),
                  pixels=bytes([PIXELS[0] ^ 1]) + PIXELS[1:])
expect(rows, "history.csv: rms", "within")
expect(rows, "mach.ppm", "unjudged", "1 of 48 pixels differ")
only_problems(rows)
# ... and bitwise (--bitwise): both are problems.
rows, _ = rows_of("within_bitwise", rule=rc.Rule(1e-12, 1e-15, bitwise=True),
                  history=HISTORY.replace("2.4000000000000000e-03", "2.4000000000000004e-03"),
                  pixels=bytes([PIXELS[0] ^ 1]) + PIXELS[1:])
only_problems(rows, "history.csv: rms", "mach.ppm", "mach.png")
# Bits that moved where no tolerance applies are a kind of their own,
# "changed", with the largest difference; the pictures drawn from them
# changed with them.
expect(rows, "history.csv: rms", "changed", "1 of 3 values changed (bitwise, no tolerance)")
check(rows.get("history.csv: rms", {}).get("max_abs") == 2.4000000000000004e-03 - 2.4e-03,
      f"rms: max abs diff {rows.get('history.csv: rms', {}).get('max_abs')}, expected one ulp")
expect(rows, "mach.ppm", "changed", "history.csv: rms changed too")
rows, _ = rows_of("rms_bitwise", rule=rc.Rule(),
                  result=changed(edit=lambda d: d.update(final_rms=1.8498e-04)))
expect(rows, "result.json: final_rms", "changed")
only_problems(rows, "result.json: final_rms")

# A picture changed where all else is bitwise equal.
rows, _ = rows_of("picture", pixels=PIXELS[:-3] + b"\x00\x00\x00")
expect(rows, "mach.ppm", "differ", "1 of 48 pixels differ")
expect(rows, "mach.png", "differ", "1 of 48 pixels differ")
only_problems(rows, "mach.ppm", "mach.png")


# A verdict's bound crossed: the change's run failed (its results in failed/).
def cross(d):
    c = d["validation"]["checks"][0]
    c.update(limit=301.0, passed=False)
    d["validation"]["passed"] = False


rows, _ = rows_of("verdict", exit_status=1, folder="failed", result=changed(edit=cross))
expect(rows, "verdict completed", "differ", "passed in the base, fails in the change")
check(rows.get("verdict completed", {}).get("verdict") == "FAILS in the change",
      "verdict: not said to fail in the change")
only_problems(rows, "exit status", "verdict completed")


# A verdict's value moved within the tolerance, still passing: not a problem.
def nudge(d):
    d["validation"]["checks"][0]["value"] = 300.00000000000006


rows, _ = rows_of("verdict_within", result=changed(edit=nudge))
expect(rows, "verdict completed", "within")
only_problems(rows)


# result.json: a count, a yes/no, a key only in one file, a loop's calls.
def counts(d):
    d["cells"] = 48001
    d["parameters"]["renumber"] = True
    d["new_norm"] = 1.0
    d["loops"][0]["calls"] = 601


rows, _ = rows_of("json", result=changed(edit=counts))
only_problems(rows, "result.json: cells", "result.json: parameters.renumber",
              "result.json: new_norm", "result.json: loops[update].calls")
expect(rows, "result.json: new_norm", "differ", "only in the change's file")

# History: a row fewer, a column more, a cell that is not a number.
rows, _ = rows_of("csv", history="iteration,rms,extra\n1,2.6968374642720185e-03,0\n"
                                 "2,nope,0\n")
only_problems(rows, "history.csv: rows", "history.csv: rms", "history.csv: extra")
expect(rows, "history.csv: rows", "differ", "3 rows in the base, 2 in the change")
expect(rows, "history.csv: rms", "differ", "not numbers")

# HDF5: one ulp (within the tolerance, a problem bitwise), an integer off,
# a dataset missing.
rows, _ = rows_of("h5_ulp", h5="ulp.h5")
expect(rows, "q.h5: /p_q", "within", "1 of 20 elements differ, within the tolerance")
only_problems(rows)
rows, _ = rows_of("h5_bitwise", h5="ulp.h5", rule=rc.Rule(0, 0))
expect(rows, "q.h5: /p_q", "changed", "1 of 20 elements changed (bitwise, no tolerance)")
rows, _ = rows_of("h5_int", h5="int_diff.h5")
check(any(w.startswith("q.h5: ") and r["state"] == "differ" for w, r in rows.items()),
      "int_diff.h5: no dataset beyond the tolerance")
rows, _ = rows_of("h5_missing", h5="missing.h5")
check(any(r["state"] == "differ" and "only in the base" in r["note"] for r in rows.values()),
      "missing.h5: no dataset said to be only in the base's file")
rows, _ = rows_of("h5_none", h5=None)
expect(rows, "q.h5", "differ", "written by the base's run only")

# Text: a number within the tolerance, a word changed; bytes changed.
rows, _ = rows_of("text_within", xmf=XMF.replace("0.25", "0.25000000000000006"))
expect(rows, "q.xmf", "within")
rows, _ = rows_of("text_words", xmf=XMF.replace("p_q", "p_r"), blob=b"\x00\x02\xff")
expect(rows, "q.xmf", "differ", "line 1")
expect(rows, "state.bin", "differ", "not text")

# A file more in the change's run.
rows, _ = rows_of("extra", extra={"notes.txt": "x\n"})
expect(rows, "notes.txt", "differ", "written by the change's run only")

# Pairs merged: the worst of each comparison, and which pair moved.
r1, _ = rc.compare_runs(base, os.path.join(work, "same"), TOL, compare)
r2, _ = rc.compare_runs(base, os.path.join(work, "rms"), TOL, compare)
merged = {r["what"]: r for r in rc.merge_pairs([("1", r1), ("2", r2)])}
expect(merged, "history.csv: rms", "differ", "in pair 2 of 2")
check("result.json" not in merged, "merged: the all-equal row of result.json kept beside its "
      "values' rows")

finish("result_compare_test")
