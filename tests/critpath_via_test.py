#!/usr/bin/env python3
"""Critical paths that explain themselves (issue 40, part 4): what carries each link, and the data eDAG's paths.

usage: critpath_via_test.py BUILD_DIR CATEGORY

  hand   a hand-written RISC-V trace whose paths, costs and carriers are worked out below: the register or the
         bytes of each link in text, JSON and CSV, the full path through the stack pointer and the data eDAG's
         without it (--critical-path=data).
  cxx    the C++ example with many small calls (examples/cxx_stencil.cpp, whole run): the data eDAG's critical
         path and memory chain have no link carried by the stack pointer while the full path has such links,
         the full path's cycles add up to Tinf, the data path's to its own Tinf (at most Tinf), and the JSON
         report matches the schema; --critical-path=other is refused.
Prints 'N passed, N failed'.
"""
import csv
import json
import os
import tempfile

from realrun_lib import EX, check, edan, run_category, validate_schema

# Costs: with --cache=none every load and store is a memory-access vertex, alpha = 200; everything else 1.
#   0x1000 addi sp,sp,-16     F = 1
#   0x1004 addi sp,sp,-16     F = 2      (sp from 0x1000)
#   0x1008 addi s0,sp,16      F = 3      a frame pointer: a stack address in the data eDAG
#   0x100c ld a0,0(sp)        F = 202    (sp from 0x1004); data eDAG: an input, F = 200
#   0x1010 add a2,a0,a0       F = 203    (a0)
#   0x1014 sd a2,8(sp)        F = 403    (a2; sp finishes at 2)
#   0x1018 ld a3,8(sp)        F = 603    (the bytes 0x7ff08..+8 the store wrote)
#   0x101c mul a4,a3,a3       F = 604    (a3): Tinf; data eDAG 602
#   0x1020 ld a6,0(s0)        F = 203    (s0, off both paths)
TRACE = """# edan text trace 1
0;0x1000;addi sp,sp,-16
0;0x1004;addi sp,sp,-16
0;0x1008;addi s0,sp,16
0;0x100c;ld a0,0(sp);0x7ff00
0;0x1010;add a2,a0,a0
0;0x1014;sd a2,8(sp);0x7ff08
0;0x1018;ld a3,8(sp);0x7ff08
0;0x101c;mul a4,a3,a3
0;0x1020;ld a6,0(s0);0x7ff10
# edan end: 9 instructions
"""
# pc: (cycles, via) of the links that leave it; the last vertex of a path has none ("-")
FULL = {0x1000: (1, "sp"), 0x1004: (1, "sp"), 0x100c: (200, "a0"), 0x1010: (1, "a2"),
        0x1014: (200, "0x7ff08..+8"), 0x1018: (200, "a3"), 0x101c: (1, "-")}
DATA = {pc: v for pc, v in FULL.items() if pc >= 0x100c}
# the memory chain: the three accesses ld a0 -> sd a2 -> ld a3, the same in both eDAGs, ending at ld a3
CHAIN = {0x100c: "a0", 0x1010: "a2", 0x1014: "0x7ff08..+8", 0x1018: "-"}


def lines_of(path):
    return {l["pc"]: (l["cycles"], l["via"]) for l in path["lines"]}


def test_hand():
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "via.txt")
        with open(trace, "w") as f:
            f.write(TRACE)
        p = edan("analyze", "--json", "--cache=none", "--critical-path=data", "--csv-dir=" + d, trace)
        check(p.returncode == 0, f"analyze: exit {p.returncode}")
        r = json.loads(p.stdout)
        validate_schema(r, "hand trace")
        check(r["configurations"][0]["Tinf"] == 604 == r["critical_path"]["Tinf"], "Tinf 604")
        check(lines_of(r["critical_path"]) == FULL, f"full path {lines_of(r['critical_path'])}")
        check(r["data_critical_path"]["Tinf"] == 602, f"data Tinf {r['data_critical_path']['Tinf']} != 602")
        check(lines_of(r["data_critical_path"]) == DATA, f"data path {lines_of(r['data_critical_path'])}")
        for key in ("memory_chain", "data_memory_chain"):
            got = {pc: v for pc, (_, v) in lines_of(r[key]).items()}
            check(r[key]["D"] == 3 and got == CHAIN, f"{key}: D {r[key]['D']}, {got}")
        st = next(l for l in r["critical_path"]["lines"] if l["pc"] == 0x1014)
        check(st["bytes"] == {"address": 0x7ff08, "size": 8} and st["byte_links"] == 1 and st["register_links"] == 0
              and st["via_registers"] == [], f"the store's bytes: {st}")
        sp = next(l for l in r["critical_path"]["lines"] if l["pc"] == 0x1000)
        check(sp["via_registers"] == ["sp"] and sp["register_links"] == 1 and sp["bytes"] is None, f"sp: {sp}")
        with open(os.path.join(d, "via-critical-path.csv")) as f:
            rows = list(csv.DictReader(f))
        for name, want in (("critical_path", FULL), ("data_critical_path", DATA)):
            got = {int(x["pc"]): (int(x["cycles"]), x["via"]) for x in rows if x["path"] == name}
            check(got == want, f"CSV {name}: {got}")
        text = edan("analyze", "--cache=none", "--critical-path=data", trace).stdout
        check("data critical path: 5 instructions, 602 cycles" in text and "0x7ff08..+8" in text
              and "via" in text, "the text report names the data path and the carriers")


def sp_links(rows, name):
    return [x for x in rows if x["path"] == name and "sp" in x["via"].split(" ")[0].rstrip("+").split(",")]


def test_cxx():
    prog = os.path.join(EX, "cxx_stencil")
    with tempfile.TemporaryDirectory() as d:
        p = edan("run", "--json", "--critical-path=data", "--csv-dir=" + d, prog)
        check(p.returncode == 0, f"run cxx_stencil: exit {p.returncode}")
        r = json.loads(p.stdout.strip().splitlines()[-1])
        validate_schema(r, "cxx_stencil")
        with open(os.path.join(d, "cxx_stencil-critical-path.csv")) as f:
            rows = list(csv.DictReader(f))
        tinf = r["configurations"][0]["Tinf"]
        full = sum(int(x["cycles"]) for x in rows if x["path"] == "critical_path")
        data = sum(int(x["cycles"]) for x in rows if x["path"] == "data_critical_path")
        check(full == tinf == r["critical_path"]["Tinf"], f"full path {full} cycles, Tinf {tinf}")
        check(data == r["data_critical_path"]["Tinf"] <= tinf, f"data path {data} cycles, its Tinf "
              f"{r['data_critical_path']['Tinf']}, Tinf {tinf}")
        check(sp_links(rows, "critical_path") and sp_links(rows, "memory_chain"),
              "the full path and chain run through the stack pointer (the test could fail)")
        for name in ("data_critical_path", "data_memory_chain"):
            bad = sp_links(rows, name)
            check(not bad, f"{name}: links through the stack pointer: {bad[:3]}")
        check(r["data_memory_chain"]["D"] <= r["memory_chain"]["D"], "data D <= D")
    p = edan("run", "--critical-path=other", prog, expect=2)
    check(p.returncode == 2 and "--critical-path=other" in p.stderr, f"a wrong value refused: {p.stderr}")


run_category({"hand": test_hand, "cxx": test_cxx})
