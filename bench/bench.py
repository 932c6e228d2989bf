#!/usr/bin/env python3
"""edan's benchmark (make bench): speed and memory of online tracing, trace
writing and offline analysis on the bundled workloads, as ratios measured in
one run on this machine, the commands of each ratio interleaved. Prints a
Markdown table with the machine, the commit and the command, also written to
BUILD_DIR/bench-table.md; --update-docs puts it in docs/benchmarks.md between
its bench-table markers.

usage: bench.py BUILD_DIR [--quick] [--no-billion] [--runs N] [--update-docs]
"""
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

from benchlib import SWEEP, interleaved, run_rss, commit, publish

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


# per-function breakdown against a plain run (issue 19: at most 2x): workload, args
PER_FUNCTION = [("cg", ["16", "29"]), ("hydro", ["24", "8"])]
if QUICK:
    PER_FUNCTION = [("cg", ["8", "5"])]


# the projection's sweep (issue 23): 10 cache sizes x 5 bandwidths x 4 peaks x 5 division weights = 1000
# configurations from one pass over the trace, with the CSV of ExaSAT's Table 1 for each
PROJECTION = ["--projection", "--machine=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                          "machines", "gem5-validation.ini"),
              "--projection-cache=32K..16M", "--projection-bandwidth=4..64", "--projection-peak=2..16",
              "--projection-div=20,30,39,48,60"]
PROJECTION_CONFIGS = 1000
PROJECTED = ("cg", "hydro")


def machine():
    """The CPU model, cores and memory, as the table's header says them."""
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal"))
    except (OSError, StopIteration):
        mem = 0
    return f"{model}, {os.cpu_count()} cores, {mem / 2**20:.0f} GiB, {platform.system()} {platform.release()}"



def per_function_rows():
    """Wall time of edan run --per-function and --functions (its top 8, named) against a plain edan run."""
    rows = []
    for name, args in PER_FUNCTION:
        prog = os.path.join(BENCH, name)
        print(f"bench: {name} {' '.join(args)} per function", file=sys.stderr)
        _, _, out, _ = run_rss([EDAN, "run", "--json", "--per-function", prog, *args], subprocess.PIPE)
        top = ",".join(f["name"] for f in json.loads(out.strip().splitlines()[-1])["functions"])
        r = interleaved({
            "plain": ([EDAN, "run", prog, *args], subprocess.DEVNULL),
            "per-function": ([EDAN, "run", "--per-function", prog, *args], subprocess.DEVNULL),
            "functions": ([EDAN, "run", "--functions=" + top, prog, *args], subprocess.DEVNULL),
        }, RUNS)
        rows.append(dict(workload=f"{name} {' '.join(args)}", plain=r["plain"][0], per_function=r["per-function"][0],
                         functions=r["functions"][0], rss=(r["plain"][1], r["per-function"][1], r["functions"][1])))
    return rows


def table_lines(rows, pf_rows, paper, header):
    """The Markdown block: header lines, then the tables."""
    out = list(header) + [""]
    out.append("| workload | traced insns | qemu s | empty-plugin s | edan online s | / qemu | / floor "
               "| offline M/s no cache | offline M/s cache | trace B/insn | record M/s | writer M/s "
               "| peak RSS MiB (online, offline) | 8-config sweep / 1 | its CPU time / 1 | sweep on one thread / 1 |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        out.append(f"| {r['workload']} | {r['insns']:,} | {r['plain']:.2f} | {r['floor']:.2f} | {r['online']:.2f} "
                   f"| {r['online'] / r['plain']:.2f} | {r['online'] / r['floor']:.2f} "
                   f"| {r['offline_nocache'] / 1e6:.1f} | {r['offline_cache'] / 1e6:.1f} | {r['bytes_per_insn']:.4f} "
                   f"| {r['insns'] / r['record'] / 1e6:.1f} | {r['record_rate'] / 1e6:.1f} "
                   f"| {r['online_rss']:.0f}, {r['offline_rss']:.0f} | {r['sweep_ratio']:.2f} "
                   f"| {r['sweep_cpu_ratio']:.2f} | {r['sweep1_ratio']:.2f} |")
    if any("big" in r for r in rows):
        out += ["", "| 1e9 run | traced insns | qemu s | edan online s | / qemu (median of rounds) | each round "
                "| peak RSS MiB |", "|---|---:|---:|---:|---:|---|---:|"]
        for r in rows:
            if "big" in r:
                out.append(f"| {r['big']} | {r['big_insns']:,} | {r['big_plain']:.1f} | {r['big_online']:.1f} "
                           f"| {r['big_ratio']:.2f} | {' '.join(f'{x:.2f}' for x in r['big_ratios'])} "
                           f"| {r['big_rss']:.0f} |")
    if pf_rows:
        out += ["", "| per function (whole program) | edan run s | --per-function s | / run | --functions=TOP8 s "
                "| / run | peak RSS MiB (run, per-function, functions) |", "|---|---:|---:|---:|---:|---:|---|"]
        for r in pf_rows:
            out.append(f"| {r['workload']} | {r['plain']:.2f} | {r['per_function']:.2f} "
                       f"| {r['per_function'] / r['plain']:.2f} | {r['functions']:.2f} "
                       f"| {r['functions'] / r['plain']:.2f} | {', '.join(f'{x:.0f}' for x in r['rss'])} |")
    if any("proj" in r for r in rows):
        out += ["", f"| projection sweep (issue 23) | traced insns | analyze s | --projection, {PROJECTION_CONFIGS} "
                "configurations s | / analyze | CSV rows | peak RSS MiB |", "|---|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            if "proj" in r:
                out.append(f"| {r['workload']} | {r['insns']:,} | {r['proj_base']:.2f} | {r['proj']:.2f} "
                           f"| {r['proj'] / r['proj_base']:.2f} | {r['proj_rows']:,} | {r['proj_rss']:.0f} |")
    if paper:
        out += ["", f"Paper scale: cg 17 50 (HPCG-like CG, {paper['insns']:,} traced instructions), online with a "
                f"32 KiB cache: {paper['online']:.2f} s, peak RSS {paper['rss']:.0f} MiB."]
    return out



def self_test():
    """The table's formatting on made-up numbers (no benchmark run)."""
    row = dict(workload="w 1", insns=1000, plain=1.0, floor=1.5, online=2.0, online_rss=10, record=1.2,
               bytes_per_insn=0.5, offline_nocache=2e8, offline_cache=1e8, offline_rss=5, sweep_ratio=2.5,
               sweep_cpu_ratio=3.0, sweep1_ratio=2.9, record_rate=5e8, big="w 2", big_insns=10**9, big_plain=2.0,
               big_online=6.0, big_ratio=3.0, big_ratios=[2.9, 3.0, 3.1], big_rss=20, proj_base=2.0, proj=5.0,
               proj_rows=12000, proj_rss=30)
    pf = dict(workload="w 1", plain=1.0, per_function=3.0, functions=2.0, rss=(10, 20, 15))
    lines = table_lines([row], [pf], dict(insns=2 * 10**8, online=1.0, rss=25), ["header"])
    text = "\n".join(lines)
    ok = ("| w 1 | 1,000 | 1.00 | 1.50 | 2.00 | 2.00 | 1.33 | 200.0 | 100.0 | 0.5000 | 0.0 | 500.0 | 10, 5 |" in text
          and "| w 2 | 1,000,000,000 | 2.0 | 6.0 | 3.00 | 2.90 3.00 3.10 | 20 |" in text
          and "| w 1 | 1.00 | 3.00 | 3.00 | 2.00 | 2.00 | 10, 20, 15 |" in text and lines[0] == "header"
          and "| w 1 | 1,000 | 2.00 | 5.00 | 2.50 | 12,000 | 30 |" in text)
    print("1 passed, 0 failed" if ok else "0 passed, 1 failed")
    if not ok:
        print(text, file=sys.stderr)
    return 0 if ok else 1


def main():
    # the machine and commit as they are when the measurement starts
    header = [f"Machine: {machine()}. Commit `{commit()}`, {datetime.date.today().isoformat()}, "
              f"`python3 bench/bench.py {' '.join(sys.argv[1:]).replace(BUILD, 'build')}` ({RUNS} rounds, medians)."]
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
            if name in PROJECTED:
                csv_path = os.path.join(tmp, name + ".csv")
                proj = interleaved({
                    "base": ([EDAN, "analyze", trace], subprocess.DEVNULL),
                    "proj": ([EDAN, "analyze", *PROJECTION, "--projection-csv=" + csv_path, trace], subprocess.DEVNULL),
                }, RUNS)
                with open(csv_path) as f:
                    proj_rows = sum(1 for _ in f) - 1
            off_nc, off_rss = off["none"][:2]
            off_c, sweep = off["cache"][0], off["sweep"][0]
            row = dict(workload=f"{name} {' '.join(args)}", insns=n, plain=plain, floor=floor, online=online,
                       online_rss=online_rss, record=rec, bytes_per_insn=size / n, offline_nocache=n / off_nc,
                       offline_cache=n / off_c, offline_rss=off_rss, sweep_ratio=sweep / off_c,
                       sweep_cpu_ratio=off["sweep"][3] / off["cache"][3], sweep1_ratio=off["sweep1"][0] / off_c,
                       record_rate=n / max(rec - plain, 1e-9))
            if name in PROJECTED:
                row.update(proj_base=proj["base"][0], proj=proj["proj"][0], proj_rows=proj_rows,
                           proj_rss=proj["proj"][1])
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
    pf_rows = per_function_rows()
    lines = table_lines(rows, pf_rows, paper, header)
    publish(lines, BUILD, "bench-table", "bench-table")


if len(sys.argv) > 1 and sys.argv[1] == "--self-test":
    sys.exit(self_test())
main()
