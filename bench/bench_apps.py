#!/usr/bin/env python3
"""The timing model on real programs (issue 37's targets, part of make bench when HPCG=DIR or
LULESH=DIR names a checkout): HPCG 3.1 (`xhpcg 16 16 16`) and LULESH 2.0 (`lulesh2.0 -s 8 -i 10 -q`),
built serial and static for RISC-V by validation/thirdparty/hpcg.sh and lulesh.sh into
BUILD_DIR/bench/apps/, then measured by the scripts that measure the bundled workloads:
- bench_timing.py: `edan run --filter=KERNEL --machine=M --mem-latency=50,100,200,300` (sampled, the
  default) against a plain `edan run --filter=KERNEL` of the same region, on LULESH's
  LagrangeLeapFrog and HPCG's CG; commands interleaved, 3 rounds, medians. Target: at most 3x.
- bench_warm_functions.py (HPCG only): the slowdown (time at 300 ns / at 50 ns) of
  `--filter=F` (warm, the default) against F's row in one whole-program `--functions=...` run, for
  ComputeWAXPBY_ref, ComputeDotProduct_ref, ComputeSPMV_ref and ComputeSYMGS_ref. Target: within 5 %.
The programs run in a temporary directory (xhpcg writes its reports where it runs). Tables go to
BUILD_DIR/bench-apps-timing.md and bench-apps-warm.md; --update-docs puts them in docs/benchmarks.md.
Without HPCG and LULESH: a line saying so, exit status 0.

usage: bench_apps.py BUILD_DIR [--hpcg SRC_DIR] [--lulesh SRC_DIR] [--runs N] [--exact] [--update-docs]
       (--exact: the per-function comparison with --exact beside the default schedule: slow, minutes)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def option(name):
    v = sys.argv[sys.argv.index(name) + 1] if name in sys.argv and sys.argv.index(name) + 1 < len(sys.argv) else ""
    return v


HPCG_ARGS = ["16", "16", "16"]
LULESH_ARGS = ["-s", "8", "-i", "10", "-q"]
HPCG_FUNCS = "WAXPBY=ComputeWAXPBY_ref,DDOT=ComputeDotProduct_ref,SpMV=ComputeSPMV_ref,SymGS=ComputeSYMGS_ref"


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    hpcg, lulesh = option("--hpcg"), option("--lulesh")
    if not hpcg and not lulesh:
        print("bench_apps: HPCG and LULESH skipped (make bench HPCG=DIR LULESH=DIR names checkouts of "
              "hpcg-benchmark/hpcg and LLNL/LULESH)")
        return 0
    apps = os.path.join(build, "bench", "apps")
    workloads = []
    for name, src, script, binary, args, kernel in (
            ("LULESH", lulesh, "lulesh.sh", "lulesh/lulesh2.0", LULESH_ARGS, "LagrangeLeapFrog"),
            ("HPCG", hpcg, "hpcg.sh", "hpcg/xhpcg", HPCG_ARGS, "CG")):
        if not src:
            print(f"bench_apps: {name} skipped ({name}=DIR not given)")
            continue
        subprocess.run(["sh", os.path.join(ROOT, "validation", "thirdparty", script), src, apps], check=True)
        workloads.append((kernel, [os.path.join(apps, binary)] + args))
    passed = ["--update-docs"] if "--update-docs" in sys.argv else []
    runs = ["--runs", option("--runs")] if option("--runs") else []
    with tempfile.TemporaryDirectory() as tmp:
        timing = [sys.executable, os.path.join(HERE, "bench_timing.py"), build, "--online-only",
                  "--variants", "plain,4 latencies", "--name", "bench-apps-timing", *runs, *passed]
        for kernel, prog in workloads:
            timing += ["--workload", f"{kernel}={' '.join(prog)}"]
        subprocess.run(timing, cwd=tmp, check=True)
        if hpcg:
            subprocess.run([sys.executable, os.path.join(HERE, "bench_warm_functions.py"), build,
                            "--program", " ".join(workloads[-1][1]), "--functions", HPCG_FUNCS,
                            "--schedules", "sampled,exact" if "--exact" in sys.argv else "sampled",
                            "--name", "bench-apps-warm", *passed], cwd=tmp, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
