#!/usr/bin/env python3
"""The timing model's cost (issue 37, part of make bench): the whole command
`edan run --filter=KERNEL --machine=M --mem-latency=LATS PROGRAM ARGS` against
a plain `edan run --filter=KERNEL PROGRAM ARGS` of the same region, on the
HPCG-like cg (cg_solve) and the LULESH-like hydro (hydro_step_loop) of
bench/workloads, with one latency and with four, sampled (the default) and
--exact beside them; and offline, `edan analyze` of the region's recorded
trace, plain and with the model, in traced instructions per second. Targets:
the sampled model with four latencies at most 3x a plain run, at least 50 M
instructions/s offline. Commands run interleaved round by round (benchlib);
medians of the rounds, wall and CPU (user + system of edan and QEMU) time.
Prints Markdown tables, also written to BUILD_DIR/bench-timing.md;
--update-docs puts them in docs/benchmarks.md between its bench-timing markers.

usage: bench_timing.py BUILD_DIR [--quick] [--runs N] [--machine FILE] [--update-docs]
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile

from benchlib import interleaved, commit, publish

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
if not BUILD:
    sys.exit(__doc__)
QUICK = "--quick" in sys.argv
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else (1 if QUICK else 3)
MACHINE = sys.argv[sys.argv.index("--machine") + 1] if "--machine" in sys.argv else \
    os.path.join(HERE, "..", "machines", "gem5-validation.ini")
EDAN = os.path.join(BUILD, "edan")
ONE, FOUR = "50", "50,100,200,300"
WORKLOADS = [("cg", "cg_solve", ["16", "29"]), ("hydro", "hydro_step_loop", ["24", "8"])]
if QUICK:
    WORKLOADS = [("cg", "cg_solve", ["8", "5"]), ("hydro", "hydro_step_loop", ["6", "3"])]

# what each column runs beyond the plain command
VARIANTS = [("plain", []),
            ("1 latency", ["--machine=" + MACHINE, "--mem-latency=" + ONE]),
            ("4 latencies", ["--machine=" + MACHINE, "--mem-latency=" + FOUR]),
            ("4 latencies --exact", ["--machine=" + MACHINE, "--mem-latency=" + FOUR, "--exact"])]


def instructions(trace):
    out = subprocess.run([EDAN, "analyze", "--json", trace], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, check=True).stdout
    return json.loads(out)["configurations"][0]["vertices"]


def main():
    online, offline = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel, args in WORKLOADS:
            prog = [os.path.join(BUILD, "bench", name)] + args
            trace = os.path.join(tmp, name + ".edt")
            subprocess.run([EDAN, "record", "--filter=" + kernel, "-o", trace] + prog, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            n = instructions(trace)
            print(f"bench_timing: {name} {' '.join(args)}: {n} instructions in {kernel}", file=sys.stderr)
            online[name] = (n, interleaved({v: ([EDAN, "run", "--filter=" + kernel] + o + prog, subprocess.DEVNULL)
                                            for v, o in VARIANTS}, RUNS))
            offline[name] = (n, interleaved({v: ([EDAN, "analyze"] + o + [trace], subprocess.DEVNULL)
                                             for v, o in VARIANTS}, RUNS))
    names = [v for v, _ in VARIANTS]
    lines = [f"Commit `{commit()}`, {datetime.date.today()}, `python3 bench/bench_timing.py {os.path.relpath(BUILD)}"
             f"{' --quick' if QUICK else ''}` ({RUNS} rounds, medians; machine `{os.path.basename(MACHINE)}`, "
             f"1 latency `--mem-latency={ONE}`, 4 latencies `--mem-latency={FOUR}`, sampled unless `--exact`).",
             "",
             "| online, `edan run --filter=KERNEL` | region insns | " +
             " | ".join(f"{v} s (CPU s)" for v in names) + " | " +
             " | ".join(f"{v} / plain (CPU)" for v in names[1:]) + " |",
             "|---|---:|" + "---:|" * (2 * len(names) - 1)]
    for (name, kernel, args) in WORKLOADS:
        n, r = online[name]
        p = r["plain"]
        lines.append(f"| {name} {' '.join(args)} ({kernel}) | {n:,} | " +
                     " | ".join(f"{r[v][0]:.2f} ({r[v][3]:.2f})" for v in names) + " | " +
                     " | ".join(f"{r[v][0] / p[0]:.2f} ({r[v][3] / p[3]:.2f})" for v in names[1:]) + " |")
    lines += ["",
              "| offline, `edan analyze TRACE` | region insns | " +
              " | ".join(f"{v} s (CPU s)" for v in names) + " | " +
              " | ".join(f"{v} M insns/s (CPU)" for v in names) + " |",
              "|---|---:|" + "---:|" * (2 * len(names))]
    for (name, kernel, args) in WORKLOADS:
        n, r = offline[name]
        lines.append(f"| {name} {' '.join(args)} ({kernel}) | {n:,} | " +
                     " | ".join(f"{r[v][0]:.2f} ({r[v][3]:.2f})" for v in names) + " | " +
                     " | ".join(f"{n / r[v][0] / 1e6:.1f} ({n / r[v][3] / 1e6:.1f})" for v in names) + " |")
    publish(lines, BUILD, "bench-timing", "bench-timing")


if __name__ == "__main__":
    main()
