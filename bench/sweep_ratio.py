#!/usr/bin/env python3
"""The eight-configuration sweep's wall-time ratio to one configuration, the
column of `make bench`, with more rounds: on a shared machine three rounds
move this ratio by 10% between runs. The two commands alternate round by
round on each trace, and with several builds (an A/B) every build's commands
alternate too; medians are printed, with the median CPU (user + system) time
of each command.

usage: sweep_ratio.py EDAN[,EDAN...] ROUNDS TRACE[,TRACE...] [ANALYZE_ARGS...]
"""
import subprocess
import sys

from benchlib import SWEEP, interleaved


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    builds, rounds, traces, args = sys.argv[1].split(","), int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
    cmds = {}
    for t in traces:
        for b in builds:
            cmds[(b, t, "one")] = ([b, "analyze", *args, "--cache=32K", t], subprocess.DEVNULL)
            cmds[(b, t, "sweep")] = ([b, "analyze", *args, "--cache=" + SWEEP, t], subprocess.DEVNULL)
    res = interleaved(cmds, rounds)
    print("| build | trace | one cache s | eight caches s | ratio | CPU s: one, eight |")
    print("|---|---|---:|---:|---:|---:|")
    for t in traces:
        for b in builds:
            o, s = res[(b, t, "one")], res[(b, t, "sweep")]
            print(f"| {b} | {t} | {o[0]:.2f} | {s[0]:.2f} | {s[0] / o[0]:.2f} | {o[3]:.2f}, {s[3]:.2f} |")


if __name__ == "__main__":
    main()
