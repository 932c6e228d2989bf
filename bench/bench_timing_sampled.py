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

The list is read as validation/sweep.py reads it (its read_list: arguments split as a shell does,
time= and exit= options; a program listed with exit=N runs with --ignore-exit), so any list of make
validate works, the third-party programs' of validation/thirdparty/build.sh too (make
validate-sampled VALIDATION_LIST=...). Each program's row is printed when it is done. Targets
(issue 37): time and slope within 2 % (median) and 5 % (worst) of exact, the printed interval
covering the exact cycles and slope in at least 95 % of the programs; --check: exit status 1 when
one is missed. --only REGEX: the programs whose name matches. --name NAME: the table also to
BUILD_DIR/NAME.md, and with --update-docs into docs/benchmarks.md between NAME's markers.

Rows: per program also the sampled rows' slope error, the per-function rows' |sampled slope - exact
slope| summed over the functions and divided by the exact whole slope (and the same over the per-line
rows): how far the sampled attribution (docs/model.md, Attribution) moves slope between rows, which
the whole slope's error does not show. --whole records each program whole (no --filter: its rows are
all its functions, libc's included), as a user's first run would; bench/workloads/rows.tsv is a list
of the examples for it (make bench-rows).

--draws N: each program sampled N times, the units drawn with seeds 0 to N - 1 (--sample-timing's
fifth value; the rows above are seed 0's), and a second table of the draws' spread per program:
the signed errors of the slope and of the worst lane's time against exact (mean, standard
deviation, smallest and largest), how many draws are beyond 5 %, and how many of their intervals
cover the exact slope and cycles.

usage: bench_timing_sampled.py BUILD_DIR [--list validation/programs.tsv] [--machine FILE]
           [--latencies 50,100,200,300] [--sample U,W,P,R] [--draws N] [--whole] [--runs 3] [--speed TRACE ...] [--keep DIR]
           [--online 'KERNEL PROGRAM ARGS' ...] [--no-speed] [--no-accuracy] [--only REGEX] [--check]
           [--name NAME [--update-docs]]
"""
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from benchlib import interleaved, commit, update_docs

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "validation"))
from sweep import read_list  # noqa: E402  (make validate's list format, one parser)

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
DRAWS = int(arg("--draws", "1"))
DEFAULT_SAMPLE = "2000,1000,64000,200"  # timing.h's EDAN_TIMING_SAMPLE_*: --sample-timing's seed is its fifth value


def sampled_seed(seed):
    """--sample-timing with the units drawn with seed (0: SAMPLED's own draw)."""
    if not seed:
        return SAMPLED
    spec = (SAMPLE or DEFAULT_SAMPLE).split(",")
    spec += DEFAULT_SAMPLE.split(",")[len(spec):4]
    return ["--sample-timing=" + ",".join(spec[:4] + [str(seed)])]


def programs():
    """(name, argv, kernel, record options) of each program of the list (validation/sweep.py's reader;
    relative binaries from the repository's root, as make validate runs it)."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        progs = read_list(LIST)
    finally:
        os.chdir(here)
    only = re.compile(arg("--only", ""))
    for p in progs:
        if only.search(p["name"]):
            yield p["name"], [p["binary"]] + p["args"], p["kernel"], ["--ignore-exit"] if p["exit"] else []


def analyze(trace, extra):
    out = subprocess.run([EDAN, "analyze", "--json", "--machine=" + MACHINE, "--mem-latency=" + LATS] + extra +
                         [trace], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=True).stdout
    return json.loads(out)["prediction"]


def rows_error(e, s, key, ident):
    """The rows' slope error: sum over e's rows of |s's row's slope - e's| over |e's whole slope| (a row s lacks
    counts its whole slope; slopes null when not finite count 0)."""
    whole = abs(e["slope_ns_per_ns"] or 0.0)
    if not whole:
        return 0.0
    got = {ident(r): r["slope_ns_per_ns"] or 0.0 for r in s.get(key) or []}
    want = {ident(r): r["slope_ns_per_ns"] or 0.0 for r in e.get(key) or []}
    return sum(abs(got.get(k, 0.0) - v) for k, v in want.items()) / whole + \
        sum(abs(v) for k, v in got.items() if k not in want) / whole


def compare(e, s):
    """A sampled prediction s against the exact e: (each lane's relative error, the slope's signed relative error,
    the intervals cover the cycles, cover the slope, the worst lane's signed relative error)."""
    smp = s["sampling"]
    errs = [(b - a) / a for a, b in zip(e["cycles"], s["cycles"])]
    slope = (s["slope_ns_per_ns"] - e["slope_ns_per_ns"]) / abs(e["slope_ns_per_ns"]) if e["slope_ns_per_ns"] else 0.0
    if smp["cycles_low"] is None:
        covered = False
    else:
        covered = all(lo - 0.5 <= a <= hi + 0.5 for a, lo, hi in zip(e["cycles"], smp["cycles_low"],
                                                                   smp["cycles_high"]))
    half = smp["slope_half_width"]
    slope_cov = half is not None and abs(s["slope_ns_per_ns"] - e["slope_ns_per_ns"]) <= half + 1e-12
    return [abs(x) for x in errs], slope, covered, slope_cov, max(errs, key=abs)


def accuracy(workdir):
    rows, traces = [], []
    for name, argv, kernel, opts in programs():
        trace = os.path.join(workdir, name + ".edt")
        region = [] if "--whole" in sys.argv else ["--filter=" + kernel]
        subprocess.run([EDAN, "record", *region, *opts, "-o", trace] + argv, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        traces.append(trace)
        e, s = analyze(trace, ["--exact"]), analyze(trace, SAMPLED)
        smp = s["sampling"]
        errs, slope_err, covered, slope_cov, _ = compare(e, s)
        fn = rows_error(e, s, "functions", lambda r: r["name"])
        ln = rows_error(e, s, "lines", lambda r: (r["file"], r["line"], r["function"]))
        rows.append((name, e["counts"]["instructions"], smp["scheduled"] / max(1, e["counts"]["instructions"]),
                     max(errs), abs(slope_err), covered, slope_cov, smp["exact"], fn, ln))
        print(row_text(rows[-1]), flush=True)
        if DRAWS > 1:
            runs = [compare(e, s)] + [compare(e, analyze(trace, sampled_seed(k))) for k in range(1, DRAWS)]
            DRAW_ROWS.append((name, runs))
        if "--no-speed" in sys.argv and not arg("--keep", None):
            os.unlink(trace)  # a long list's traces would fill the disk
    return rows, traces


DRAW_ROWS = []  # (program, [compare() of each draw]) with --draws
DRAWS_HEAD = ["| program | draws | slope error: mean ± sd | slope: min / max | slope beyond 5 % | time error (worst "
              "lane): mean ± sd | time: min / max | time beyond 5 % | CI covers slope / cycles |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]


def draws_text(name, runs):
    sl = [r[1] for r in runs]
    tm = [r[4] for r in runs]
    sd = (lambda v: statistics.stdev(v) if len(v) > 1 else 0.0)
    return (f"| {name} | {len(runs)} | {100 * statistics.mean(sl):+.2f} % ± {100 * sd(sl):.2f} | "
            f"{100 * min(sl):+.2f} / {100 * max(sl):+.2f} % | {sum(abs(x) > 0.05 for x in sl)} | "
            f"{100 * statistics.mean(tm):+.2f} % ± {100 * sd(tm):.2f} | {100 * min(tm):+.2f} / {100 * max(tm):+.2f} % | "
            f"{sum(abs(x) > 0.05 for x in tm)} | {sum(r[3] for r in runs)} / {sum(r[2] for r in runs)} |")


def draws_summary():
    runs = [r for _, rs in DRAW_ROWS for r in rs]
    n = len(runs)
    return (f"{len(DRAW_ROWS)} programs, {DRAWS} draws each ({n} runs): slope beyond 5 % in "
            f"{sum(abs(r[1]) > 0.05 for r in runs)} of {n}, time (worst lane) beyond 5 % in "
            f"{sum(abs(r[4]) > 0.05 for r in runs)} of {n}; the intervals cover the exact slope in "
            f"{sum(r[3] for r in runs)} of {n}, the cycles in {sum(r[2] for r in runs)} of {n}")


def row_text(r):
    name, n, sch, err, serr, cov, scov, exact, fn, ln = r
    return (f"| {name} | {n:,} | {100 * sch:.0f} % | {100 * err:.2f} % | {100 * serr:.2f} % | "
            f"{'exact' if exact else 'yes' if cov else 'NO'} | {'exact' if exact else 'yes' if scov else 'NO'} | "
            f"{100 * fn:.1f} % | {100 * ln:.1f} % |")


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
        head = (f"sampled ({' '.join(SAMPLED)}) against exact, machine {os.path.basename(MACHINE)}, latencies "
                f"{LATS} ns, commit {commit()}, {datetime.date.today()}: `python3 bench/bench_timing_sampled.py "
                f"{os.path.relpath(BUILD)} {' '.join(a for a in sys.argv[2:] if a != '--update-docs')}`")
        table = ["| program | instructions | scheduled | worst lane error | slope error | CI covers cycles | "
                 "CI covers slope | functions' slope error | lines' slope error |",
                 "|---|---:|---:|---:|---:|---|---|---:|---:|"]
        print(head + "\n\n" + "\n".join(table), flush=True)
        rows, traces = accuracy(work)
        errs = [r[3] for r in rows]
        serrs = [r[4] for r in rows]
        cov = sum(1 for r in rows if r[5] or r[7])
        scov = sum(1 for r in rows if r[6] or r[7])
        sampled = sum(1 for r in rows if not r[7])
        summary = (f"{len(rows)} programs, {sampled} of them sampled (the rest under the exact prefix); cycles: median "
                   f"error {100 * statistics.median(errs):.2f} %, worst {100 * max(errs):.2f} %; slope: median "
                   f"{100 * statistics.median(serrs):.2f} %, worst {100 * max(serrs):.2f} %; intervals cover the "
                   f"exact cycles in {cov}/{len(rows)} programs, the slope in {scov}/{len(rows)}; rows' slope error "
                   f"(sum over the whole slope), median / worst: functions {100 * statistics.median(r[8] for r in rows):.1f}"
                   f" / {100 * max(r[8] for r in rows):.1f} %, lines {100 * statistics.median(r[9] for r in rows):.1f}"
                   f" / {100 * max(r[9] for r in rows):.1f} %")
        missed = max(statistics.median(errs), statistics.median(serrs)) > 0.02 or max(errs + serrs) > 0.05 or \
            min(cov, scov) < 0.95 * len(rows)
        summary += " (targets: 2 % median, 5 % worst, 95 % covered: " + ("missed)" if missed else "met)")
        print("\n" + summary)
        draws = []
        if DRAWS > 1:
            draws = ["", f"{DRAWS} draws of the units per program (seeds 0 to {DRAWS - 1}), signed errors against "
                     "exact:", ""] + DRAWS_HEAD + [draws_text(n, rs) for n, rs in DRAW_ROWS] + ["", draws_summary()]
            print("\n".join(draws))
        if arg("--name", None):  # the rows were printed as they came: the file and the docs only
            lines = [head, ""] + table + [row_text(r) for r in rows] + ["", summary] + draws
            with open(os.path.join(BUILD, arg("--name", None) + ".md"), "w") as f:
                f.write("\n".join(lines) + "\n")
            if "--update-docs" in sys.argv:
                update_docs(lines, arg("--name", None))
        if "--no-speed" not in sys.argv:
            speed_table(SPEED or [max(traces, key=os.path.getsize)])
        if ONLINE:
            online()
        return 1 if missed and "--check" in sys.argv else 0


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
    sys.exit(main())
