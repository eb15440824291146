"""Checks which rule regress_report.py applies to a case on a backend:
bitwise on the backends reproducible run to run, whatever the case's
tolerance; the case's tolerance on cuda and offload (atomic increments),
with the reason; the tolerance asked for (--rtol, --atol) on every backend;
--bitwise on every backend. And the line a host's load earns
(host_load.py): quiet, or too busy to time, before or after the runs.

usage: regress_rules_test.py
"""
import os
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from host_load import load_verdict  # noqa: E402
from regress_report import NOT_REPRODUCIBLE, rule_for  # noqa: E402
from test_checks import check, finish  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import suite_version  # noqa: E402  (--help, --version: its usage, and nothing run)

suite_version.answer(sys.argv, __doc__)

case = {"rtol": 1e-8, "atol": 1e-11}


def args(bitwise=0, rtol=None, atol=None):
    return SimpleNamespace(bitwise=bitwise, rtol=rtol, atol=atol)


for backend in ("seq", "openmp", "mpi", "mpi_openmp"):
    rule, why = rule_for(case, backend, args())
    check(not rule.tolerant and rule.describe() == "bitwise",
          f"{backend}: rule {rule.describe()}, expected bitwise (reproducible run to run)")
    check("reproducible run to run" in why, f"{backend}: reason '{why}'")
    rule, _ = rule_for(case, backend, args(rtol=1e-12))
    check(rule.tolerant and (rule.rtol, rule.atol) == (1e-12, 0.0),
          f"{backend} with --rtol 1e-12: rule {rule.describe()}, expected rtol 1e-12, atol 0")
for backend in ("cuda", "offload"):
    rule, why = rule_for(case, backend, args())
    check(rule.tolerant and (rule.rtol, rule.atol) == (1e-8, 1e-11),
          f"{backend}: rule {rule.describe()}, expected the case's rtol 1e-8, atol 1e-11")
    check("not reproducible run to run" in why and "atomic" in NOT_REPRODUCIBLE[backend],
          f"{backend}: reason '{why}' / '{NOT_REPRODUCIBLE.get(backend)}'")
    rule, _ = rule_for(case, backend, args(bitwise=1))
    check(not rule.tolerant, f"{backend} with --bitwise: rule {rule.describe()}, expected bitwise")
    rule, _ = rule_for(case, backend, args(atol=1e-9))
    check(rule.tolerant and (rule.rtol, rule.atol) == (0.0, 1e-9),
          f"{backend} with --atol 1e-9: rule {rule.describe()}, expected rtol 0, atol 1e-9")

for before, after, busy in ((0.2, 2.1, False), (1.0, 3.0, False), (1.01, 2.0, True),
                            (0.5, 3.2, True), (None, 3.5, True), (None, None, False)):
    got, text = load_verdict(before, after, 2)
    check(got is busy and (("TOO BUSY TO TIME" in text) is busy),
          f"load {before} before, {after} after, on 2 cores: busy {got} ({text}), expected {busy}")
finish("regress_rules_test")
