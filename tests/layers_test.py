#!/usr/bin/env python3
"""The layers of src/ and the subsystem folders inside them: no upward include, no modules that include each other,
every folder used through its contract, no folders that call each other, no folder of more than 25 source files.

usage: layers_test.py SRC_DIR [OBJECT...]   check the tree; with the built objects of its sources, also the calls
       layers_test.py --self-test            check the checker on small trees it makes (and compiles, for the calls):
                                             every rule broken once, and a clean tree

Rules:
  - layers: a file includes no header of a layer above its own (LAYERS; the last entry's folders are tops, and
    neither may include the other).
  - modules: a module is the .c/.h pair of one base name in one folder (report/report, report/critpath_report), with
    its private header P_internal.h if it has one; a file of module A that includes B's header is an edge A -> B,
    and the modules' edges have no cycle.
  - contracts: a subsystem folder (a folder inside a layer, src/analysis/edag/) has one public header named after
    it (analysis/edag/edag.h), its contract; a file outside the folder includes no other header of it (those are
    the folder's internals).
  - calls: an object file is mapped to its folder by its source's path (the objects CMake builds are
    .../NAME.dir/src/FOLDER/FILE.c.o); a symbol one folder's object leaves undefined and another folder's defines
    is an edge between the folders. No cycle among the folders, nor among the top-level folders of src/ (an edge
    between two subsystem folders of one layer is none at that level).
  - size: no folder holds more than MAX_FILES .c and .h files, and no source file is longer than MAX_LINES lines
    (the developers' guide).
Prints 'N passed, N failed'; exits 1 on a violation.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# lowest first; the last entry's folders are tops, and neither may include the other
LAYERS = [["util"], ["isa", "memgaze"], ["trace"], ["analysis"], ["config"], ["report"], ["tool"], ["cli", "plugin"]]
RANK = {d: i for i, ds in enumerate(LAYERS) for d in ds}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/([^"]+)\.h"')
MAX_FILES = 25
MAX_LINES = 800
# Cycles of calls between folders that are allowed, as frozensets of folders; none today.
ALLOWED_CYCLES = set()


def module_of(folder, base):
    """A module's name: a private header P_internal.h belongs to module P."""
    return f"{folder}/{base[:-len('_internal')] if base.endswith('_internal') else base}"


def source_folders(src):
    """Every folder under src that holds files, as (relative folder, [names])."""
    for root, dirs, files in os.walk(src):
        dirs.sort()
        rel = os.path.relpath(root, src)
        if rel != ".":
            yield rel.replace(os.sep, "/"), sorted(files)


def include_violations(src):
    """Every upward include, include of another folder's internals, cycle of modules and oversized folder."""
    found, edges = [], {}
    folders = dict(source_folders(src))
    for folder, names in folders.items():
        top = folder.split("/")[0]
        if top not in RANK:
            if "/" not in folder:
                found.append(f"{folder}/: a folder that is no layer (layers: {LAYERS})")
            continue
        sources = [n for n in names if n.endswith((".c", ".h"))]
        if len(sources) > MAX_FILES:
            found.append(f"{folder}/: {len(sources)} source files, more than {MAX_FILES}: split it into subsystem "
                         "folders")
        if "/" in folder and sources and f"{folder.rsplit('/', 1)[1]}.h" not in sources:
            found.append(f"{folder}/: no contract header {folder}/{folder.rsplit('/', 1)[1]}.h")
        for name in sources:
            module = module_of(folder, name.rsplit(".", 1)[0])
            with open(os.path.join(src, folder, name), encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
            if len(lines) > MAX_LINES:
                found.append(f"{folder}/{name}: {len(lines)} lines, more than {MAX_LINES}: split it")
            for lineno, line in enumerate(lines, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                to_top, header = m.group(1), f"{m.group(1)}/{m.group(2)}.h"
                to_folder, to_base = header.rsplit("/", 1)
                to = module_of(to_folder, to_base[:-2])
                where = f"src/{folder}/{name}:{lineno}"
                if to_top not in RANK:
                    found.append(f"{where}: includes {header}, outside every layer")
                elif RANK[to_top] > RANK[top] or (RANK[to_top] == RANK[top] and to_top != top):
                    found.append(f"{where}: {top}/ includes {header} of the layer above, {to_top}/")
                if ("/" in to_folder and to_folder != folder
                        and to_base != f"{to_folder.rsplit('/', 1)[1]}.h"):
                    found.append(f"{where}: includes {header}, internal to {to_folder}/ (its contract: "
                                 f"{to_folder}/{to_folder.rsplit('/', 1)[1]}.h)")
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


# ---- calls between folders, from the objects' symbols ----

def object_folder(path):
    """The folder under src/ of an object's source: .../NAME.dir/src/FOLDER/FILE.c.o -> FOLDER (None: not of src/)."""
    rel = path.replace(os.sep, "/").split(".dir/", 1)[-1]
    if not rel.startswith("src/") or "/" not in rel[4:]:
        return None
    return rel[4:].rsplit("/", 1)[0]


def symbols(path):
    """(defined global symbols, undefined symbols) of one object, from nm."""
    out = subprocess.run(["nm", "-P", path], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRCGSVW":
            defined.add(name)
    return defined, undefined


def strongly_connected(nodes, edges):
    """The components of more than one node of a directed graph (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def call_violations(objects):
    """Every cycle of calls between folders (and between top-level folders), with the symbols that make it."""
    defined_in, uses = {}, []
    for path in objects:
        folder = object_folder(path)
        if folder is None:
            continue
        defined, undefined = symbols(path)
        for s in defined:
            defined_in.setdefault(s, folder)
        uses.append((folder, path, undefined))
    if not uses:
        return ["no object of src/ among the objects given: the calls cannot be checked"]
    found = []
    for level, name_of in (("folders", lambda f: f), ("top-level folders", lambda f: f.split("/")[0])):
        edges = {}
        for folder, path, undefined in uses:
            a = name_of(folder)
            for s in undefined:
                if s in defined_in and name_of(defined_in[s]) != a:
                    b = name_of(defined_in[s])
                    edges.setdefault(a, {}).setdefault(b, set()).add(f"{s} ({os.path.basename(path)[:-2]})")
        nodes = set(edges) | {b for bs in edges.values() for b in bs}
        for comp in strongly_connected(nodes, edges):
            if frozenset(comp) in ALLOWED_CYCLES:
                continue
            steps = []
            for a in comp:
                for b in sorted(set(edges.get(a, {})) & set(comp)):
                    syms = sorted(edges[a][b])
                    more = f", ... {len(syms) - 3} more" if len(syms) > 3 else ""
                    steps.append(f"{a} -> {b} ({', '.join(syms[:3])}{more})")
            found.append(f"{level} call each other: " + "; ".join(steps))
    return found


# ---- self-test ----

def make_tree(root, files):
    for rel, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as f:
            f.write(text)


def compile_tree(root):
    """The objects of every .c under root/src, laid out as CMake lays them out (root/t.dir/src/...)."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    objects = []
    for folder, names in source_folders(os.path.join(root, "src")):
        for name in names:
            if name.endswith(".c"):
                obj = os.path.join(root, "t.dir", "src", folder, name + ".o")
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                subprocess.run([cc, "-c", "-I", os.path.join(root, "src"), "-o", obj,
                                os.path.join(root, "src", folder, name)], check=True)
                objects.append(obj)
    return objects


def self_test():
    calls_ok = {"analysis/a/a.h": "int a_f(void);\n", "analysis/b/b.h": "int b_f(void);\n",
                "analysis/a/a.c": '#include "analysis/b/b.h"\nint a_f(void) { return b_f(); }\n',
                "analysis/b/b.c": "int b_f(void) { return 1; }\n",
                "tool/t.c": '#include "analysis/a/a.h"\nint t_f(void) { return a_f(); }\n'}
    # b calls a through a declaration of its own: no include edge, a call edge
    calls_cycle = dict(calls_ok, **{"analysis/b/b.c": "int a_f(void);\nint b_f(void) { return 0; }\n"
                                                      "int b_g(void) { return a_f(); }\n"})
    # a lower layer calls a higher one's function, declared by hand: b -> tool -> a is no cycle of folders,
    # analysis -> tool -> analysis is one of top-level folders
    calls_up = dict(calls_ok, **{"analysis/a/a.c": "int a_f(void) { return 1; }\n",
                                 "analysis/b/b.c": "int t_f(void);\nint b_f(void) { return t_f(); }\n"})
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
        "contract": ({"analysis/e/e.h": '#include "analysis/e/f.h"\n', "analysis/e/f.h": "",
                      "analysis/e/e.c": '#include "analysis/e/f.h"\n', "tool/t.c": '#include "analysis/e/e.h"\n',
                      "analysis/g/g.h": '#include "analysis/e/e.h"\n'}, 0),
        "internal header": ({"analysis/e/e.h": "", "analysis/e/f.h": "", "tool/t.c": '#include "analysis/e/f.h"\n'},
                            1),
        "no contract": ({"analysis/e/f.h": "", "analysis/e/f.c": '#include "analysis/e/f.h"\n'}, 1),
        "too many files": ({f"report/r{i}.c": "" for i in range(MAX_FILES + 1)}, 1),
        "too long a file": ({"report/long.c": "int x;\n" * (MAX_LINES + 1), "report/short.c": "int y;\n" * MAX_LINES}, 1),
        "calls": (calls_ok, 0),
        "calls in a cycle": (calls_cycle, 1),
        "calls up the layers": (calls_up, 1),
    }
    passed = failed = 0
    for name, (files, expect) in cases.items():
        with tempfile.TemporaryDirectory() as d:
            make_tree(os.path.join(d, "src"), files)
            got = include_violations(os.path.join(d, "src"))
            if name.startswith("calls"):
                got += call_violations(compile_tree(d))
        if len(got) == expect:
            passed += 1
        else:
            failed += 1
            print(f"FAILED: self-test '{name}': expected {expect} violation(s), found {got}", file=sys.stderr)
    return passed, failed


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if sys.argv[1] == "--self-test":
        passed, failed = self_test()
    else:
        found = include_violations(sys.argv[1])
        if len(sys.argv) > 2:
            # CMake passes each target's objects as one argument, a ;-separated list
            found += call_violations([o for arg in sys.argv[2:] for o in arg.split(";") if o])
        for v in found:
            print("FAILED:", v, file=sys.stderr)
        passed, failed = (0 if found else 1), len(found)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
