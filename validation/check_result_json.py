"""Validates result.json files against the documented format
(docs/result.schema.json, docs/result-json.md):

    python3 validation/check_result_json.py SCHEMA RESULT.json [--solver NAME] ...

Beyond the schema: every check's "passed" follows from its value, comparison
and limit; "validation.passed" is true exactly when every check passed;
"solver" is the one expected; every deck parameter is a number, string or
boolean; every file "files" lists is there, relative to the result.json, with
the size and SHA-256 listed, and no file beside result.json written before it
is left out of the list. Exit 0 when every file is valid, 1 otherwise (each problem printed),
77 when the jsonschema module is missing.
"""
import argparse
import hashlib
import json
import math
import os
import sys

try:
    import jsonschema
except ImportError as e:
    print("SKIP: %s (install python3-jsonschema)" % e)
    sys.exit(77)

HOLDS = {"<=": lambda v, l: v <= l, ">=": lambda v, l: v >= l, ">": lambda v, l: v > l,
         "==": lambda v, l: v == l}


def file_problems(doc, path):
    """The files result.json lists against the files themselves."""
    folder = os.path.dirname(os.path.abspath(path))
    listed = set()
    for entry in doc.get("files", []):
        name = entry.get("name", "")
        listed.add(name)
        where = os.path.normpath(os.path.join(folder, name))
        try:
            with open(where, "rb") as f:
                data = f.read()
        except OSError as e:
            yield "files: %s: cannot read: %s" % (name, e)
            continue
        if len(data) != entry.get("bytes"):
            yield "files: %s has %d bytes, result.json says %r" % (name, len(data), entry.get("bytes"))
        if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            yield "files: %s: its SHA-256 is not the one listed" % name
    # Files beside result.json from before it (later tools may add their own).
    written = os.path.getmtime(path)
    for name in sorted(os.listdir(folder)):
        full = os.path.join(folder, name)
        if (name == "result.json" or name.startswith(".") or name.endswith(".tmp")
                or not os.path.isfile(full) or os.path.getmtime(full) > written):
            continue
        if name not in listed:
            yield "files: %s is beside result.json but not listed" % name


def problems(doc, schema, solver):
    v = jsonschema.Draft202012Validator(schema)
    for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        yield "/".join(str(p) for p in e.absolute_path) + ": " + e.message
    if solver and doc.get("solver") != solver:
        yield "solver is %r, expected %r" % (doc.get("solver"), solver)
    checks = doc.get("validation", {}).get("checks", [])
    for c in checks:
        value, limit, cmp = c.get("value"), c.get("limit"), c.get("comparison")
        if cmp not in HOLDS:
            continue
        want = value is not None and limit is not None and not math.isnan(value) and HOLDS[cmp](value, limit)
        if c.get("passed") != want:
            yield "check %r: passed is %r but %r %s %r is %r" % (c.get("name"), c.get("passed"), value, cmp, limit, want)
    if checks and doc["validation"].get("passed") != all(c.get("passed") for c in checks):
        yield "validation.passed is %r, the checks say otherwise" % doc["validation"].get("passed")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("schema")
    p.add_argument("files", nargs="+")
    p.add_argument("--solver", default=None, help="the solver every file must come from")
    args = p.parse_args()
    with open(args.schema) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    bad = 0
    for name in args.files:
        try:
            with open(name) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: cannot read: %s" % (name, e))
            bad += 1
            continue
        found = list(problems(doc, schema, args.solver)) + list(file_problems(doc, name))
        for msg in found:
            print("%s: %s" % (name, msg))
        bad += bool(found)
        if not found:
            print("%s: valid (%s %s, %d checks)" % (name, doc["solver"], doc["backend"], len(doc["validation"]["checks"])))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    main()
