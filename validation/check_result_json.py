"""Validates result.json files against the documented format
(docs/result.schema.json, docs/result-json.md):

    python3 validation/check_result_json.py SCHEMA RESULT.json [--solver NAME] ...

Beyond the schema: every check's "passed" follows from its value, comparison
and limit; "validation.passed" is true exactly when every check passed;
"solver" is the one expected; every deck parameter is a number, string or
boolean. Exit 0 when every file is valid, 1 otherwise (each problem printed),
77 when the jsonschema module is missing.
"""
import argparse
import json
import math
import sys

try:
    import jsonschema
except ImportError as e:
    print("SKIP: %s (install python3-jsonschema)" % e)
    sys.exit(77)

HOLDS = {"<=": lambda v, l: v <= l, ">=": lambda v, l: v >= l, ">": lambda v, l: v > l,
         "==": lambda v, l: v == l}


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
        found = list(problems(doc, schema, args.solver))
        for msg in found:
            print("%s: %s" % (name, msg))
        bad += bool(found)
        if not found:
            print("%s: valid (%s %s, %d checks)" % (name, doc["solver"], doc["backend"], len(doc["validation"]["checks"])))
    sys.exit(1 if bad else 0)


main()
