"""The checks of the suite's Python tests, as op2/testing/test_check.h is the
C tests': check() prints and counts a failure and lets the test go on, so one
run lists everything wrong; finish() ends the test with its status (0 when
every check passed, 1 otherwise) and a last line saying which.

A test in validation/tests imports it by name (its own folder is the first
entry of sys.path when Python runs it as a script).
"""
import sys

failures = []


def check(cond, what):
    """Counts a failure when cond is false, printing what was expected."""
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}")


def finish(name):
    """Exits: 1 when any check failed, 0 when none did."""
    if failures:
        print(f"{name}: {len(failures)} check(s) FAILED")
        sys.exit(1)
    print(f"{name}: every check passed")
    sys.exit(0)
