#!/usr/bin/env python3
"""A filtered region measured inside the program (issue 37's target): for each of the HPCG-like cg's
parts, WAXPBY, DDOT, SpMV and SymGS (bench/workloads/cg.c built with -DCG_FUNCTIONS: build/bench/cg_fn),
the slowdown that `edan run --filter=F --machine=M --mem-latency=LO,HI` predicts, against the same
function's row of the timing model's per-function table in one whole-program run
(`edan run --functions=waxpby,dot,spmv,symgs --machine=M --mem-latency=LO,HI`). Target: within 5 %,
warm (the default). Each in the default (sampled) schedule and with --exact, and --cold beside them,
where the filtered function starts with the caches only its own calls left.
Prints a Markdown table, also written to BUILD_DIR/bench-warm-functions.md; --update-docs puts it in
docs/benchmarks.md between its bench-warm-functions markers. With --check, exit status 1 when an
--exact warm row misses the target (the sampled rows are estimates of a whole run's functions; the
table shows how far they are).

usage: bench_warm_functions.py BUILD_DIR [--quick] [--check] [--machine FILE] [--update-docs]
"""
import datetime
import json
import os
import subprocess
import sys

from benchlib import commit, publish

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
if not BUILD:
    sys.exit(__doc__)
QUICK = "--quick" in sys.argv
MACHINE = sys.argv[sys.argv.index("--machine") + 1] if "--machine" in sys.argv else \
    os.path.join(HERE, "..", "machines", "gem5-validation.ini")
LATS = "50,300"
ARGS = ["16", "2"] if QUICK else ["16", "10"]
FUNCS = [("WAXPBY", "waxpby"), ("DDOT", "dot"), ("SpMV", "spmv"), ("SymGS", "symgs")]
TARGET = 0.05


def run(*opts):
    p = subprocess.run([os.path.join(BUILD, "edan"), "run", "--json", "--machine=" + MACHINE, "--mem-latency=" + LATS,
                        *opts, os.path.join(BUILD, "bench", "cg_fn"), *ARGS], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit(f"bench_warm_functions: edan run {' '.join(opts)} failed ({p.returncode}): {p.stderr}")
    return json.loads(p.stdout)["prediction"]


def slowdown(cycles):
    return cycles[-1] / cycles[0] if cycles[0] else float("nan")


def main():
    names = ",".join(f for _, f in FUNCS)
    rows, missed = [], 0
    for mode, extra in (("sampled", []), ("exact", ["--exact"])):
        whole = {r["name"]: r for r in run("--functions=" + names, *extra)["functions"]}
        for label, f in FUNCS:
            print(f"bench_warm_functions: {mode} {f}", file=sys.stderr)
            row = whole[f]
            warm, cold = run("--filter=" + f, *extra), run("--filter=" + f, "--cold", *extra)
            s_row, s_warm, s_cold = slowdown(row["cycles"]), warm["slowdown"], cold["slowdown"]
            err_warm, err_cold = s_warm / s_row - 1, s_cold / s_row - 1
            missed += mode == "exact" and abs(err_warm) > TARGET
            rows.append(f"| {label} (`{f}`) | {mode} | {row['instructions']:,} | {s_row:.4f} | {s_warm:.4f} | "
                        f"{100 * err_warm:+.2f} % | {s_cold:.4f} | {100 * err_cold:+.2f} % | "
                        f"{warm['cycles'][0] / row['cycles'][0] - 1:+.2%} |")
    lines = [f"Commit `{commit()}`, {datetime.date.today()}, `python3 bench/bench_warm_functions.py "
             f"{os.path.relpath(BUILD)}{' --quick' if QUICK else ''}`: `cg_fn {' '.join(ARGS)}`, machine "
             f"`{os.path.basename(MACHINE)}`, `--mem-latency={LATS}`; slowdown = time at {LATS.split(',')[-1]} ns / "
             f"at {LATS.split(',')[0]} ns. Target: the filtered (warm) slowdown within {100 * TARGET:.0f} % of the row.",
             "",
             "| function | schedule | instructions (row) | slowdown, whole program's row | `--filter=F` (warm) | "
             "error | `--filter=F --cold` | error | filtered cycles at the lowest latency against the row |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"] + rows
    publish(lines, BUILD, "bench-warm-functions", "bench-warm-functions")
    return 1 if missed and "--check" in sys.argv else 0


if __name__ == "__main__":
    sys.exit(main())
