#!/usr/bin/env python3
"""A/B comparison of edan builds by CPU time, for changes too small to see
in wall time on a shared machine: the builds run alternately, round by
round, on each trace, and the least and the median user + system time of
each are printed (least / median).

usage: ab_cpu.py ROUNDS EDAN_A[,EDAN_B...] TRACE[,TRACE...] [ANALYZE_ARGS...]

Each run is `EDAN analyze ANALYZE_ARGS TRACE` (for example
`--threads=1 --cache='32K;64K'`). A build given as EDAN=DIR reads each
trace's namesake in DIR instead: builds that write different trace formats,
each on the traces it recorded.
"""
import os
import subprocess
import sys

from benchlib import interleaved


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    builds = sys.argv[2].split(",")
    traces = sys.argv[3].split(",")
    args = sys.argv[4:]
    def trace_for(b, t):
        return os.path.join(b.split("=", 1)[1], os.path.basename(t)) if "=" in b else t

    res = interleaved({(b, t): ([b.split("=", 1)[0], "analyze", *args, trace_for(b, t)], subprocess.DEVNULL)
                       for t in traces for b in builds}, rounds)
    print("| build | " + " | ".join(os.path.basename(t) + " CPU s, least / median" for t in traces) + " |")
    print("|---|" + "---:|" * len(traces))
    for b in builds:
        print(f"| {b} | " + " | ".join(f"{res[(b, t)][4]:.2f} / {res[(b, t)][3]:.2f}" for t in traces) + " |")


if __name__ == "__main__":
    main()
