#!/usr/bin/env python3
"""edan's memory benchmark (issue 25, part of make bench): the analysis memory
of dense, strided, scattered and deep-stack footprints against the bytes the
program touches. Each workload (bench/workloads/footprint.c) is recorded once;
the offline analysis of its trace (edan analyze, the default options) is the
analysis memory alone, its peak RSS less that of a run that touches 4 KiB in a
trace of full-size blocks (the constant: the binary, the reader's buffers, the
tables) is set against the touched bytes. The target is at most 2x the touched
bytes plus a constant. Peak RSS is measured by BUILD_DIR/edan_peak_rss
(bench/peak_rss.c): the ru_maxrss Python's wait4() gives a child is at least
Python's own resident set.
Prints a Markdown table, also written to BUILD_DIR/bench-memory.md;
--update-docs puts it in docs/benchmarks.md between its bench-memory markers.

usage: bench_memory.py BUILD_DIR [--quick] [--update-docs]
"""
import datetime
import os
import re
import subprocess
import sys
import tempfile

from benchlib import commit, publish

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else None
QUICK = "--quick" in sys.argv
MiB = 2**20

# name, arguments of bench/footprint, kernel (--filter), what it shows
WORKLOADS = [
    ("dense", ["dense", str(256 * MiB)], "touch", "every word of 256 MiB"),
    ("strided, a word per line", ["strided", str(256 * MiB), "64"], "touch", "8 of every 64 bytes of 256 MiB"),
    ("strided, a word per page", ["strided", str(1024 * MiB), "4096"], "touch", "8 of every 4096 bytes of 1 GiB"),
    ("scattered over 4 GiB", ["scattered", str(4096 * MiB), str(2**20)], "touch",
     "2^20 words at random over 4 GiB"),
    ("deep recursion", ["recurse", str(10**6)], "recurse", "10^6 frames of 64 bytes"),
]
if QUICK:
    WORKLOADS = [
        ("dense", ["dense", str(8 * MiB)], "touch", "every word of 8 MiB"),
        ("strided, a word per page", ["strided", str(64 * MiB), "4096"], "touch", "8 of every 4096 bytes of 64 MiB"),
        ("scattered over 4 GiB", ["scattered", str(4096 * MiB), str(2**14)], "touch",
         "2^14 words at random over 4 GiB"),
        ("deep recursion", ["recurse", str(10**5)], "recurse", "10^5 frames of 64 bytes"),
    ]
# 4 KiB touched in 15 million instructions: the trace's blocks full-size, as the workloads' (but --quick's small ones)
BASELINE = ["dense", "4096"] if QUICK else ["dense", "4096", "2000"]


def measure(tmp, args, kernel):
    """Records footprint ARGS and analyses the trace: touched bytes, traced instructions, peak RSS in MiB."""
    trace = os.path.join(tmp, "t.edt")
    prog = os.path.join(BUILD, "bench", "footprint")
    out = subprocess.run([os.path.join(BUILD, "edan"), "record", "--filter=" + kernel, "-o", trace, prog, *args],
                         check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    touched = int(re.search(r"touched (\d+)", out).group(1))
    peak = os.path.join(tmp, "peak")
    report = subprocess.run([os.path.join(BUILD, "edan_peak_rss"), peak, os.path.join(BUILD, "edan"), "analyze", trace],
                            check=True, stdout=subprocess.PIPE, text=True).stdout
    with open(peak) as f:
        rss = int(f.read()) / 1024
    insns = int(re.search(r"vertices \(instructions\)\s+(\d+)", report).group(1))
    os.unlink(trace)
    return touched, insns, rss



def table_lines(rows, base_rss, header):
    out = list(header) + ["",
                          "| footprint | what it touches | traced insns | touched MiB | analysis peak RSS MiB "
                          "| less the constant | / touched bytes |",
                          "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        extra = r["rss"] - base_rss
        out.append(f"| {r['name']} | {r['what']} | {r['insns']:,} | {r['touched'] / MiB:.1f} | {r['rss']:.1f} "
                   f"| {extra:.1f} | {extra * MiB / r['touched']:.2f} |")
    out.append("")
    out.append(f"The constant: {base_rss:.1f} MiB, the peak RSS of analysing `footprint {' '.join(BASELINE)}` "
               f"(4 KiB touched{'' if QUICK else ', the blocks of its trace full-size'}).")
    return out



def main():
    if not BUILD:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        _, _, base_rss = measure(tmp, BASELINE, "touch")
        rows = []
        for name, args, kernel, what in WORKLOADS:
            print(f"bench_memory: {name}: footprint {' '.join(args)}", file=sys.stderr)
            touched, insns, rss = measure(tmp, args, kernel)
            rows.append(dict(name=name, what=what, touched=touched, insns=insns, rss=rss))
    cmd = "python3 bench/bench_memory.py " + " ".join(a if a != BUILD else os.path.relpath(BUILD) for a in sys.argv[1:])
    header = [f"Commit `{commit()}`, {datetime.date.today()}, `{cmd}`: offline analysis (`edan analyze`, "
              "default options) of a trace of each footprint."]
    lines = table_lines(rows, base_rss, header)
    publish(lines, BUILD, "bench-memory", "bench-memory")


main()
