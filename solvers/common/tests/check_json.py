"""Reads back the JSON written by test_json and test_deck and checks every value.

usage: python3 check_json.py DIR   (the directory the C tests wrote to)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

failures = 0


def check(cond, what):
    global failures
    if not cond:
        print(f"check_json.py: check failed: {what}", file=sys.stderr)
        failures += 1


def load(path):
    # Strict: the bytes must be UTF-8 and the text must be JSON, nothing after it.
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    return json.loads(text), text


def check_document(path, pretty):
    doc, text = load(path)
    check(text.endswith("\n"), f"{path}: ends with a newline")
    check(("\n  \"solver\"" in text) == pretty, f"{path}: indentation as asked")
    check(doc["solver"] == "test", "solver")
    check(doc["escapes"] == "quote \" backslash \\ slash / nl \n tab \t cr \r bell \a del \x7f",
          f"escapes: {doc['escapes']!r}")
    check(doc["utf8"] == "caf\u00e9 \u20ac \U0001F600", f"utf8: {doc['utf8']!r}")
    check(doc["invalid_utf8"] == "a\ufffdb\ufffdc\ufffd\ufffd\ufffdd",
          f"invalid_utf8: {doc['invalid_utf8']!r}")
    check(doc["null_string"] is None, "null_string")
    check(doc["tenth"] == 0.1 and '"tenth": 0.1' in text.replace('":0.1', '": 0.1'),
          "0.1 written as the shortest form")
    check(doc["tiny"] == 1e-300, "tiny")
    check(doc["third"] == 1.0 / 3.0, "1/3 round-trips exactly")
    check(doc["neg_zero"] == 0.0 and math.copysign(1.0, doc["neg_zero"]) < 0, "-0")
    check(doc["big"] == 1e300, "big")
    check(doc["nan"] is None and doc["inf"] is None, "non-finite numbers become null")
    check(doc["int_min"] == -9223372036854775808, "int_min")
    check(doc["yes"] is True and doc["no"] is False and doc["nothing"] is None, "literals")
    check(doc["empty_object"] == {} and doc["empty_array"] == [], "empty containers")
    check([l["name"] for l in doc["loops"]] == ["res_calc", "update", "adt_calc"], "loop names")
    check([l["calls"] for l in doc["loops"]] == [10, 20, 30], "loop calls")
    check(doc["loops"][2]["nested"] == [2, 1.0, []], "nested arrays")
    check(doc["raw"] == {"x": [1, 2]}, "raw")
    check(doc["raw_stream"] == ["from", "elsewhere"], "raw stream")
    check(doc["last"] == "end", "last")
    check(list(doc.keys())[0] == "solver" and list(doc.keys())[-1] == "last", "key order")


def check_deck(path):
    doc, _ = load(path)
    want = {
        "steps": 100, "cfl": 0.9, "gamma": 1.4, "shift": 0, "output": "tab\there \"q\" \\",
        "limiter": "minbee", "ppm": True, "max_iter": 50,
    }
    check(doc == want, f"deck.json: {doc!r}")
    check(isinstance(doc["steps"], int) and isinstance(doc["cfl"], float), "deck.json types")
    check(list(doc.keys()) == list(want.keys()), "deck.json keeps the table order")


def main():
    os.chdir(sys.argv[1] if len(sys.argv) > 1 else ".")
    check_document("json_pretty.json", True)
    check_document("json_compact.json", False)
    check_deck("deck.json")
    if failures:
        print(f"check_json.py: {failures} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
