#!/usr/bin/env python3
"""Whether the sources of a static library call each other in a circle.

Reads each library's symbol table with nm: an object file that uses a symbol
another of the same library defines depends on it. Exits 0 when no library's
dependencies have a cycle, 1 naming each cycle and the symbols that close it,
2 when nm fails, 77 when nm is not installed. The core (op2/core,
libop2_core.a) and the libraries above it (a backend's, a solver's) are kept
free of cycles so that each of their files can be read, tested and replaced
knowing only the files below it (docs/developing.md, "The map of the house").
"""
import argparse
import collections
import subprocess
import os
import sys


def read_symbols(library):
    """(defined: symbol -> object, used: object -> symbols) from nm -A."""
    try:
        text = subprocess.run(["nm", "-A", library], capture_output=True, text=True,
                              check=True).stdout
    except FileNotFoundError:
        print("core-loops: nm (binutils) is not installed: skipped", file=sys.stderr)
        sys.exit(77)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"core-loops: nm -A {library}: {e}", file=sys.stderr)
        sys.exit(2)
    defined, used, objects = {}, collections.defaultdict(set), set()
    for line in text.splitlines():
        # "lib.a:obj.o:0000 T name" or "lib.a:obj.o:                 U name"
        where, _, rest = line.rpartition(":")
        obj = where.rsplit(":", 1)[-1]
        fields = rest.split()
        if len(fields) < 2:
            continue
        objects.add(obj)
        kind, name = fields[-2], fields[-1]
        if kind == "U":
            used[obj].add(name)
        elif kind in "TDBRCGSV":
            defined[name] = obj
    return defined, used, sorted(objects)


def cycles(nodes, edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(1000, 4 * len(nodes)))
    for v in nodes:
        if v not in index:
            visit(v)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library", nargs="+",
                    help="a static library (.a), e.g. build/release/op2/libop2_core.a")
    args = ap.parse_args()
    status = 0
    for library in args.library:
        status = max(status, check_library(library))
    return status


def check_library(library):
    """0 when the library's object files have no cycle, 1 naming each."""
    defined, used, objects = read_symbols(library)
    edges = {o: {defined[s] for s in used[o] if s in defined and defined[s] != o} for o in objects}
    found = cycles(objects, edges)
    if not found:
        print(f"core-loops: {len(objects)} object files of {library}, no cycle")
        return 0
    for component in found:
        print(f"core-loops: {library}: a cycle of {len(component)} files: {', '.join(component)}")
        for a in component:
            for b in sorted(edges[a] & set(component)):
                names = sorted(s for s in used[a] if defined.get(s) == b)
                print(f"  {a} uses {b}: {', '.join(names)}")
    return 1


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    import suite_version  # the --version of every script
    suite_version.answer(sys.argv)
    sys.exit(main())
