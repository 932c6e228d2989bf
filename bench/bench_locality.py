#!/usr/bin/env python3
"""The locality figures of issue 22 (part of make bench): the reuse tracker and the footprint tool alone on
three streams over 2^20 lines (build/edan_reuse_speed: M accesses/s, the median of three runs, and bytes per
line), and MemGaze's estimates from 1 % samples (8192 loads of every 819,200) against the exact values of the
same run, for each workload's kernel traced alone (--filter): its footprint per window of 8192 loads, the
estimate, its 95 % half-width and sampled windows, and MemGaze's scaled footprint rho F. The whole programs'
sampled figures and their cost are bench_sampled.py's. Prints Markdown tables, also written to
BUILD_DIR/bench-locality.md; --update-docs puts them in docs/benchmarks.md between its bench-locality markers.

usage: bench_locality.py BUILD_DIR [--quick] [--update-docs]
"""
import datetime
import json
import os
import subprocess
import sys

from benchlib import commit, publish

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
QUICK = "--quick" in sys.argv
LINES, ACCESSES = ("65536", "1000000") if QUICK else ("1048576", "20000000")

# name, kernel, args
WORKLOADS = [("cg", "cg_solve", ["16", "29"]), ("hydro", "hydro_step_loop", ["24", "8"]),
             ("chase", "chase", ["1048576", "20000000"]), ("stream", "triad", ["1000000", "11"])]
if QUICK:
    WORKLOADS = [("cg", "cg_solve", ["8", "5"]), ("hydro", "hydro_step_loop", ["6", "3"]),
                 ("chase", "chase", ["65536", "200000"]), ("stream", "triad", ["10000", "5"])]


def reuse_rows():
    """bench/reuse_speed.c's rows: stream, mode, lines, accesses, M/s, bytes per line."""
    out = subprocess.run([os.path.join(BUILD, "edan_reuse_speed"), LINES, ACCESSES], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return [line.split("\t") for line in out.strip().splitlines()[1:]]


def sampled_rows():
    """Per workload's kernel: the sampled tool's row of each function."""
    rows = []
    for name, kernel, args in WORKLOADS:
        out = subprocess.run([os.path.join(BUILD, "edan"), "run", "--json", "--filter=" + kernel,
                              "--sample-period=819200", "--sample-window=8192", os.path.join(BUILD, "bench", name),
                              *args], check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        sm = json.loads(out.strip().splitlines()[-1])["sampled"]
        for f in sm["functions"] or []:
            c = f["counts"]
            rows.append([f"{name} {' '.join(args)}", f["name"], sm["samples"], c["loads"], c["window_blocks"],
                         c["window_blocks_estimate"], c["window_blocks_ci95"], c["sampled_windows"],
                         c["window_blocks_error"], c["blocks"], c["blocks_estimate"], c["blocks_error"]])
    return rows


def table_lines(header, reuse, sampled):
    out = list(header) + ["", "| reuse tracker, footprint tool alone | mode | distinct lines | accesses "
                              "| M accesses/s (median of 3) | bytes per line |", "|---|---|---:|---:|---:|---:|"]
    for stream, mode, lines, accesses, rate, per_line in reuse:
        out.append(f"| {stream} | {mode} | {int(lines):,} | {int(accesses):,} | {rate} | {per_line} |")
    out += ["", "| 1 % samples, kernel alone | function | samples | loads | F per window of 8192 loads "
                "| from the samples | ± 95 % | sampled windows | error | F of the run | MemGaze's rho F | error |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for w, fn, n, loads, wf, wfs, ci, nw, we, f, fs, fe in sampled:
        ci_text = "–" if ci is None else f"{ci:.1f}"
        out.append(f"| {w} | {fn} | {n} | {loads:,} | {wf:.1f} | {wfs:.1f} | {ci_text} | {nw} | {100 * we:+.1f} % "
                   f"| {f:,} | {fs:,.0f} | {100 * fe:+.0f} % |")
    return out


def self_test():
    """The tables' formatting on made-up numbers (no benchmark run)."""
    lines = table_lines(["header"], [["random", "stack distance", "1000", "2000", "12.5", "56.0"]],
                        [["w 1", "k", 3, 1000, 10.0, 10.5, 1.25, 3, 0.05, 100, 1000.0, 9.0],
                         ["w 1", "m", 3, 10, 4.0, 5.0, None, 1, 0.25, 7, 70.0, 9.0]])
    text = "\n".join(lines)
    ok = (lines[0] == "header" and "| random | stack distance | 1,000 | 2,000 | 12.5 | 56.0 |" in text
          and "| w 1 | k | 3 | 1,000 | 10.0 | 10.5 | 1.2 | 3 | +5.0 % | 100 | 1,000 | +900 % |" in text
          and "| w 1 | m | 3 | 10 | 4.0 | 5.0 | – | 1 | +25.0 % | 7 | 70 | +900 % |" in text)
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    if not ok:
        print(text, file=sys.stderr)
    return 0 if ok else 1


def main():
    if not BUILD:
        sys.exit(__doc__)
    cmd = "python3 bench/bench_locality.py " + " ".join(a if a != sys.argv[1] else os.path.relpath(BUILD)
                                                        for a in sys.argv[1:])
    load = os.getloadavg()[0]
    header = [f"Commit `{commit()}`, {datetime.date.today()}, `{cmd}` (load average {load:.1f} at the start)."]
    print("bench_locality: the reuse tracker and the footprint tool alone", file=sys.stderr)
    reuse = reuse_rows()
    print("bench_locality: sampled estimates of the kernels", file=sys.stderr)
    publish(table_lines(header, reuse, sampled_rows()), BUILD, "bench-locality", "bench-locality")


if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
    sys.exit(self_test())
main()
