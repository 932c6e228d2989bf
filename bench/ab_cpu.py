#!/usr/bin/env python3
"""A/B comparison of edan builds by CPU time, for changes too small to see
in wall time on a shared machine: the builds run alternately, round by
round, on each trace, and the median user + system time of each is printed.

usage: ab_cpu.py ROUNDS EDAN_A[,EDAN_B...] TRACE[,TRACE...] [ANALYZE_ARGS...]

Each run is `EDAN analyze ANALYZE_ARGS TRACE` (for example
`--threads=1 --cache='32K;64K'`).
"""
import os
import statistics
import subprocess
import sys


def cpu_seconds(cmd):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"ab_cpu: {' '.join(cmd)} failed: {err}")
    return ru.ru_utime + ru.ru_stime


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    builds = sys.argv[2].split(",")
    traces = sys.argv[3].split(",")
    args = sys.argv[4:]
    times = {}
    for _ in range(rounds):
        for t in traces:
            for b in builds:
                times.setdefault((b, t), []).append(cpu_seconds([b, "analyze", *args, t]))
    print("| build | " + " | ".join(os.path.basename(t) for t in traces) + " |")
    print("|---|" + "---:|" * len(traces))
    for b in builds:
        print(f"| {b} | " + " | ".join(f"{statistics.median(times[(b, t)]):.3f}" for t in traces) + " |")


if __name__ == "__main__":
    main()
