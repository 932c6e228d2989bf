#!/usr/bin/env python3
"""What warm state costs (docs/model.md, "Warm state and --cold"): a filtered edan run warm (the default)
against --cold, on examples/evict (a kernel called in a loop between passes that evict its data) and on a
larger region, spmv, whose set-up runs outside the region: with the timing model, with an eDAG cache and with
nothing to warm. Medians of --runs runs, the commands interleaved (benchlib); wall and CPU seconds (user +
system of edan and QEMU), the ratio warm / cold of each.

usage: bench_warm.py BUILD_DIR [--runs 5]
"""
import os
import subprocess
import sys

from benchlib import commit, interleaved

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else sys.exit(__doc__)
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 5
EDAN = os.path.join(BUILD, "edan")
EX = os.path.join(BUILD, "examples")
MACHINE = ["--machine=gem5-validation", "--mem-latency=50,300"]
CASES = [
    ("evict 64 1024", "--machine", MACHINE, ["evict", "64", "1024"]),
    ("spmv 100000", "--machine", MACHINE, ["spmv", "100000"]),
    ("evict 64 1024", "--cache=32K", ["--cache=32K"], ["evict", "64", "1024"]),
    ("spmv 100000", "--cache=32K", ["--cache=32K"], ["spmv", "100000"]),
    ("spmv 100000", "nothing to warm", [], ["spmv", "100000"]),
]


def instructions(prog, filtered):
    p = subprocess.run([EDAN, "run", *(["--filter=kernel"] if filtered else []), os.path.join(EX, prog[0]), *prog[1:]],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return int([ln for ln in p.stdout.splitlines() if "vertices" in ln][0].split()[-1])


print(f"commit {commit()}, {RUNS} runs each, interleaved")
print("| program | analysis | region / program instructions | wall warm | wall cold | warm / cold | CPU warm | "
      "CPU cold | warm / cold |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for name, what, opts, prog in CASES:
    argv = ["--filter=kernel", *opts, os.path.join(EX, prog[0]), *prog[1:]]
    r = interleaved({"warm": ([EDAN, "run", *argv], subprocess.DEVNULL),
                     "cold": ([EDAN, "run", "--cold", *argv], subprocess.DEVNULL)}, RUNS)
    w, c = r["warm"], r["cold"]
    print(f"| {name} | {what} | {instructions(prog, True):,} / {instructions(prog, False):,} | {w[0]:.2f} | "
          f"{c[0]:.2f} | {w[0] / c[0]:.2f}× | {w[3]:.2f} | {c[3]:.2f} | {w[3] / c[3]:.2f}× |")
