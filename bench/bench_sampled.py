#!/usr/bin/env python3
"""MemGaze's sampled mode online (issue 22, part of make bench): each workload traced whole by
`edan run --sample-only` at 1 % (W loads of every 100 W: the plugin traces the samples alone and
counts the loads between them) against the same program under plain qemu-riscv64, both pinned to
one core, runs interleaved round by round, the ratio the median of the rounds' ratios (of wall
times, and of user + system CPU times, which a neighbour's load on the shared core disturbs less); beside it
`edan run` with the same sampling from every load (the exact values too), and from that run the
estimates' errors against the exact values: the footprint per window (F/window, the quantity the
samples estimate directly) for the whole run and for each function with at least 1 % of the loads,
and MemGaze's whole-run footprint F^ = rho F(sigma). The two runs' estimates must be equal.
Prints a Markdown table, also written to BUILD_DIR/bench-sampled.md; --update-docs puts it in
docs/benchmarks.md between its bench-sampled markers.

usage: bench_sampled.py BUILD_DIR [--quick] [--runs N] [--update-docs]
"""
import datetime
import json
import os
import statistics
import subprocess
import sys

from benchlib import interleaved, commit, publish

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
QUICK = "--quick" in sys.argv
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else (1 if QUICK else 3)
QEMU = "qemu-riscv64"
ONE_CORE = ["taskset", "-c", "0"]
SMALL, LARGE = (8192, 819200), (65536, 6553600)  # (W, P): 1 % each

WORKLOADS = [("cg", ["16", "29"]), ("hydro", ["24", "8"]), ("chase", ["1048576", "20000000"]),
             ("stream", ["1000000", "11"])]
if QUICK:
    WORKLOADS = [("cg", ["8", "5"]), ("hydro", ["6", "3"]), ("chase", ["65536", "200000"]), ("stream", ["10000", "5"])]


def sampling(w_p):
    return [f"--sample-window={w_p[0]}", f"--sample-period={w_p[1]}"]


def report(out):
    return json.loads(out.strip().splitlines()[-1])["sampled"]


def interval(c):
    """The estimate's 95 % half-width in percent of it, and its sampled windows: '± 6.5 %, n 35'."""
    ci, est = c["window_blocks_ci95"], c["window_blocks_estimate"]
    half = "± –" if ci is None or not est else f"± {100 * ci / est:.1f} %"
    return f"{half}, n {c['sampled_windows']}"


def errors(full):
    """|F/window error| of the whole run and of each function with >= 1 % of the loads (with its 95 % half-width and
    sampled windows), and F^'s error."""
    a = full["all"]
    big = [(f["name"], f["counts"]) for f in full["functions"] or [] if f["counts"]["loads"] >= 0.01 * a["loads"]]
    funcs = ", ".join(f"{name} {100 * abs(c['window_blocks_error']):.1f} % ({interval(c)})" for name, c in big)
    return abs(a["window_blocks_error"]), funcs, a["blocks_error"]


def rows():
    out = []
    for name, args in WORKLOADS:
        prog = os.path.join(BUILD, "bench", name)
        print(f"bench_sampled: {name} {' '.join(args)}", file=sys.stderr)
        edan = [os.path.join(BUILD, "edan"), "run", "--json"]
        r = interleaved({
            "plain": (ONE_CORE + [QEMU, prog, *args], subprocess.DEVNULL),
            "small": (ONE_CORE + edan + ["--sample-only", *sampling(SMALL), prog, *args], subprocess.PIPE),
            "large": (ONE_CORE + edan + ["--sample-only", *sampling(LARGE), prog, *args], subprocess.PIPE),
            "full": (ONE_CORE + edan + sampling(SMALL) + [prog, *args], subprocess.PIPE),
        }, RUNS)
        ratio = {k: statistics.median(o / p for p, o in zip(r["plain"][5], r[k][5])) for k in ("small", "large", "full")}
        cpu_ratio = statistics.median(o / p for p, o in zip(r["plain"][6], r["small"][6]))
        small, full = report(r["small"][2]), report(r["full"][2])
        keys = ("sampled_loads", "sampled_blocks", "blocks_estimate", "window_blocks_estimate", "window_blocks_ci95")
        if any(small["all"][k] != full["all"][k] for k in keys) or small["rho"] != full["rho"]:
            sys.exit(f"bench_sampled: {name}: --sample-only's estimates differ from the whole stream's: "
                     f"{small['all']} vs {full['all']}")
        win, funcs, f_hat = errors(full)
        out.append(dict(workload=f"{name} {' '.join(args)}", loads=full["all"]["loads"], samples=full["samples"],
                        plain=r["plain"][0], small=r["small"][0], **{"r_" + k: v for k, v in ratio.items()},
                        cpu_small=cpu_ratio,
                        win=win, funcs=funcs, f_hat=f_hat))
    return out


def main():
    if not BUILD:
        sys.exit(__doc__)
    rs = rows()
    cmd = "python3 bench/bench_sampled.py " + " ".join(a if a != sys.argv[1] else os.path.relpath(BUILD)
                                                       for a in sys.argv[1:])
    lines = [f"Commit `{commit()}`, {datetime.date.today()}, `{cmd}` ({RUNS} rounds, medians; one core: "
             f"`taskset -c 0` on all).", "",
             f"| whole program | loads | samples of {SMALL[0]} | qemu s | `--sample-only` s | / qemu | CPU time / qemu's "
             f"| / qemu, samples of {LARGE[0]} | every load traced / qemu | F/window error "
             "| functions' (≥ 1 % of loads; the estimate's 95 % half-width, its sampled windows n) "
             "| F^ = ρF(σ) error |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rs:
        lines.append(f"| {r['workload']} | {r['loads']:,} | {r['samples']} | {r['plain']:.2f} | {r['small']:.2f} "
                     f"| {r['r_small']:.2f} | {r['cpu_small']:.2f} | {r['r_large']:.2f} | {r['r_full']:.2f} | {100 * r['win']:.1f} % "
                     f"| {r['funcs']} | {100 * r['f_hat']:+.0f} % |")
    publish(lines, BUILD, "bench-sampled", "bench-sampled")


main()
