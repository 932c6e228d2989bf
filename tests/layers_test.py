#!/usr/bin/env python3
"""The layers of src/: no file includes a header of a layer above its own, and no two modules include each other.

usage: layers_test.py SRC_DIR       check the tree
       layers_test.py --self-test   check the checker on small trees it makes: an upward include, an include
                                    between the two tops, a cycle of modules, and a clean tree

A module is the .c/.h pair of one base name in one folder (report/report, report/critpath_report), with its
private header P_internal.h if it has one; a file of module A that includes B's header is an edge A -> B. Prints 'N passed, N failed'; exits 1 on a violation.
"""
import os
import re
import sys
import tempfile

# lowest first; the last entry's folders are tops, and neither may include the other
LAYERS = [["util"], ["isa", "memgaze"], ["trace"], ["analysis"], ["config"], ["report"], ["tool"], ["cli", "plugin"]]
RANK = {d: i for i, ds in enumerate(LAYERS) for d in ds}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/([^"]+)\.h"')


def module_of(folder, base):
    """A module's name: a private header P_internal.h belongs to module P."""
    return f"{folder}/{base[:-len('_internal')] if base.endswith('_internal') else base}"


def violations(src):
    """Every upward include and every cycle of modules under src, as messages."""
    found, edges = [], {}
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        if folder not in RANK:
            found.append(f"{folder}/: a folder that is no layer (layers: {LAYERS})")
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".c", ".h")):
                continue
            module = module_of(folder, name.rsplit(".", 1)[0])
            with open(os.path.join(path, name), encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    to_folder, to = m.group(1), module_of(m.group(1), m.group(2))
                    where = f"src/{folder}/{name}:{lineno}"
                    if to_folder not in RANK:
                        found.append(f"{where}: includes {m.group(1)}/{m.group(2)}.h, outside every layer")
                    elif RANK[to_folder] > RANK[folder] or (RANK[to_folder] == RANK[folder] and to_folder != folder):
                        found.append(f"{where}: {folder}/ includes {m.group(1)}/{m.group(2)}.h of the layer above, "
                                     f"{to_folder}/")
                    if to != module:
                        edges.setdefault(module, {}).setdefault(to, where)
    # cycles: depth-first search over modules, reporting each cycle once by its smallest member
    seen_cycles, state = set(), {}

    def visit(m, stack):
        state[m] = 1
        stack.append(m)
        for n in sorted(edges.get(m, {})):
            if state.get(n) == 1:
                cycle = stack[stack.index(n):]
                key = frozenset(cycle)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    steps = [f"{a} -> {b} ({edges[a][b]})" for a, b in zip(cycle, cycle[1:] + [n])]
                    found.append("modules include each other: " + ", ".join(steps))
            elif not state.get(n):
                visit(n, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if not state.get(m):
            visit(m, [])
    return found


def make_tree(root, files):
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)


def self_test():
    cases = {
        "clean": ({"util/a.h": "", "util/a.c": '#include "util/a.h"\n', "trace/t.c": '#include "util/a.h"\n',
                   "cli/m.c": '#include "tool/x.h"\n', "tool/x.h": '#include "report/r.h"\n', "report/r.h": ""},
                  0),
        "upward": ({"util/a.c": '#include "trace/t.h"\n', "trace/t.h": ""}, 1),
        "tops": ({"plugin/p.c": '#include "cli/c.h"\n', "cli/c.h": ""}, 1),
        "cycle": ({"report/a.c": '#include "report/b.h"\n', "report/b.c": '#include "report/a.h"\n',
                   "report/a.h": "", "report/b.h": ""}, 1),
        "unknown folder": ({"misc/x.c": ""}, 1),
        "private header": ({"analysis/e.c": '#include "analysis/e_internal.h"\n',
                            "analysis/e_internal.h": '#include "analysis/e.h"\n', "analysis/e.h": ""}, 0),
    }
    passed = failed = 0
    for name, (files, expect) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            make_tree(d, files)
            got = violations(d)
        if len(got) == expect:
            passed += 1
        else:
            failed += 1
            print(f"FAILED: self-test '{name}': expected {expect} violation(s), found {got}", file=sys.stderr)
    return passed, failed


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "--self-test":
        passed, failed = self_test()
    else:
        found = violations(sys.argv[1])
        for v in found:
            print("FAILED:", v, file=sys.stderr)
        passed, failed = (0 if found else 1), len(found)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
