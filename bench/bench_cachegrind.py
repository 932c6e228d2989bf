#!/usr/bin/env python3
"""edan's online analysis of x86-64 programs against cachegrind (issue 39, part of make bench): the anchor
users know. Each program, built for the host with its gcc, runs whole (no --filter) under
`edan run --cache=L1D+LL` (the eDAG's metrics over a two-level data cache: 32 KiB 8-way and 32 MiB 16-way,
write-back, write-allocate) and under `valgrind --tool=cachegrind --cache-sim=yes` with the same L1d and LL
(and a 32 KiB 8-way I1), both pinned to one core with taskset, interleaved round by round; the ratio is the
median of the rounds' ratios of CPU time (user + system, every thread and child: on a shared machine wall
time mostly measures the neighbours; edan / cachegrind: below 1, edan is faster). Beside them the program under
qemu-x86_64 alone, no plugin: the emulation's floor under edan's time. Programs: the bundled examples
(spmv, stream, matmul, pointer_chase) and, where a checkout is given (else skipped with a message):
POLYBENCH=DIR (MatthiasJReisinger/PolyBenchC-4.2.1), PolyBench's L2X kernels built by
validation/thirdparty/polybench.sh; HPCG=DIR (hpcg-benchmark/hpcg), xhpcg 16 16 16 built serial by
validation/thirdparty/hpcg.sh with the host's g++
(no hpcg.dat: one CG set, whatever the speed, so both tools run the same instructions); GAPBS=DIR
(sbeamer/gapbs), pr built by validation/thirdparty/gapbs.sh on the 2^14-vertex Kronecker graph it generates
(-g 14: generation, build and PageRank in one run).
Both tools do more than the other: edan the eDAG's work, span, memory depth and layers and the time series
of data movement besides the two cache levels' hits and misses and the counts per class; cachegrind the
I1 cache and per-source-line counts, written to a file (--cachegrind-out-file=/dev/null here).
Also the two tools' L1d misses and data accesses side by side: edan's memory-access vertices (its loads,
stores and read-modify-writes) against cachegrind's D refs (a read-modify-write is one reference, a read, to
cachegrind too; an instruction that accesses two places, movs or push [m], two to both), and the misses of
edan's first level against cachegrind's D1 misses (edan counts an access that straddles two lines once per
line in its cache's hits and misses, cachegrind once: a vectorised stencil's unaligned 16-byte loads make
edan's hits and misses 13 % more than its accesses on PolyBench's jacobi-2d).
Wall time too: edan on two cores (taskset -c 0,1: QEMU and the analysis each on a thread of its own, as a
user runs it) against cachegrind's (which runs on one thread whatever it is given).
With --before OLD_BUILD_DIR, also the edan of another build (an earlier commit) on one core in the same
rounds: its CPU time and the ratio of the two builds' CPU times (new / old, the median of the rounds'), so
a change's effect is measured under the same load as the ratio to cachegrind (--before-label names its
commit where its build's source is no git checkout).
Prints a Markdown table, also written to BUILD_DIR/bench-cachegrind.md; --update-docs puts it in
docs/benchmarks.md between its bench-cachegrind markers.

usage: bench_cachegrind.py BUILD_DIR [--quick] [--runs N] [--before OLD_BUILD_DIR [--before-label COMMIT]]
                           [--update-docs]
"""
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from benchlib import commit, interleaved, option, publish

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else None
QUICK = "--quick" in sys.argv
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else (1 if QUICK else 3)
BEFORE = os.path.abspath(sys.argv[sys.argv.index("--before") + 1]) if "--before" in sys.argv else None
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
ONE_CORE = ["taskset", "-c", "0"]
TWO_CORES = ["taskset", "-c", "0,1"]
EDAN_CACHE = "32K,ways=8,write=back,alloc=yes+32M,ways=16,write=back,alloc=yes"
CG_CACHE = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=33554432,16,64"]
EXAMPLES = [("spmv", ["2000"]), ("stream", ["1000000"]), ("matmul", ["200"]), ("pointer_chase", ["1000000"])]
if QUICK:
    EXAMPLES = [("spmv", ["200"]), ("stream", ["10000"])]
POLY = ["gemm", "atax", "jacobi-2d", "seidel-2d", "cholesky", "trisolv"]


def build_programs(tmp):
    progs = []
    for name, args in EXAMPLES:
        exe = os.path.join(tmp, name)
        subprocess.run(["gcc", "-O2", "-g", "-o", exe, os.path.join(SRC, "examples", name + ".c"), "-lm"], check=True)
        progs.append((name + " " + " ".join(args), [exe, *args]))
    if QUICK:
        return progs
    host = dict(os.environ, CC="gcc", CXX="g++", HOSTCXX="g++", NM="nm")
    poly = checkout("POLYBENCH", "MatthiasJReisinger/PolyBenchC-4.2.1")
    if poly:
        subprocess.run(["sh", os.path.join(SRC, "validation", "thirdparty", "polybench.sh"), poly, tmp], env=host,
                       check=True, stdout=subprocess.DEVNULL)
        progs += [("polybench " + k + " (L2X)", [os.path.join(tmp, "polybench", "l2x", k)]) for k in POLY]
    hpcg = checkout("HPCG", "hpcg-benchmark/hpcg")
    if hpcg:
        subprocess.run(["sh", os.path.join(SRC, "validation", "thirdparty", "hpcg.sh"), hpcg, tmp], env=host, check=True,
                       stdout=subprocess.DEVNULL)
        progs.append(("hpcg 16 16 16 (one CG set)", [os.path.join(tmp, "hpcg", "xhpcg"), "16", "16", "16"]))
    gapbs = checkout("GAPBS", "sbeamer/gapbs")
    if gapbs:
        subprocess.run(["sh", os.path.join(SRC, "validation", "thirdparty", "gapbs.sh"), gapbs, tmp], env=host,
                       check=True, stdout=subprocess.DEVNULL)
        progs.append(("gapbs pr -g 14 -n 1", [os.path.join(tmp, "gapbs", "pr"), "-g", "14", "-n", "1"]))
    return progs


def checkout(var, repo):
    """The checkout the environment variable var names, or None with a message that its programs are skipped."""
    path = os.environ.get(var)
    if path and os.path.isdir(path):
        return path
    print(f"bench_cachegrind: {var}={path or ''} names no checkout of {repo}: its programs are skipped",
          file=sys.stderr)
    return None


def before_commit():
    """The commit the --before build was made from, as its CMake cache names its source, else its path."""
    try:
        with open(os.path.join(BEFORE, "CMakeCache.txt")) as f:
            src = next(l.split("=", 1)[1].strip() for l in f if l.startswith("CMAKE_HOME_DIRECTORY"))
        out = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout.strip()
        return out or BEFORE
    except (OSError, StopIteration):
        return BEFORE


def cg_misses(text):
    """cachegrind's D1 misses and data accesses from its summary on stderr."""
    num = {}
    for key in ("D1  misses", "D   refs"):
        m = re.search(r"==\d+== " + re.escape(key) + r":\s+([\d,]+)", text)
        num[key] = int(m.group(1).replace(",", "")) if m else None
    return num["D1  misses"], num["D   refs"]


def main():
    if not BUILD:
        sys.exit(__doc__)
    for tool in ("valgrind", "gcc", "taskset", "qemu-x86_64"):
        if not shutil.which(tool):
            sys.exit(f"bench_cachegrind: {tool} not found (valgrind: Debian's valgrind package)")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # xhpcg writes its reports to the current directory
        for label, argv in build_programs(tmp):
            print(f"bench_cachegrind: {label}", file=sys.stderr)
            edan = ONE_CORE + [os.path.join(BUILD, "edan"), "run", "--json", "--threads=1", "--cache=" + EDAN_CACHE,
                               "--program-output=/dev/null", *argv]
            cg = ONE_CORE + ["valgrind", "--tool=cachegrind", "--cache-sim=yes", *CG_CACHE,
                             "--cachegrind-out-file=/dev/null", "--log-file=" + os.path.join(tmp, "cg.log"), *argv]
            qemu = ONE_CORE + ["qemu-x86_64", *argv]
            edan2 = TWO_CORES + edan[len(ONE_CORE):]
            cmds = {"edan": (edan, subprocess.PIPE), "cg": (cg, subprocess.DEVNULL),
                    "qemu": (qemu, subprocess.DEVNULL), "edan2": (edan2, subprocess.DEVNULL)}
            if BEFORE:
                cmds["old"] = (ONE_CORE + [os.path.join(BEFORE, "edan")] + edan[len(ONE_CORE) + 1:], subprocess.DEVNULL)
            r = interleaved(cmds, RUNS)
            # CPU time (user + system, QEMU's and the analysis thread's included): on a shared machine the
            # wall time mostly measures the neighbours' load; both runs are on one core, so unloaded the two agree
            ratio = statistics.median(e / c for e, c in zip(r["edan"][6], r["cg"][6]))
            wall = statistics.median(e / c for e, c in zip(r["edan2"][5], r["cg"][5]))
            conf = json.loads(r["edan"][2].strip().splitlines()[-1])["configurations"][0]
            with open(os.path.join(tmp, "cg.log")) as f:
                d1, refs = cg_misses(f.read())
            l1 = conf["cache_levels"][0]
            rows.append(dict(label=label, insns=conf["vertices"], edan=r["edan"][3], cg=r["cg"][3], ratio=ratio,
                             qemu=r["qemu"][3], edan_wall=r["edan2"][0], cg_wall=r["cg"][0], wall=wall,
                             edan_miss=l1["misses"], edan_acc=conf["loads"] + conf["stores"] + conf["atomics"],
                             cg_miss=d1, cg_acc=refs,
                             old=r["old"][3] if BEFORE else None,
                             speedup=statistics.median(e / o for e, o in zip(r["edan"][6], r["old"][6]))
                             if BEFORE else None))
    BEFORE_COMMIT = (option("--before-label") or before_commit()) if BEFORE else None
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"Measured {when} at commit `{commit()}` by `python3 bench/bench_cachegrind.py BUILD"
             f"{' --quick' if QUICK else ''}{' --before OLD_BUILD' if BEFORE else ''}` ({RUNS} interleaved rounds; CPU times on one core each, edan's wall "
             f"time also on two). edan: `run "
             f"--cache={EDAN_CACHE}`; cachegrind: `--cache-sim=yes {' '.join(CG_CACHE)}`."
             + (f" Before: the edan of `{BEFORE_COMMIT}` (`--before`), one core, in the same rounds." if BEFORE else ""),
             "",
             "| program (x86-64, gcc -O2/-O3) | instructions | QEMU alone CPU s | "
             + ("edan before CPU s | " if BEFORE else "") + "edan CPU s | "
             + ("edan / before (CPU) | " if BEFORE else "") + "cachegrind CPU s | "
             "edan / cachegrind (CPU) | edan wall s, 2 cores | cachegrind wall s | edan / cachegrind (wall) | "
             "L1d misses edan / cachegrind | accesses edan / cachegrind |",
             "|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if BEFORE else "")]
    for x in rows:
        lines.append(f"| {x['label']} | {x['insns']} | {x['qemu']:.2f} | "
                     + (f"{x['old']:.2f} | " if BEFORE else "") + f"{x['edan']:.2f} | "
                     + (f"{x['speedup']:.2f} | " if BEFORE else "") + f"{x['cg']:.2f} | "
                     f"{x['ratio']:.2f} | {x['edan_wall']:.2f} | {x['cg_wall']:.2f} | {x['wall']:.2f} | "
                     f"{x['edan_miss']} / {x['cg_miss']} | {x['edan_acc']} / {x['cg_acc']} |")
    publish(lines, BUILD, "bench-cachegrind", "bench-cachegrind")


if __name__ == "__main__":
    main()
