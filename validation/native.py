#!/usr/bin/env python3
# Native validation (make validate-native): the timing model's predicted kernel time against the kernel's
# measured time on the host, for the validation suites built for the host with its gcc and g++.
#
#   python3 validation/native.py --edan BUILD/edan --out DIR [--polybench SRC] [--xsbench SRC] [--olden SRC]
#                                [--npb SRC] [--gapbs SRC] [--machine NAME] [--also A,B] [--runs 5] [--cpu 1]
#                                [--measured FILE]
#                                [--update-doc FILE --command TEXT]
#
#   --polybench SRC ...  checkouts of the suites (only read; at least one): PolyBench/C 4.2.1, XSBench,
#                        Olden, NPB 3.0 OpenMP C, GAPBS (validation/thirdparty/README.md names them)
#   --out DIR            where the programs, the host's machine file and the results (native.json) go
#   --machine NAME       the machine file of the host's core [the host's, from /proc/cpuinfo: zen4 on a Zen 4
#                        (family 25 model 17), zen5 on a Zen 5 (family 26), spr on a Sapphire Rapids,
#                        neoverse-v1 on a Neoverse V1; else an error]; its clock is replaced by the one
#                        measured here (validation/native_clock.c) and, when it zeroes pages
#                        (page_zeroing = first-store), its page_fault_ns by the host's fault time measured here
#                        (validation/native_fault.c), written to DIR/NAME-host.ini
#   --also A,B           more machine files (names), each predicting the same kernels on the same measured
#                        times: a table of one row per file (the files compared without the host's run-to-run
#                        noise)
#   --runs N             native runs per kernel, the median taken [5]; run in N rounds, each one run of every
#                        kernel in turn, so that a slow spell of a shared host costs one run of many kernels
#                        rather than all runs of a few; each kernel's times and their spread are recorded
#   --measured FILE      predict against an earlier run's native.json (its times, clock and fault time; the same
#                        suites, rebuilt alike) instead of measuring: model changes compared on one measurement
#   --cpu N              the CPU every native run is pinned to (taskset) [1]
#   --update-doc FILE    write the tables between <!-- native:begin --> and <!-- native:end --> of FILE
#
# Each suite is built by its validation/thirdparty/SUITE.sh with CC=gcc CXX=g++ NM=nm at the inputs of the
# RISC-V builds (the lists SUITE.tsv, validation/sweep.py's format), each kernel timed by the thread's CPU
# time (a shared host's other processes take turns on the CPU, which wall time would count): PolyBench by
# its own timer (-DPOLYBENCH_CLOCK=CLOCK_THREAD_CPUTIME_ID), the others by kernel_timer.h's timer that
# their scripts put around the kernel's call (-DEDAN_KERNEL_CLOCK=CLOCK_THREAD_CPUTIME_ID). Measured: the
# median over the runs of the last line of the program's output that is only a number (the kernel's
# seconds), each run pinned with taskset, in DIR/run (NPB's MG would read an mg.input in its directory).
# Predicted: edan run --filter=KERNEL --machine=DIR/NAME-host.ini with the program's arguments (warm, as
# the program runs). Reported: Spearman's rho between the two over all kernels, per suite and per size
# (fits./spills.), the median and the worst |time error|. Python 3 standard library only. Errors: a
# message and exit status 2.
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from compare import spearman, update_doc  # noqa: E402 (one definition of both)
from sweep import FLOAT_LINE, read_list  # noqa: E402 (the lists' format and the time=output line)

BEGIN, END = "<!-- native:begin -->", "<!-- native:end -->"
# suite: its script in validation/thirdparty/, a file that marks a checkout of it, its name in the tables
SUITES = (("polybench", "utilities/polybench.c", "PolyBench"), ("xsbench", "openmp-threading/Main.c", "XSBench"),
          ("olden", "em3d/src/main.c", "Olden"), ("npb", "CG/cg.c", "NPB"), ("gapbs", "src/bfs.cc", "GAPBS"))
CPU_CLOCK = "-DPOLYBENCH_CLOCK=CLOCK_THREAD_CPUTIME_ID -DEDAN_KERNEL_CLOCK=CLOCK_THREAD_CPUTIME_ID"


def die(msg):
    sys.stderr.write("native.py: %s\n" % msg)
    sys.exit(2)


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def host_probe(name, out, cpu, runs):
    """The median of the number validation/NAME.c prints over runs, each pinned to cpu (built into out)."""
    exe = os.path.join(out, name)
    p = run(["gcc", "-O2", "-o", exe, os.path.join(HERE, name + ".c")])
    if p.returncode:
        die("%s.c: %s" % (name, p.stderr.strip()))
    values = []
    for _ in range(runs):
        p = run(["taskset", "-c", str(cpu), exe])
        if p.returncode:
            die("%s: exit %d %s" % (name, p.returncode, p.stderr.strip()))
        values.append(float(p.stdout))
    return statistics.median(values)


def host_clock(out, cpu, runs):
    """The host core's clock in GHz (native_clock.c)."""
    return host_probe("native_clock", out, cpu, runs)


def host_fault(out, cpu, runs):
    """The host's page fault time in ns (native_fault.c: a first store to a fresh page, less a store to a present
    one)."""
    return max(0.0, host_probe("native_fault", out, cpu, runs))


# The shipped machine file of each host core /proc/cpuinfo can name: (vendor_id, cpu family, model or None).
HOST_CORES = {("AuthenticAMD", 25, 17): "zen4", ("AuthenticAMD", 26, None): "zen5",
              ("GenuineIntel", 6, 143): "spr"}


def host_core():
    """The machine file of the host's core, from /proc/cpuinfo; an error naming it when none describes it."""
    info = {}
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
            if not line.strip():
                break
    vendor, family, model = info.get("vendor_id", ""), info.get("cpu family", ""), info.get("model", "")
    if info.get("CPU part", "").lower() == "0xd40":
        return "neoverse-v1"
    for (v, fam, mod), name in HOST_CORES.items():
        if vendor == v and family == str(fam) and (mod is None or model == str(mod)):
            return name
    die("no machine file describes this host's core (%s, family %s, model %s): name one with --machine "
        "(make validate-native NATIVE_MACHINE=NAME; edan machines lists them)" % (vendor or "unknown vendor",
                                                                               family or "?", model or "?"))


def host_machine(name, out, ghz, fault_ns):
    """machines/NAME.ini with clock_ghz the host's and, if it zeroes pages, page_fault_ns the host's; its path."""
    src = os.path.join(ROOT, "machines", name + ".ini")
    try:
        with open(src, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        die("%s: %s" % (src, e.strerror))
    text, n = re.subn(r"(?m)^clock_ghz = .*$", "clock_ghz = %.3f       # measured on this host (native_clock.c)" % ghz,
                      text)
    if n != 1:
        die("%s: no clock_ghz line" % src)
    if re.search(r"(?m)^page_zeroing = first-store\b", text):
        text = re.sub(r"(?m)^page_fault_ns = .*\n", "", text)
        text = re.sub(r"(?m)^(page_zeroing = .*)$",
                      lambda m: m.group(1) + "\npage_fault_ns = %.0f   # measured on this host (native_fault.c)" % fault_ns,
                      text, count=1)
    dst = os.path.join(out, name + "-host.ini")
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)
    return dst


def measure_once(prog, cpu, cwd):
    """One pinned run of the program: its kernel time (its last line that is only a number, seconds)."""
    p = run(["taskset", "-c", str(cpu), prog["binary"]] + prog["args"], cwd=cwd)
    floats = [float(m.group(1)) for m in map(FLOAT_LINE.match, p.stdout.splitlines()) if m]
    if p.returncode != prog["exit"] or not floats:
        die("%s: exit %d (expected %d), %s: %s" % (prog["name"], p.returncode, prog["exit"],
                                                   "a time printed" if floats else "no time printed",
                                                   p.stderr.strip()[:200]))
    return floats[-1]


def loadavg():
    """The host's 1-minute load average: the measurement's neighbours (on a 2-CPU VM an SMT sibling's work can
    slow a pinned kernel by half)."""
    try:
        with open("/proc/loadavg", encoding="utf-8") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def measure_rounds(progs, cpu, runs, cwd):
    """{name: the kernel's times over runs rounds}, each round one run of every program in turn. Interleaved,
    so that a slow spell of a shared host (a neighbour's burst, another job on the same core's caches) costs one
    run of many kernels, which the median drops, rather than every run of the few kernels measured in it."""
    times = {prog["name"]: [] for prog in progs}
    for _ in range(runs):
        for prog in progs:
            times[prog["name"]].append(measure_once(prog, cpu, cwd))
    return times


def spread_pct(times):
    """The run-to-run spread of a kernel's times: (slowest - fastest) / median, in per cent."""
    return 100.0 * (max(times) - min(times)) / statistics.median(times)


def predict(edan, machine, prog, cwd):
    argv = [edan, "run", "--json", "--threads=1", "--filter=" + prog["kernel"], "--machine=" + machine,
            "--program-output=/dev/null"]
    if prog["exit"]:
        argv.append("--ignore-exit")
    p = run(argv + [prog["binary"]] + prog["args"], cwd=cwd)
    if p.returncode:
        die("edan run %s: exit %d: %s" % (prog["name"], p.returncode, p.stderr.strip()[-300:]))
    rep = json.loads(p.stdout.strip().splitlines()[-1])
    status = rep["source"]["program_exit"]["status"]
    if status != prog["exit"]:
        die("edan run %s: the program exited with status %s, expected %d" % (prog["name"], status, prog["exit"]))
    return rep["prediction"]["seconds"][0], rep["prediction"]["counts"]


def summary_row(label, sel):
    rho, _ = spearman([r["measured_s"] for r in sel], [r["predicted_s"] for r in sel])
    errs = [abs(r["error_pct"]) for r in sel]
    ratio = statistics.median(r["predicted_s"] / r["measured_s"] for r in sel)
    return "| %s | %d | %s | %.1f %% | %.0f %% | %.2f |" % (
        label, len(sel), "–" if rho is None or len(sel) < 3 else "%.3f" % rho, statistics.median(errs), max(errs),
        ratio)


def machines_table(res, fastest=False):
    """Every machine file's predictions (with --also; or the one file's, with fastest) against the same measured
    times, a row each: each kernel's median, or with fastest its fastest run (the one least disturbed by the
    host's other tenants: the model describes a core with its caches and memory to itself)."""
    names = [res["machine"]] + res.get("also", [])
    rows = res["kernels"]
    if fastest:
        rows = [r for r in rows if r.get("times_s")]
    if not rows or (len(names) < 2 and not fastest):
        return []
    measured = [min(r["times_s"]) if fastest else r["measured_s"] for r in rows]
    titles = [t for _, _, t in SUITES if any(r["suite"] == t for r in rows)]
    head = "| machine file | Spearman ρ | median \\|error\\| | worst \\|error\\| | predicted / measured (median) |"
    what = ("each kernel's fastest run instead of its median (the suites' columns: their median \\|error\\|):"
            if fastest else "the same measured times (the suites' columns: their median \\|error\\|):")
    out = ["", "The machine files on %s" % what, "",
           head + " %s |" % " | ".join(titles), "|---|---|---|---|---|" + "---|" * len(titles)]
    for i, name in enumerate(names):
        pred = [r["predicted_s"] if i == 0 else r["also"][name] for r in rows]
        errs = [abs(100.0 * (p - m) / m) for p, m in zip(pred, measured)]
        rho, _ = spearman(measured, pred)
        suites = [statistics.median(e for e, r in zip(errs, rows) if r["suite"] == t) for t in titles]
        out.append("| `%s` | %s | %.1f %% | %.0f %% | %.2f | %s |" % (
            name, "–" if rho is None else "%.3f" % rho, statistics.median(errs), max(errs),
            statistics.median(p / m for p, m in zip(pred, measured)),
            " | ".join("%.1f %%" % e for e in suites)))
    return out


def tables(res):
    rows = res["kernels"]
    fault = res.get("page_fault_ns")
    out = ["Host: %s, %d runs a kernel pinned to CPU %d, the thread's CPU time; clock %.3f GHz%s (measured). "
           "Machine: `%s` with that clock. %d kernels." % (
               res["host"], res["runs"], res["cpu"], res["ghz"],
               "" if fault is None else ", a page fault %.0f ns" % fault, res["machine"], len(rows))
           + (" Load average %s when the runs began, %s when they ended." % tuple(
               "–" if v is None else "%.2f" % v for v in res["load"]) if res.get("load") else ""), ""]
    spreads = [(spread_pct(r["times_s"]), r["name"]) for r in rows if len(r.get("times_s") or []) > 1]
    if spreads:
        wide = sorted(((v, n) for v, n in spreads if v > 20.0), reverse=True)
        out += ["Run-to-run spread of the measured times ((slowest - fastest) / median over each kernel's runs, "
                "the runs interleaved in rounds): median %.1f %%; over 20 %%: %s." % (
                    statistics.median(v for v, _ in spreads),
                    ", ".join("%s %.0f %%" % (n, v) for v, n in wide) if wide else "none"), ""]
    out += ["| kernels | n | Spearman ρ | median \\|error\\| | worst \\|error\\| | predicted / measured (median) |",
            "|---|---|---|---|---|---|"]
    groups = [("all", rows), ("fits. (every suite)", [r for r in rows if r["name"].startswith("fits.")]),
              ("spills. (every suite)", [r for r in rows if r["name"].startswith("spills.")])]
    for _, _, title in SUITES:
        sel = [r for r in rows if r["suite"] == title]
        groups.append((title, sel))
        if title == "PolyBench":
            groups += [("PolyBench MINI (fits.)", [r for r in sel if r["name"].startswith("fits.")]),
                       ("PolyBench L2X (spills.)", [r for r in sel if r["name"].startswith("spills.")])]
    out += [summary_row(label, sel) for label, sel in groups if sel]
    out += machines_table(res)
    out += machines_table(res, fastest=True)
    out += ["", "| suite | kernel | function | instructions | L1d misses | memory lines | measured µs | fastest µs | predicted µs "
            "| error | spread |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    order = [t for _, _, t in SUITES]
    for r in sorted(rows, key=lambda r: (order.index(r["suite"]), r["name"])):
        ts = r.get("times_s") or []
        out.append("| %s | %s | `%s` | %d | %d | %d | %.2f | %s | %.2f | %+.1f %% | %s |" % (
            r["suite"], r["name"], r["kernel"], r["instructions"], r["l1d_misses"], r["memory_lines"],
            r["measured_s"] * 1e6, "%.2f" % (min(ts) * 1e6) if ts else "–", r["predicted_s"] * 1e6, r["error_pct"],
            "%.0f %%" % spread_pct(ts) if len(ts) > 1 else "–"))
    return out


def previous_times(path, progs):
    """An earlier run's native.json (--measured): its host, clock, fault time and each kernel's times (older files
    hold the median alone). Every program of progs must be in it."""
    try:
        with open(path, encoding="utf-8") as f:
            prev = json.load(f)
        kernels = {k["name"]: k.get("times_s") or [k["measured_s"]] for k in prev["kernels"]}
        out = {"ghz": float(prev["ghz"]), "page_fault_ns": prev.get("page_fault_ns"), "host": prev.get("host", ""),
               "runs": int(prev["runs"]), "cpu": int(prev["cpu"]), "times": kernels, "load": prev.get("load")}
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    except (ValueError, KeyError, TypeError) as e:
        die("%s: not a native.json of native.py (%s)" % (path, e))
    missing = [p["name"] for p in progs if p["name"] not in kernels]
    if missing:
        die("%s: no measured times for %s" % (path, ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description="native validation (see the header)")
    ap.add_argument("--edan", required=True)
    ap.add_argument("--out", required=True)
    for suite, _, title in SUITES:
        ap.add_argument("--" + suite, metavar="SRC", help="a checkout of " + title)
    ap.add_argument("--machine")
    ap.add_argument("--also", default="", help="more machine files, predicted on the same measured times")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--measured", metavar="FILE", help="an earlier run's native.json: its measured times, clock "
                    "and fault time instead of measuring again")
    ap.add_argument("--update-doc")
    ap.add_argument("--command")
    a = ap.parse_args(argv)
    a.machine = a.machine or host_core()
    chosen = [(suite, getattr(a, suite), title) for suite, _, title in SUITES if getattr(a, suite)]
    if not chosen:
        die("no suite: give at least one of --polybench, --xsbench, --olden, --npb, --gapbs "
            "(make validate-native POLYBENCH=DIR XSBENCH=DIR OLDEN=DIR NPB=DIR GAPBS=DIR, any of them)")
    for tool in ("gcc", "g++", "nm", "taskset"):
        if not shutil.which(tool):
            die("%s: not found" % tool)
    for suite, mark, title in SUITES:
        src = getattr(a, suite)
        if src and not os.path.isfile(os.path.join(src, mark)):
            die("%s: not a %s checkout (no %s; --%s, %s=DIR)" % (src, title, mark, suite, suite.upper()))
    out = os.path.abspath(a.out)
    edan = os.path.abspath(a.edan)
    rundir = os.path.join(out, "run")
    os.makedirs(rundir, exist_ok=True)
    env = dict(os.environ, CC="gcc", CXX="g++", NM="nm", HOSTCXX="g++", EXTRA_CFLAGS=CPU_CLOCK)
    progs = []
    for suite, src, title in chosen:
        p = subprocess.run(["sh", os.path.join(HERE, "thirdparty", suite + ".sh"), src, out], env=env)
        if p.returncode:
            die("%s.sh failed (exit %d)" % (suite, p.returncode))
        progs += [dict(prog, suite=title) for prog in read_list(os.path.join(out, suite + ".tsv"))]
    if a.measured:
        prev = previous_times(a.measured, progs)
        ghz, fault_ns, times = prev["ghz"], prev.get("page_fault_ns"), prev["times"]
        model, runs, cpu = prev["host"], prev["runs"], prev["cpu"]
    else:
        ghz = host_clock(out, a.cpu, a.runs)
        fault_ns = host_fault(out, a.cpu, a.runs)
        model = ""
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
        runs, cpu = a.runs, a.cpu
        sys.stderr.write("native.py: %d kernels, %d rounds of one run each, pinned to CPU %d\n" % (
            len(progs), runs, cpu))
        load = [loadavg()]
        times = measure_rounds(progs, cpu, runs, rundir)
        load.append(loadavg())
    machine = host_machine(a.machine, out, ghz, fault_ns if fault_ns is not None else 0.0)
    also = [n for n in a.also.split(",") if n]
    others = {n: host_machine(n, out, ghz, fault_ns if fault_ns is not None else 0.0) for n in also}
    res = {"host": model, "runs": runs, "cpu": cpu, "ghz": ghz, "page_fault_ns": fault_ns, "machine": a.machine,
           "also": also, "kernels": []}
    if a.measured:
        res["measured_from"] = os.path.abspath(a.measured)
        if prev.get("load"):
            res["load"] = prev["load"]
    else:
        res["load"] = load
    for prog in progs:
        ts = times[prog["name"]]
        measured = statistics.median(ts)
        predicted, counts = predict(edan, machine, prog, rundir)
        res["kernels"].append({
            "suite": prog["suite"], "name": prog["name"], "kernel": prog["kernel"], "args": prog["args"],
            "measured_s": measured, "times_s": ts, "predicted_s": predicted,
            "error_pct": 100.0 * (predicted - measured) / measured, "instructions": counts["instructions"],
            "l1d_misses": counts["levels"][0]["misses"], "memory_lines": counts["memory_lines"],
            "also": {n: predict(edan, m, prog, rundir)[0] for n, m in others.items()}})
        sys.stderr.write("%-9s %-22s measured %10.2f us  predicted %10.2f us\n" % (
            prog["suite"], prog["name"], measured * 1e6, predicted * 1e6))
    with open(os.path.join(out, "native.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
    body = tables(res)
    if a.update_doc:
        commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip() or "unknown"
        head = ["", "Generated by `%s` at commit `%s` on %s." % (
            a.command or "python3 validation/native.py", commit, time.strftime("%Y-%m-%d", time.gmtime())), ""]
        update_doc(a.update_doc, head + body + [""], BEGIN, END)
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
