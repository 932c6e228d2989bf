#!/usr/bin/env python3
"""Critical paths that explain themselves (issue 40, part 4): what carries each link, and the data eDAG's paths.

usage: critpath_via_test.py BUILD_DIR CATEGORY

  hand   a hand-written RISC-V trace whose paths, costs and carriers are worked out below: the register or the
         bytes of each link in text, JSON and CSV, the full path through the stack pointer and the data eDAG's
         without it (--critical-path=data); a line whose links ten registers carry lists them all, in text,
         JSON, CSV and HTML alike.
  cxx    the C++ example with many small calls (examples/cxx_stencil.cpp, whole run): the data eDAG's critical
         path and memory chain have no link carried by the stack pointer while the full path has such links,
         the full path's cycles add up to Tinf, the data path's to its own Tinf (at most Tinf), and the JSON
         report matches the schema; --critical-path=other is refused.
  loops  hand-written loop, pointer-chase and integer-sum traces (worked out below): the data eDAG leaves the pointer
         increments and counters out, keeps the chase's loads (links named by the registers the loads read) and
         the sum's chain.
  kernels  the loop kernels of stream, stencils, cxx_stencil and pointer_chase: no link of the data path or chain
         carried by a register the function advances by a constant (objdump), the full path adds up to Tinf and
         the data path to its own, the pointer chase's loads all on the data path and chain, sum's integer
         reduction on the data path.
Prints 'N passed, N failed'.
"""
import csv
import json
import os
import re
import subprocess
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


# A copy loop of three iterations (cache none: alpha = 200, everything else 1): the full path runs through the
# pointer increments (addi a5 twice, then the last fld and fsd: 1 + 1 + 200 + 200 = 402); in the data eDAG the
# increments and the counter are bookkeeping (they only address memory and feed the branch), so every fld is an
# input and the path is the first fld and its fsd (400), carried by fa5.
LOOP = "".join(f"""0;0x2000;fld fa5,0(a5);{0x10000 + 8 * k:#x}
0;0x2004;fsd fa5,0(a3);{0x20000 + 8 * k:#x}
0;0x2008;addi a5,a5,8
0;0x200c;addi a3,a3,8
0;0x2010;addi a4,a4,-1
0;0x2014;bne a4,zero,0x2000
""" for k in range(3))
LOOP_FULL = {0x2008: (2, "a5"), 0x2000: (200, "fa5"), 0x2004: (200, "-")}
LOOP_DATA = {0x2000: (200, "fa5"), 0x2004: (200, "-")}
# A pointer chase through address arithmetic, three steps: a loaded index scaled and added to a base, the next
# index loaded from there. Full path: every load and the arithmetic between them, 200 + 3 * (1 + 1 + 200) = 806.
# Data eDAG: the add is bookkeeping from its first sight (it reads no data), the slli, which reads a loaded index,
# only "maybe" until the add (bookkeeping) reads it: both are contracted, each load's predecessor the load before
# it, 4 * 200 = 800, each link named by the register the next load read (a5); the memory chain is the four loads.
CHASE = "0;0x3000;ld a0,0(a1);0x9000\n" + "".join(f"""0;0x3004;slli a5,a0,3
0;0x3008;add a5,a2,a5
0;0x300c;ld a0,0(a5);{0x9100 + 0x100 * k:#x}
""" for k in range(3))
CHASE_FULL = {0x3000: (200, "a0"), 0x3004: (3, "a5"), 0x3008: (3, "a5"), 0x300c: (600, "a0")}
CHASE_DATA = {0x3000: (200, "a5"), 0x300c: (600, "a5")}
# An integer sum (sum.c's kernel, five iterations): the pointer and the counter compare are bookkeeping, the sum's
# addw never is (no use of it addresses memory or steers a branch), so both paths keep its chain: full 1 + 200 + 5
# (the mv's link to the first lw), data 200 + 5.
SUM = "0;0x100;li a0,0\n0;0x104;mv a5,a1\n" + "".join(f"""0;0x108;lw a4,0(a5);{0x9000 + 4 * k:#x}
0;0x10c;addi a5,a5,4
0;0x110;addw a0,a0,a4
0;0x114;bne a3,a5,0x108
""" for k in range(5))
SUM_FULL = {0x104: (1, "a5"), 0x108: (200, "a4"), 0x110: (5, "a0")}
SUM_DATA = {0x108: (200, "a4"), 0x110: (5, "a0")}


def test_loops():
    """Hand-worked loops: pointer increments and a counter left out, a pointer chase kept (worked out above)."""
    with tempfile.TemporaryDirectory() as d:
        for name, body, tinf, full, dtinf, data, dd in (("loop", LOOP, 402, LOOP_FULL, 400, LOOP_DATA, 2),
                                                       ("chase", CHASE, 806, CHASE_FULL, 800, CHASE_DATA, 4),
                                                       ("sum", SUM, 206, SUM_FULL, 205, SUM_DATA, 1)):
            trace = os.path.join(d, name + ".txt")
            with open(trace, "w") as f:
                f.write(f"# edan text trace 1\n{body}# edan end: {body.count(chr(10))} instructions\n")
            p = edan("analyze", "--json", "--cache=none", "--critical-path=data", trace)
            check(p.returncode == 0, f"{name}: exit {p.returncode}")
            r = json.loads(p.stdout)
            check(r["critical_path"]["Tinf"] == tinf == r["configurations"][0]["Tinf"], f"{name}: Tinf {tinf}")
            check(lines_of(r["critical_path"]) == full, f"{name}: full path {lines_of(r['critical_path'])}")
            check(r["data_critical_path"]["Tinf"] == dtinf, f"{name}: data Tinf {r['data_critical_path']['Tinf']}")
            check(lines_of(r["data_critical_path"]) == data, f"{name}: data path {lines_of(r['data_critical_path'])}")
            check(r["data_memory_chain"]["D"] == r["memory_chain"]["D"] == dd, f"{name}: D {dd} in both eDAGs")
            if name == "chase":
                got = {pc: v for pc, (_, v) in lines_of(r["data_memory_chain"]).items()}
                check(got == {pc: v for pc, (_, v) in CHASE_DATA.items()}, f"chase: data chain {got}")


# Ten instructions at one pc (the same code translated again), a chain each through its own register: the line's
# links are carried by all ten, listed in the order of the registers' numbers, in every format alike.
MANY = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3"]


def test_many_registers():
    body = "0;0x4000;addi a0,zero,1\n" + "".join(f"0;0x4000;addi {r},{q},1\n" for q, r in zip(MANY, MANY[1:]))
    body += f"0;0x4004;add t0,{MANY[-1]},{MANY[-1]}\n"
    want = ",".join(MANY)
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "regs.txt")
        with open(trace, "w") as f:
            f.write(f"# edan text trace 1\n{body}# edan end: {len(MANY) + 1} instructions\n")
        html = os.path.join(d, "regs.html")
        p = edan("analyze", "--json", "--cache=none", "--critical-path", "--csv-dir=" + d, "--html=" + html, trace)
        check(p.returncode == 0, f"many registers: exit {p.returncode}")
        line = next((l for l in json.loads(p.stdout)["critical_path"]["lines"] if l["pc"] == 0x4000), {})
        check(line.get("via") == want and line.get("via_registers") == MANY and line.get("register_links") == 10,
              f"JSON: all ten registers: {line}")
        with open(os.path.join(d, "regs-critical-path.csv")) as f:
            rows = [x for x in csv.DictReader(f) if x["path"] == "critical_path" and int(x["pc"]) == 0x4000]
        check(len(rows) == 1 and rows[0]["via"] == want, f"CSV: {rows}")
        text = edan("analyze", "--cache=none", "--critical-path", trace).stdout
        check(f" {want} " in text, "text: all ten registers")
        with open(html) as f:
            check(want in f.read(), "HTML: all ten registers")


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


def functions(prog):
    """The program's functions from objdump: (start, end, registers each advances by a constant)."""
    out = subprocess.run(["riscv64-linux-gnu-objdump", "-d", "--no-show-raw-insn", prog], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    funcs, cur = [], None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <(.*)>:$", line)
        if m:
            cur = [int(m.group(1), 16), int(m.group(1), 16), set()]
            funcs.append(cur)
            continue
        m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s+(\S+)", line)
        if m and cur:
            cur[1] = int(m.group(1), 16) + 1
            ops = m.group(3).split(",")
            # addi/addiw rX,rX,imm (objdump writes add/addw with an immediate): an induction update
            if m.group(2) in ("add", "addi", "addw", "addiw") and len(ops) == 3 and ops[0] == ops[1] \
                    and re.match(r"^-?(0x[0-9a-f]+|[0-9]+)$", ops[2]):
                cur[2].add(ops[0])
    return funcs


def induction_links(rows, name, funcs):
    """The rows of path `name` whose links are carried by a register its function advances by a constant."""
    bad = []
    for x in rows:
        if x["path"] != name:
            continue
        regs = set(x["via"].split(" ")[0].split(",")) if not x["via"].startswith(("0x", "-")) else set()
        ind = set().union(*[f[2] for f in funcs if f[0] <= int(x["pc"]) < f[1]])
        if regs & ind:
            bad.append((x["function"], x["line"], x["via"], sorted(regs & ind)))
    return bad


def test_kernels():
    """Loop kernels of the examples (region kernel): the data path has no link carried by an induction register
    while the full path of some has; the full path adds up to Tinf, the data path to its own; the pointer chase's
    data path and chain run through all its loads."""
    full_ind = 0
    steps = 300
    for prog, args in (("stream", []), ("stencils", []), ("cxx_stencil", []), ("pointer_chase", [str(steps)])):
        path = os.path.join(EX, prog)
        with tempfile.TemporaryDirectory() as d:
            p = edan("run", "--json", "--filter=kernel", "--critical-path=data", "--csv-dir=" + d, path, *args)
            check(p.returncode == 0, f"run {prog}: exit {p.returncode}")
            if p.returncode:
                continue
            r = json.loads(p.stdout.strip().splitlines()[-1])
            validate_schema(r, prog)
            csvs = [f for f in os.listdir(d) if f.endswith("-critical-path.csv")]
            with open(os.path.join(d, csvs[0])) as f:
                rows = list(csv.DictReader(f))
        funcs = functions(path)
        tinf = r["configurations"][0]["Tinf"]
        full = sum(int(x["cycles"]) for x in rows if x["path"] == "critical_path")
        data = sum(int(x["cycles"]) for x in rows if x["path"] == "data_critical_path")
        check(full == tinf == r["critical_path"]["Tinf"], f"{prog}: full path {full} cycles, Tinf {tinf}")
        check(data == r["data_critical_path"]["Tinf"] <= tinf, f"{prog}: data path {data} cycles")
        full_ind += len(induction_links(rows, "critical_path", funcs))
        for name in ("data_critical_path", "data_memory_chain"):
            bad = induction_links(rows, name, funcs)
            check(not bad, f"{prog}: {name} has links carried by induction registers: {bad[:3]}")
        if prog == "pointer_chase":
            # every step's load on the data path and chain (the chase stays data), as on the full ones
            check(r["data_memory_chain"]["D"] == r["memory_chain"]["D"] >= steps,
                  f"pointer_chase: D {r['memory_chain']['D']}, data D {r['data_memory_chain']['D']}")
            check(r["data_critical_path"]["memory_accesses"] >= steps,
                  f"pointer_chase: {r['data_critical_path']['memory_accesses']} loads on the data path")
    check(full_ind > 0, "the full paths have links carried by induction registers (the test could fail)")
    # an integer sum of loaded values is data: its chain of adds stays on the data path
    n = 50
    r = json.loads(edan("run", "--json", "--filter=kernel", "--critical-path=data", os.path.join(EX, "sum"),
                        str(n)).stdout.strip().splitlines()[-1])
    check(r["data_critical_path"]["instructions"] > n and r["data_critical_path"]["Tinf"] > n,
          f"sum {n}: the data path keeps the sum's chain: {r['data_critical_path']['instructions']} instructions")


def test_hand_all():
    test_hand()
    test_many_registers()


run_category({"hand": test_hand_all, "cxx": test_cxx, "loops": test_loops, "kernels": test_kernels})
