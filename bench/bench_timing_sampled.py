#!/usr/bin/env python3
"""The sampled timing model (the default, docs/model.md) against the exact one (--exact):
accuracy on every program of make validate's list, and speed.

Accuracy: each program's region is recorded once (edan record --filter=KERNEL), then analysed with
--machine=MACHINE --mem-latency=LATS exactly and sampled; per program the relative error of every
lane's cycles and of the slope, and whether the printed 95 % confidence intervals cover the exact
values. Speed: on the traces named with --speed (or the largest recorded), edan analyze plain,
with the machine exactly, and sampled; medians of --runs runs, interleaved (benchlib).

Online: for each --online 'KERNEL PROGRAM ARGS...' (PROGRAM relative to BUILD_DIR), edan run --filter=KERNEL
plain, with the machine exactly and sampled, medians of --runs runs, interleaved.

usage: bench_timing_sampled.py BUILD_DIR [--list validation/programs.tsv] [--machine FILE]
           [--latencies 50,100,200,300] [--sample U,W,P,R] [--runs 3] [--speed TRACE ...] [--keep DIR]
           [--online 'KERNEL PROGRAM ARGS' ...] [--no-speed] [--no-accuracy]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from benchlib import interleaved, commit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else None
if not BUILD:
    sys.exit(__doc__)


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


LIST = arg("--list", os.path.join(ROOT, "validation", "programs.tsv"))
MACHINE = arg("--machine", os.path.join(ROOT, "machines", "gem5-validation.ini"))
LATS = arg("--latencies", "50,100,200,300")
SAMPLE = arg("--sample", "")
RUNS = int(arg("--runs", "3"))
EDAN = os.path.join(BUILD, "edan")
SPEED = [a for i, a in enumerate(sys.argv) if i > 0 and sys.argv[i - 1] == "--speed"]
ONLINE = [a for i, a in enumerate(sys.argv) if i > 0 and sys.argv[i - 1] == "--online"]
SAMPLED = ["--sample-timing=" + SAMPLE] if SAMPLE else ["--sampled"]


def programs():
    """(name, argv, kernel) of each line of the list; paths relative to the repository's build."""
    for line in open(LIST):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        name, binary, rest = f[0], f[1], f[2:]
        kernel = [x for x in rest if not x.startswith("time=")][-1]
        args = [x for x in rest if not x.startswith("time=")][:-1]
        path = binary if os.path.isabs(binary) else os.path.join(BUILD, binary.replace("build/", "", 1))
        yield name, [path] + args, kernel


def analyze(trace, extra):
    out = subprocess.run([EDAN, "analyze", "--json", "--machine=" + MACHINE, "--mem-latency=" + LATS] + extra +
                         [trace], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True).stdout
    return json.loads(out)["prediction"]


def accuracy(workdir):
    rows, traces = [], []
    for name, argv, kernel in programs():
        trace = os.path.join(workdir, name + ".edt")
        subprocess.run([EDAN, "record", "--filter=" + kernel, "-o", trace] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        traces.append(trace)
        e, s = analyze(trace, ["--exact"]), analyze(trace, SAMPLED)
        smp = s["sampling"]
        errs = [abs(b - a) / a for a, b in zip(e["cycles"], s["cycles"])]
        slope_err = abs(s["slope_ns_per_ns"] - e["slope_ns_per_ns"]) / abs(e["slope_ns_per_ns"]) \
            if e["slope_ns_per_ns"] else 0.0
        if smp["cycles_low"] is None:
            covered = False
        else:
            covered = all(lo - 0.5 <= a <= hi + 0.5 for a, lo, hi in zip(e["cycles"], smp["cycles_low"],
                                                                       smp["cycles_high"]))
        half = smp["slope_half_width"]
        slope_cov = half is not None and abs(s["slope_ns_per_ns"] - e["slope_ns_per_ns"]) <= half + 1e-12
        rows.append((name, e["counts"]["instructions"], smp["scheduled"] / max(1, e["counts"]["instructions"]),
                     max(errs), slope_err, covered, slope_cov, smp["exact"]))
    return rows, traces


def speed(traces):
    cmds = {}
    for t in traces:
        b = os.path.basename(t)
        cmds[b + " plain"] = ([EDAN, "analyze", t], subprocess.DEVNULL)
        cmds[b + " exact"] = ([EDAN, "analyze", "--machine=" + MACHINE, "--mem-latency=" + LATS, "--exact", t],
                              subprocess.DEVNULL)
        cmds[b + " sampled"] = ([EDAN, "analyze", "--machine=" + MACHINE, "--mem-latency=" + LATS] + SAMPLED + [t],
                                subprocess.DEVNULL)
    return interleaved(cmds, RUNS)


def online():
    cmds, rows = {}, []
    for spec in ONLINE:
        kernel, prog, *args = spec.split()
        run = [EDAN, "run", "--filter=" + kernel]
        target = [os.path.join(BUILD, prog)] + args
        cmds[spec + " plain"] = (run + target, subprocess.DEVNULL)
        cmds[spec + " exact"] = (run + ["--machine=" + MACHINE, "--mem-latency=" + LATS, "--exact"] + target,
                                 subprocess.DEVNULL)
        cmds[spec + " sampled"] = (run + ["--machine=" + MACHINE, "--mem-latency=" + LATS] + SAMPLED + target,
                                   subprocess.DEVNULL)
    res = interleaved(cmds, RUNS)
    print(f"\nonline: edan run --filter=KERNEL [--machine=M --mem-latency={LATS} [{' '.join(SAMPLED)}]] PROGRAM,"
          f" median of {RUNS} runs (wall s; CPU s)\n")
    print("| program | plain | exact | sampled | exact / plain | sampled / plain |")
    print("|---|---:|---:|---:|---:|---:|")
    for spec in ONLINE:
        p, e, s = (res[spec + " " + k] for k in ("plain", "exact", "sampled"))
        print(f"| `{spec}` | {p[0]:.2f} ({p[3]:.2f}) | {e[0]:.2f} ({e[3]:.2f}) | {s[0]:.2f} ({s[3]:.2f}) | "
              f"{e[0] / p[0]:.2f}x | {s[0] / p[0]:.2f}x |")


def instructions(trace):
    return analyze(trace, SAMPLED)["counts"]["instructions"]


def main():
    keep = arg("--keep", None)
    if "--no-accuracy" in sys.argv:
        if SPEED:
            speed_table(SPEED)
        if ONLINE:
            online()
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = keep or tmp
        os.makedirs(work, exist_ok=True)
        rows, traces = accuracy(work)
        print(f"sampled ({' '.join(SAMPLED)}) against exact, machine {os.path.basename(MACHINE)}, latencies {LATS} ns,"
              f" commit {commit()}\n")
        print("| program | instructions | scheduled | worst lane error | slope error | CI covers cycles | "
              "CI covers slope |")
        print("|---|---:|---:|---:|---:|---|---|")
        for name, n, sch, err, serr, cov, scov, exact in rows:
            print(f"| {name} | {n} | {100 * sch:.0f} % | {100 * err:.2f} % | {100 * serr:.2f} % | "
                  f"{'exact' if exact else 'yes' if cov else 'NO'} | {'exact' if exact else 'yes' if scov else 'NO'} |")
        errs = [r[3] for r in rows]
        serrs = [r[4] for r in rows]
        cov = sum(1 for r in rows if r[5] or r[7])
        scov = sum(1 for r in rows if r[6] or r[7])
        print(f"\ncycles: median error {100 * statistics.median(errs):.2f} %, worst {100 * max(errs):.2f} %; "
              f"slope: median {100 * statistics.median(serrs):.2f} %, worst {100 * max(serrs):.2f} %; "
              f"intervals cover the exact cycles in {cov}/{len(rows)} programs, the slope in {scov}/{len(rows)}")
        if "--no-speed" not in sys.argv:
            speed_table(SPEED or [max(traces, key=os.path.getsize)])
        if ONLINE:
            online()


def speed_table(chosen):
    res = speed(chosen)
    print(f"\nspeed: edan analyze [--machine=M --mem-latency={LATS} [{' '.join(SAMPLED)}]] TRACE, median of {RUNS}"
          f" runs (wall s; M instructions/s; CPU s)\n")
    print("| trace | instructions | plain | exact | sampled | sampled / plain |")
    print("|---|---:|---:|---:|---:|---:|")
    for t in chosen:
        b, n = os.path.basename(t), instructions(t)
        p, e, s = res[b + " plain"], res[b + " exact"], res[b + " sampled"]
        print(f"| {b} | {n} | {p[0]:.2f} ({n / p[0] / 1e6:.0f}; {p[3]:.2f}) | {e[0]:.2f} ({n / e[0] / 1e6:.0f}; "
              f"{e[3]:.2f}) | {s[0]:.2f} ({n / s[0] / 1e6:.0f}; {s[3]:.2f}) | {s[0] / p[0]:.2f}x |")


if __name__ == "__main__":
    main()
