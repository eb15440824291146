"""The --version of the suite's Python scripts: the script's name, the suite's
version (the project's CMakeLists.txt) and the commit of the checkout it is in,
read from the files without running git, as scripts/lib/help.sh does for the
shell scripts.

    if __name__ == "__main__":
        sys.path.insert(0, ...scripts/lib...)
        import suite_version
        suite_version.answer(sys.argv)
"""
import os
import re
import sys


def source_root(start):
    """The first folder above start whose CMakeLists.txt declares the suite."""
    d = os.path.abspath(start)
    while True:
        try:
            with open(os.path.join(d, "CMakeLists.txt")) as f:
                if re.search(r"^project\(op2suite ", f.read(), re.M):
                    return d
        except OSError:
            pass
        if os.path.dirname(d) == d:
            return None
        d = os.path.dirname(d)


def _read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def commit(root):
    """The checkout's commit: HEAD through a worktree's gitdir and packed refs."""
    git = os.path.join(root, ".git")
    if os.path.isfile(git):
        m = re.match(r"gitdir: (.*)", _read(git) or "")
        git = os.path.join(root, m.group(1)) if m else git
    head = _read(os.path.join(git, "HEAD"))
    if not head:
        return "unknown"
    if not head.startswith("ref: "):
        return head
    ref = head[5:]
    common = git
    if os.path.isfile(os.path.join(git, "commondir")):
        common = os.path.join(git, _read(os.path.join(git, "commondir")))
    for d in (git, common):
        found = _read(os.path.join(d, ref))
        if found:
            return found
    for line in (_read(os.path.join(common, "packed-refs")) or "").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1] == ref:
            return parts[0]
    return "unknown"


def version_line(script):
    root = source_root(os.path.dirname(os.path.abspath(script)))
    version, sha = "unknown", "unknown"
    if root:
        with open(os.path.join(root, "CMakeLists.txt")) as f:
            m = re.search(r"^project\(op2suite VERSION ([0-9.]+)", f.read(), re.M)
        version = m.group(1) if m else version
        sha = commit(root)
    return "%s (op2suite %s, commit %s)" % (os.path.basename(script), version, sha)


def answer(argv, usage=None):
    """Prints the version line and exits 0 when argv asks for --version; with a
    usage text (a test driver's docstring), prints it and exits 0 when argv's
    first argument is -h or --help, so that a driver run by hand says what it
    is instead of running its tests."""
    if "--version" in argv[1:]:
        print(version_line(argv[0]))
        sys.exit(0)
    if usage is not None and argv[1:2] in (["-h"], ["--help"]):
        print(usage.strip())
        sys.exit(0)
