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

Another program (bench_apps.py: HPCG): --program 'PROGRAM ARGS' and --functions 'LABEL=F,...'
instead of cg_fn's (F by its plain name; a C++ function's row is found by the name before its
parameters), --schedules sampled (or exact: the schedules measured, both by default), --no-cold and
--name NAME (BUILD_DIR/NAME.md and the docs' NAME markers). The commands run in the current
directory (HPCG writes its reports there).

usage: bench_warm_functions.py BUILD_DIR [--quick] [--check] [--machine FILE] [--update-docs]
       [--program 'PROGRAM ARGS' --functions 'LABEL=F,...'] [--schedules S,...] [--no-cold] [--name NAME]
"""
import datetime
import json
import os
import shlex
import subprocess
import sys

from benchlib import commit, publish, option, build_dir

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = build_dir(__doc__)
QUICK = "--quick" in sys.argv
MACHINE = option("--machine", os.path.join(HERE, "..", "machines", "gem5-validation.ini"))
LATS = "50,300"
TARGET = 0.05


PROGRAM = [os.path.join(BUILD, "bench", "cg_fn")] + (["16", "2"] if QUICK else ["16", "10"])
FUNCS = [("WAXPBY", "waxpby"), ("DDOT", "dot"), ("SpMV", "spmv"), ("SymGS", "symgs")]
if option("--program"):
    PROGRAM = shlex.split(option("--program"))
    PROGRAM[0] = os.path.abspath(PROGRAM[0])
    FUNCS = [tuple(f.split("=", 1)) for f in option("--functions", "").split(",") if "=" in f]
    if not FUNCS:
        sys.exit("bench_warm_functions: --program needs --functions 'LABEL=F,...'")
SCHEDULES = option("--schedules", "sampled,exact").split(",")
COLD = "--no-cold" not in sys.argv
NAME = option("--name", "bench-warm-functions")


def run(*opts):
    p = subprocess.run([os.path.join(BUILD, "edan"), "run", "--json", "--machine=" + MACHINE, "--mem-latency=" + LATS,
                        *opts, *PROGRAM], stdout=subprocess.PIPE,
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
        if mode not in SCHEDULES:
            continue
        # a row by the function's plain name: a C++ function's is its demangled name with parameters
        whole = {(r["name"] or "").split("(")[0]: r for r in run("--functions=" + names, *extra)["functions"]}
        for label, f in FUNCS:
            print(f"bench_warm_functions: {mode} {f}", file=sys.stderr)
            row = whole[f]
            warm = run("--filter=" + f, *extra)
            s_row, s_warm = slowdown(row["cycles"]), warm["slowdown"]
            err_warm = s_warm / s_row - 1
            if COLD:
                s_cold = run("--filter=" + f, "--cold", *extra)["slowdown"]
                cold = f"{s_cold:.4f} | {100 * (s_cold / s_row - 1):+.2f} %"
            else:
                cold = "– | –"
            missed += mode == "exact" and abs(err_warm) > TARGET
            rows.append(f"| {label} (`{f}`) | {mode} | {row['instructions']:,} | {s_row:.4f} | {s_warm:.4f} | "
                        f"{100 * err_warm:+.2f} % | {cold} | "
                        f"{warm['cycles'][0] / row['cycles'][0] - 1:+.2%} |")
    given = (f" --program '{' '.join([os.path.relpath(PROGRAM[0], ROOT)] + PROGRAM[1:])}' --functions "
             f"'{','.join(f'{lb}={f}' for lb, f in FUNCS)}'" if option("--program") else "") + \
        (f" --schedules {option('--schedules')}" if option("--schedules") else "") + \
        (" --no-cold" if not COLD else "") + (f" --name {NAME}" if NAME != "bench-warm-functions" else "")
    lines = [f"Commit `{commit()}`, {datetime.date.today()}, `python3 bench/bench_warm_functions.py "
             f"{os.path.relpath(BUILD, ROOT)}{' --quick' if QUICK else ''}{given}`: "
             f"`{' '.join([os.path.basename(PROGRAM[0])] + PROGRAM[1:])}`, machine "
             f"`{os.path.basename(MACHINE)}`, `--mem-latency={LATS}`; slowdown = time at {LATS.split(',')[-1]} ns / "
             f"at {LATS.split(',')[0]} ns. Target: the filtered (warm) slowdown within {100 * TARGET:.0f} % of the row.",
             "",
             "| function | schedule | instructions (row) | slowdown, whole program's row | `--filter=F` (warm) | "
             "error | `--filter=F --cold` | error | filtered cycles at the lowest latency against the row |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"] + rows
    publish(lines, BUILD, NAME, NAME)
    return 1 if missed and "--check" in sys.argv else 0


if __name__ == "__main__":
    sys.exit(main())
