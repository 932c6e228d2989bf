#!/usr/bin/env python3
"""edan's benchmark (make bench): speed and memory of online tracing, trace
writing and offline analysis on the bundled workloads, as ratios measured in
one run on this machine, the commands of each ratio interleaved. Prints a
Markdown table (the figures in docs/benchmarks.md come from it).

usage: bench.py BUILD_DIR [--quick] [--no-billion] [--runs N]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from benchlib import SWEEP, interleaved, run_rss

BUILD = os.path.abspath(sys.argv[1])
QUICK = "--quick" in sys.argv
BILLION = "--no-billion" not in sys.argv and not QUICK
RUNS = 3
if "--runs" in sys.argv:
    RUNS = int(sys.argv[sys.argv.index("--runs") + 1])
EDAN = os.path.join(BUILD, "edan")
EMPTY = os.path.join(BUILD, "libedan_bench_empty_plugin.so")
BENCH = os.path.join(BUILD, "bench")
QEMU = "qemu-riscv64"

# name, kernel, args of about 100 million traced instructions, args of at least 1 billion
WORKLOADS = [
    ("cg", "cg_solve", ["16", "29"], ["16", "300"]),
    ("hydro", "hydro_step_loop", ["24", "8"], ["24", "82"]),
    ("chase", "chase", ["1048576", "20000000"], ["1048576", "200000000"]),
    ("stream", "triad", ["1000000", "11"], ["1000000", "112"]),
]
if QUICK:
    WORKLOADS = [
        ("cg", "cg_solve", ["8", "5"], None),
        ("hydro", "hydro_step_loop", ["6", "3"], None),
        ("chase", "chase", ["65536", "200000"], None),
        ("stream", "triad", ["10000", "5"], None),
    ]


def median_run(cmd, runs=RUNS, stdout=subprocess.DEVNULL):
    res = [run_rss(cmd, stdout) for _ in range(runs)]
    return statistics.median(r[0] for r in res), max(r[1] for r in res), res[-1][2]


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel, args, big in WORKLOADS:
            prog = os.path.join(BENCH, name)
            print(f"bench: {name} {' '.join(args)}", file=sys.stderr)
            trace = os.path.join(tmp, name + ".edt")
            on = interleaved({
                "plain": ([QEMU, prog, *args], subprocess.DEVNULL),
                "floor": ([QEMU, "-plugin", EMPTY, prog, *args], subprocess.DEVNULL),
                "online": ([EDAN, "run", "--json", "--filter=" + kernel, "--cache=32K", prog, *args], subprocess.PIPE),
                "record": ([EDAN, "record", "--filter=" + kernel, "-o", trace, prog, *args], subprocess.DEVNULL),
            }, RUNS)
            plain, floor = on["plain"][0], on["floor"][0]
            online, online_rss, out = on["online"][:3]
            rec = on["record"][0]
            report = json.loads(out.strip().splitlines()[-1])
            n = report["configurations"][0]["vertices"]
            size = os.path.getsize(trace)
            off = interleaved({
                "none": ([EDAN, "analyze", "--cache=none", trace], subprocess.DEVNULL),
                "cache": ([EDAN, "analyze", "--cache=32K", trace], subprocess.DEVNULL),
                "sweep": ([EDAN, "analyze", "--cache=" + SWEEP, trace], subprocess.DEVNULL),
                "sweep1": ([EDAN, "analyze", "--threads=1", "--cache=" + SWEEP, trace], subprocess.DEVNULL),
            }, RUNS)
            off_nc, off_rss = off["none"][:2]
            off_c, sweep = off["cache"][0], off["sweep"][0]
            row = dict(workload=f"{name} {' '.join(args)}", insns=n, plain=plain, floor=floor, online=online,
                       online_rss=online_rss, record=rec, bytes_per_insn=size / n, offline_nocache=n / off_nc,
                       offline_cache=n / off_c, offline_rss=off_rss, sweep_ratio=sweep / off_c,
                       sweep_cpu_ratio=off["sweep"][3] / off["cache"][3], sweep1_ratio=off["sweep1"][0] / off_c,
                       record_rate=n / max(rec - plain, 1e-9))
            if big and BILLION:
                print(f"bench: {name} {' '.join(big)} (1e9)", file=sys.stderr)
                # the ratio is the median of the rounds' ratios: a round's two runs see the same load
                bigs = interleaved({
                    "plain": ([QEMU, prog, *big], subprocess.DEVNULL),
                    "online": ([EDAN, "run", "--json", "--filter=" + kernel, "--cache=32K", prog, *big],
                               subprocess.PIPE),
                }, RUNS)
                ratios = [o / p for p, o in zip(bigs["plain"][5], bigs["online"][5])]
                bn = json.loads(bigs["online"][2].strip().splitlines()[-1])["configurations"][0]["vertices"]
                row.update(big=f"{name} {' '.join(big)}", big_insns=bn, big_plain=bigs["plain"][0],
                           big_online=bigs["online"][0], big_ratio=statistics.median(ratios),
                           big_ratios=[round(x, 2) for x in ratios], big_rss=bigs["online"][1])
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
        paper = None
        if not QUICK:
            print("bench: cg 17 50 (the paper's HPCG scale)", file=sys.stderr)
            prog = os.path.join(BENCH, "cg")
            pon, prss, pout = median_run(
                [EDAN, "run", "--json", "--filter=cg_solve", "--cache=32K", prog, "17", "50"], stdout=subprocess.PIPE)
            pn = json.loads(pout.strip().splitlines()[-1])["configurations"][0]["vertices"]
            paper = dict(insns=pn, online=pon, rss=prss)
    print("| workload | traced insns | qemu s | empty-plugin s | edan online s | / qemu | / floor "
          "| offline M/s no cache | offline M/s cache | trace B/insn | record M/s | writer M/s | peak RSS MiB (online, offline) "
          "| 8-config sweep / 1 | its CPU time / 1 | sweep on one thread / 1 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['workload']} | {r['insns']:,} | {r['plain']:.2f} | {r['floor']:.2f} | {r['online']:.2f} "
              f"| {r['online'] / r['plain']:.2f} | {r['online'] / r['floor']:.2f} | {r['offline_nocache'] / 1e6:.1f} "
              f"| {r['offline_cache'] / 1e6:.1f} | {r['bytes_per_insn']:.4f} | {r['insns'] / r['record'] / 1e6:.1f} "
              f"| {r['record_rate'] / 1e6:.1f} "
              f"| {r['online_rss']:.0f}, {r['offline_rss']:.0f} | {r['sweep_ratio']:.2f} "
              f"| {r['sweep_cpu_ratio']:.2f} | {r['sweep1_ratio']:.2f} |")
    if any("big" in r for r in rows):
        print()
        print("| 1e9 run | traced insns | qemu s | edan online s | / qemu (median of rounds) | each round | peak RSS MiB |")
        print("|---|---:|---:|---:|---:|---|---:|")
        for r in rows:
            if "big" in r:
                print(f"| {r['big']} | {r['big_insns']:,} | {r['big_plain']:.1f} | {r['big_online']:.1f} "
                      f"| {r['big_ratio']:.2f} | {' '.join(f'{x:.2f}' for x in r['big_ratios'])} | {r['big_rss']:.0f} |")
    if paper:
        print()
        print(f"Paper scale: cg 17 50 (HPCG-like CG, {paper['insns']:,} traced instructions), online with a 32 KiB "
              f"cache: {paper['online']:.2f} s, peak RSS {paper['rss']:.0f} MiB.")


main()
