#!/usr/bin/env python3
"""edan's online benchmark on one core (issue 25, part of make bench): every
workload traced whole (no --filter: start-up, set-up and kernel) by `edan run`
against the same program under plain qemu-riscv64, both pinned to one core
with taskset, then both free to use the machine's cores (the analysis thread
then has a core of its own): the second core's effect, reported apart.
What limits the one-core ratio: the same program under QEMU with an empty
plugin (the instrumentation's floor) and under edan record (tracing and
compressing, no analysis), both on one core, as ratios to plain QEMU; and
edan analyze of the recorded trace on one core (the analysis alone: the
one-core ratio is at least one plus it, whatever the tracer costs). Runs
are interleaved round by round and the ratio is the median of the rounds'
ratios. Then a run of 10^10 traced instructions (cg 16 3000, its kernel),
online, with its time and peak RSS: bounded memory at that length.
Prints a Markdown table, also written to BUILD_DIR/bench-online.md;
--update-docs puts it in docs/benchmarks.md between its bench-online markers.

usage: bench_online.py BUILD_DIR [--quick] [--runs N] [--no-ten-billion] [--update-docs]
"""
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

from benchlib import interleaved, run_rss, commit, publish

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
QUICK = "--quick" in sys.argv
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else (1 if QUICK else 3)
TEN_BILLION = not QUICK and "--no-ten-billion" not in sys.argv
QEMU = "qemu-riscv64"
ONE_CORE = ["taskset", "-c", "0"]

WORKLOADS = [("cg", ["16", "29"]), ("hydro", ["24", "8"]), ("chase", ["1048576", "20000000"]),
             ("stream", ["1000000", "11"])]
if QUICK:
    WORKLOADS = [("cg", ["8", "5"]), ("hydro", ["6", "3"]), ("chase", ["65536", "200000"]), ("stream", ["10000", "5"])]
BIG = ("cg", "cg_solve", ["16", "3000"])


def vertices(out):
    return json.loads(out.strip().splitlines()[-1])["configurations"][0]["vertices"]


def rows(tmp):
    out = []
    for name, args in WORKLOADS:
        prog = os.path.join(BUILD, "bench", name)
        print(f"bench_online: {name} {' '.join(args)}", file=sys.stderr)
        run = [os.path.join(BUILD, "edan"), "run", "--json", "--cache=32K", prog, *args]
        empty = os.path.join(BUILD, "libedan_bench_empty_plugin.so")
        trace = os.path.join(tmp, name + ".edt")
        r = interleaved({
            "plain1": (ONE_CORE + [QEMU, prog, *args], subprocess.DEVNULL),
            "floor1": (ONE_CORE + [QEMU, "-plugin", empty, prog, *args], subprocess.DEVNULL),
            "record1": (ONE_CORE + [os.path.join(BUILD, "edan"), "record", "-o", trace, prog, *args],
                        subprocess.DEVNULL),
            "online1": (ONE_CORE + run, subprocess.PIPE),
            "plain": ([QEMU, prog, *args], subprocess.DEVNULL),
            "online": (run, subprocess.PIPE),
        }, RUNS)
        # the analysis alone, on one core, over the trace recorded above: the one-core ratio is at least
        # 1 + this (the emulation plus the analysis, even with a free tracer)
        analyze = [run_rss(ONE_CORE + [os.path.join(BUILD, "edan"), "analyze", "--cache=32K", "--threads=1", trace])[0]
                   for _ in range(RUNS)]
        one = [o / p for p, o in zip(r["plain1"][5], r["online1"][5])]
        two = [o / p for p, o in zip(r["plain"][5], r["online"][5])]
        out.append(dict(workload=f"{name} {' '.join(args)}", insns=vertices(r["online1"][2]),
                        plain1=r["plain1"][0], online1=r["online1"][0], ratio1=statistics.median(one),
                        floor1=r["floor1"][0] / r["plain1"][0], record1=r["record1"][0] / r["plain1"][0],
                        analyze1=statistics.median(analyze) / r["plain1"][0],
                        plain=r["plain"][0], online=r["online"][0], ratio=statistics.median(two),
                        rss1=r["online1"][1]))
    return out


def big_row():
    name, kernel, args = BIG
    prog = os.path.join(BUILD, "bench", name)
    print(f"bench_online: {name} {' '.join(args)} (1e10)", file=sys.stderr)
    plain, _, _, _ = run_rss([QEMU, prog, *args])
    online, rss, out, _ = run_rss([os.path.join(BUILD, "edan"), "run", "--json", "--filter=" + kernel, "--cache=32K",
                                   prog, *args], subprocess.PIPE)
    return dict(workload=f"{name} {' '.join(args)}", insns=vertices(out), plain=plain, online=online, rss=rss)



def table_lines(rs, big, header):
    out = list(header) + ["",
                          "| whole program | traced insns | qemu s, one core | empty plugin / qemu | edan record / qemu "
                          "| edan analyze of its trace / qemu | edan run s, one core | / qemu, one core "
                          "| qemu s | edan run s | / qemu, all cores | peak RSS MiB, one core |",
                          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rs:
        out.append(f"| {r['workload']} | {r['insns']:,} | {r['plain1']:.2f} | {r['floor1']:.2f} | {r['record1']:.2f} "
                   f"| {r['analyze1']:.2f} | {r['online1']:.2f} | {r['ratio1']:.2f} "
                   f"| {r['plain']:.2f} | {r['online']:.2f} | {r['ratio']:.2f} | {r['rss1']:.0f} |")
    if big:
        out += ["", "| 1e10 run (kernel, online, all cores) | traced insns | qemu s | edan run s | / qemu "
                "| peak RSS MiB |", "|---|---:|---:|---:|---:|---:|",
                f"| {big['workload']} | {big['insns']:,} | {big['plain']:.1f} | {big['online']:.1f} "
                f"| {big['online'] / big['plain']:.2f} | {big['rss']:.0f} |"]
    return out



def main():
    if not BUILD:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        rs = rows(tmp)
    big = big_row() if TEN_BILLION else None
    cmd = "python3 bench/bench_online.py " + " ".join(a if a != sys.argv[1] else os.path.relpath(BUILD)
                                                      for a in sys.argv[1:])
    header = [f"Commit `{commit()}`, {datetime.date.today()}, `{cmd}` ({RUNS} rounds, medians; "
              f"`edan run --cache=32K`; one core: `taskset -c 0` on both)."]
    lines = table_lines(rs, big, header)
    publish(lines, BUILD, "bench-online", "bench-online")


main()
