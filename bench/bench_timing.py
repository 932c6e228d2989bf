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

Other programs (bench_apps.py: HPCG, LULESH): --workload 'KERNEL=PROGRAM ARGS' (repeated) instead of
the two, --variants 'plain,4 latencies' (the columns kept), --online-only (no trace, no offline
table), --offline-only (the offline table alone) and --name NAME (BUILD_DIR/NAME.md and the docs' NAME
markers).

usage: bench_timing.py BUILD_DIR [--quick] [--runs N] [--machine FILE] [--update-docs]
       [--workload 'KERNEL=PROGRAM ARGS']... [--variants V,...] [--online-only | --offline-only] [--name NAME]
"""
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile

from benchlib import interleaved, commit, publish, option, build_dir

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = build_dir(__doc__)
QUICK = "--quick" in sys.argv
RUNS = int(option("--runs", 1 if QUICK else 3))
MACHINE = option("--machine", os.path.join(HERE, "..", "machines", "gem5-validation.ini"))
EDAN = os.path.join(BUILD, "edan")
ONE, FOUR, EIGHT = "50", "50,100,200,300", "50,75,100,150,200,250,300,400"


# (label, kernel, the program's command)
WORKLOADS = [(f"{n} {' '.join(a)}", k, [os.path.join(BUILD, "bench", n)] + a)
             for n, k, a in ([("cg", "cg_solve", ["8", "5"]), ("hydro", "hydro_step_loop", ["6", "3"])] if QUICK else
                             [("cg", "cg_solve", ["16", "29"]), ("hydro", "hydro_step_loop", ["24", "8"])])]
GIVEN = [sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--workload"]
if GIVEN:
    WORKLOADS = []
    for w in GIVEN:
        kernel, _, cmd = w.partition("=")
        prog = shlex.split(cmd)
        if not kernel or not prog:
            sys.exit(f"bench_timing: --workload {w!r}: expected 'KERNEL=PROGRAM ARGS'")
        WORKLOADS.append((" ".join([os.path.basename(prog[0])] + prog[1:]), kernel, [os.path.abspath(prog[0])] + prog[1:]))
ONLINE_ONLY = "--online-only" in sys.argv
OFFLINE_ONLY = "--offline-only" in sys.argv and not ONLINE_ONLY
NAME = option("--name", "bench-timing")

# what each column runs beyond the plain command
VARIANTS = [("plain", []),
            ("1 latency", ["--machine=" + MACHINE, "--mem-latency=" + ONE]),
            ("4 latencies", ["--machine=" + MACHINE, "--mem-latency=" + FOUR]),
            ("8 latencies", ["--machine=" + MACHINE, "--mem-latency=" + EIGHT]),
            ("4 latencies --exact", ["--machine=" + MACHINE, "--mem-latency=" + FOUR, "--exact"])]
if option("--variants"):
    KEEP = option("--variants").split(",")
    if "plain" not in KEEP or any(k not in dict(VARIANTS) for k in KEEP):
        sys.exit(f"bench_timing: --variants: 'plain' and any of {', '.join(v for v, _ in VARIANTS[1:])}")
    VARIANTS = [(v, o) for v, o in VARIANTS if v in KEEP]


def instructions(cmd):
    """The region's instructions, from the JSON report of cmd (`edan analyze TRACE` or a plain `edan run`)."""
    out = subprocess.run([EDAN, *cmd[:1], "--json", *cmd[1:]], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, check=True).stdout
    return json.loads(out)["configurations"][0]["vertices"]


def main():
    online, offline = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, kernel, prog) in enumerate(WORKLOADS):
            if ONLINE_ONLY:
                n = instructions(["run", "--filter=" + kernel] + prog)
            else:
                trace = os.path.join(tmp, f"{i}.edt")
                subprocess.run([EDAN, "record", "--filter=" + kernel, "-o", trace] + prog, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, check=True)
                n = instructions(["analyze", trace])
            print(f"bench_timing: {label}: {n} instructions in {kernel}", file=sys.stderr)
            if not OFFLINE_ONLY:
                online[label] = (n, interleaved({v: ([EDAN, "run", "--filter=" + kernel] + o + prog,
                                                     subprocess.DEVNULL) for v, o in VARIANTS}, RUNS))
            if not ONLINE_ONLY:
                offline[label] = (n, interleaved({v: ([EDAN, "analyze"] + o + [trace], subprocess.DEVNULL)
                                                  for v, o in VARIANTS}, RUNS))
    names = [v for v, _ in VARIANTS]
    given = "".join(f" --workload '{k}={' '.join([os.path.relpath(p[0], ROOT)] + p[1:])}'" for _, k, p in WORKLOADS) \
        if GIVEN else ""
    opts = (f" --variants '{option('--variants')}'" if option("--variants") else "") + \
        (" --online-only" if ONLINE_ONLY else "") + (" --offline-only" if OFFLINE_ONLY else "") + \
        (f" --name {NAME}" if NAME != "bench-timing" else "")
    lines = [f"Commit `{commit()}`, {datetime.date.today()}, `python3 bench/bench_timing.py {os.path.relpath(BUILD, ROOT)}"
             f"{' --quick' if QUICK else ''}{given}{opts}` ({RUNS} rounds, medians; machine "
             f"`{os.path.basename(MACHINE)}`, 1 latency `--mem-latency={ONE}`, 4 latencies `--mem-latency={FOUR}`, "
             f"8 latencies `--mem-latency={EIGHT}`, "
             "sampled unless `--exact`)."]
    if not OFFLINE_ONLY:
        lines += ["",
                  "| online, `edan run --filter=KERNEL` | region insns | " +
                  " | ".join(f"{v} s (CPU s)" for v in names) + " | " +
                  " | ".join(f"{v} / plain (CPU)" for v in names[1:]) + " | each round's " + names[-1] + " / plain |",
                  "|---|---:|" + "---:|" * (2 * len(names) - 1) + "---|"]
    for (label, kernel, _) in WORKLOADS if not OFFLINE_ONLY else []:
        n, r = online[label]
        p = r["plain"]
        rounds = " ".join(f"{w / pw:.2f}" for w, pw in zip(r[names[-1]][5], p[5]))
        lines.append(f"| {label} ({kernel}) | {n:,} | " +
                     " | ".join(f"{r[v][0]:.2f} ({r[v][3]:.2f})" for v in names) + " | " +
                     " | ".join(f"{r[v][0] / p[0]:.2f} ({r[v][3] / p[3]:.2f})" for v in names[1:]) + f" | {rounds} |")
    if not ONLINE_ONLY:
        lines += ["",
                  "| offline, `edan analyze TRACE` | region insns | " +
                  " | ".join(f"{v} s (CPU s)" for v in names) + " | " +
                  " | ".join(f"{v} M insns/s (CPU)" for v in names) + " |",
                  "|---|---:|" + "---:|" * (2 * len(names))]
        for (label, kernel, _) in WORKLOADS:
            n, r = offline[label]
            lines.append(f"| {label} ({kernel}) | {n:,} | " +
                         " | ".join(f"{r[v][0]:.2f} ({r[v][3]:.2f})" for v in names) + " | " +
                         " | ".join(f"{n / r[v][0] / 1e6:.1f} ({n / r[v][3] / 1e6:.1f})" for v in names) + " |")
    publish(lines, BUILD, NAME, NAME)


if __name__ == "__main__":
    main()
