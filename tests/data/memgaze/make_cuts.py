#!/usr/bin/env python3
"""Makes the vendored MemGaze check cases of this folder from MemGaze's full ones, with their expected outputs
written by MemGaze's own analyzer.

usage: make_cuts.py MEMGAZE_CHECK MEMGAZE_ANALYZE OUT_DIR

MEMGAZE_CHECK: pnnl/memgaze's mem-anlys/check/ (commit 5545a59); MEMGAZE_ANALYZE: its memgaze-analyze built at
that commit (cd mem-anlys && g++ -std=c++11 -g -O3 main.cpp Function.cpp Window.cpp -o memgaze-analyze).
For each cut in CUTS: the trace keeps the loads of the listed SAMPLE ids, whole samples in trace order; the
.binanlys keeps the lines of instructions the cut trace has; the .hpcstruct keeps its lines outside any <P>
block and the <P> blocks of the functions a load of the cut trace falls in (the last start at or below it)
and of the function with the highest start (MemGaze's lookup bound); the .callpath is copied. Then
    memgaze-analyze -t ./C/C.trace -c ./C/C.callpath -l ./C/C.binanlys -s ./C/C.hpcstruct -o C.out -m 1 -p P
runs in OUT_DIR as MemGaze's check/Makefile runs it, and C.out, C.out-oe become C/C.gold, C/C.gold-oe. The
script also runs the analyzer on the cut trace with the full .binanlys and .hpcstruct and stops if the table or
a per-function line differs: trimming those two files changes no output. Finally it prints which rules of
tests/memgaze_rules.py each cut exercises.
"""
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import memgaze_rules  # noqa: E402

# (name of the cut, MemGaze's case, SAMPLE ids kept as inclusive ranges)
CUTS = [
    ("ubench-O3-n500k-buf8k-p100000-s0-90", "ubench-O3-n500k-buf8k-p100000", [(0, 90)]),
    ("ubench-O3-n500k-buf8k-p100000-s0-91+197", "ubench-O3-n500k-buf8k-p100000", [(0, 91), (197, 197)]),
    ("minivite-v1-O3-n300k-buf8k-p10000000-part2-s36386-36387+36406-36408+36475",
     "minivite-v1-O3-n300k-buf8k-p10000000-part2", [(36386, 36387), (36406, 36408), (36475, 36475)]),
]


def hpc_start(line):
    """MemGaze's reading of a <P> line's start: the hexadecimal after v="{[."""
    i = line.find('v="{[')
    m = re.match(r"(?:0x)?([0-9a-fA-F]+)", line[i + 5:]) if i >= 0 else None
    return int(m.group(1), 16) if m else None


def trim_hpcstruct(src, dst, ips):
    with open(src, errors="surrogateescape") as f:
        lines = f.readlines()
    starts, inside = [], False
    for line in lines:
        if "<HPCToolkitStructure" in line:
            inside = True
        elif "</HPCToolkitStructure" in line:
            inside = False
        elif inside and "<P" in line and hpc_start(line) is not None:
            starts.append(hpc_start(line))
    ordered = sorted(set(starts))
    keep = {ordered[-1]}
    for ip in ips:
        below = [s for s in ordered if s <= ip]
        if below:
            keep.add(below[-1])
    out, depth, drop = [], 0, False
    for line in lines:
        opens = "<P " in line and not line.rstrip().endswith("/>")
        if depth == 0 and opens:
            drop = hpc_start(line) not in keep
        if not drop:
            out.append(line)
        depth += opens
        if "</P>" in line:
            depth -= 1
            if depth == 0:
                drop = False
    with open(dst, "w", errors="surrogateescape") as f:
        f.writelines(out)


def analyze(exe, work, name, period):
    cmd = [exe, "-t", f"./{name}/{name}.trace", "-c", f"./{name}/{name}.callpath", "-l",
           f"./{name}/{name}.binanlys", "-s", f"./{name}/{name}.hpcstruct", "-o", f"{name}.out", "-m", "1",
           "-p", str(period)]
    with open(os.path.join(work, f"{name}.out-oe"), "wb") as oe:
        subprocess.run(cmd, cwd=work, stdout=oe, stderr=subprocess.STDOUT, check=True)
    with open(os.path.join(work, f"{name}.out"), "rb") as f:
        table = f.read()
    with open(os.path.join(work, f"{name}.out-oe"), "rb") as f:
        funcs = [line for line in f if b" StartIP: " in line]
    return table, funcs


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    check, exe, out = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    for name, case, ranges in CUTS:
        period = memgaze_rules.period_of(case)
        src = os.path.join(check, case)
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        ips = set()
        with open(f"{src}/{case}.trace") as f, open(f"{d}/{name}.trace", "w") as g:
            for line in f:
                sid = int(line.split()[4])
                if any(lo <= sid <= hi for lo, hi in ranges):
                    g.write(line)
                    ips.add(int(line.split()[0], 16))
        with open(f"{src}/{case}.binanlys") as f, open(f"{d}/{name}.binanlys", "w") as g:
            g.writelines(line for line in f if int(line.split()[0], 16) in ips)
        trim_hpcstruct(f"{src}/{case}.hpcstruct", f"{d}/{name}.hpcstruct", ips)
        shutil.copyfile(f"{src}/{case}.callpath", f"{d}/{name}.callpath")
        got = analyze(exe, out, name, period)
        # the same cut trace with MemGaze's whole class and structure files: the same outputs
        full = os.path.join(out, "full-inputs")
        fd = os.path.join(full, name)
        os.makedirs(fd, exist_ok=True)
        shutil.copyfile(f"{d}/{name}.trace", f"{fd}/{name}.trace")
        for ext in ("binanlys", "hpcstruct", "callpath"):
            shutil.copyfile(f"{src}/{case}.{ext}", f"{fd}/{name}.{ext}")
        if analyze(exe, full, name, period) != got:
            sys.exit(f"{name}: trimming the .binanlys or .hpcstruct changed MemGaze's output")
        shutil.rmtree(full)
        os.replace(os.path.join(out, f"{name}.out"), f"{d}/{name}.gold")
        os.replace(os.path.join(out, f"{name}.out-oe"), f"{d}/{name}.gold-oe")
        ev, table = memgaze_rules.analyse(d, name, period)
        bad = memgaze_rules.check_gold(d, name, table)
        print(f"{name}: {sum(os.path.getsize(os.path.join(d, x)) for x in os.listdir(d))} bytes, "
              f"{len(got[1])} per-function lines; the rules model {'DIFFERS: ' + str(bad) if bad else 'agrees'}")
        print("   " + ", ".join(f"{k} {ev[k]}" for k, _ in memgaze_rules.RULES if ev[k]))


if __name__ == "__main__":
    main()
