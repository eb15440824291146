"""Whether a machine was quiet enough for the times taken on it, from its
load average (1 minute, /proc/loadavg) before and after the runs, for the
reports of scripts/bench.sh and scripts/regress.sh.

Other work that holds more than half the cores makes a run share them (an
OpenMP run on every core waits at each barrier for the thread that lost its
core: on the 2-core development machine, at load 5 to 14, OpenMP ran 5 to 70
times slower than seq). Before the runs the load is other work's; after
them it also holds the runs' own threads, at most one per core, so the
limit is the cores and a half.
"""


def load_verdict(before, after, cores):
    """(busy, text): whether the loads say the machine was too busy to time,
    and a line that says so with the figures; None for a load not known."""
    if not cores or cores < 1:
        return False, "load average not judged (cores unknown)"
    known = [x for x in (before, after) if x is not None]
    figures = ", ".join(f"{x:g} {when}" for x, when in ((before, "before the runs"),
                                                        (after, "after them"))
                        if x is not None) or "not known"
    busy = (before is not None and before > cores / 2) or \
        (after is not None and after > cores * 1.5)
    if not known:
        return False, f"load average not known, on {cores} cores: not judged"
    if busy:
        return True, (f"TOO BUSY TO TIME: load average (1 minute) {figures}, on {cores} cores "
                      f"(other work above half the cores: more than {cores / 2:g} before the "
                      f"runs, {cores * 1.5:g} after): the times include other work's; take "
                      "them again on an idle machine")
    return False, (f"load average (1 minute) {figures}, on {cores} cores: quiet enough to time "
                   f"(at most {cores / 2:g} before the runs, {cores * 1.5:g} after)")
