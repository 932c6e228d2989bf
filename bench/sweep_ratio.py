#!/usr/bin/env python3
"""The eight-configuration sweep's wall-time ratio to one configuration, the
column of `make bench`, with more rounds: on a shared machine three rounds
move this ratio by 10% between runs. The two commands alternate round by
round on each trace; medians are printed.

usage: sweep_ratio.py EDAN ROUNDS TRACE[,TRACE...] [ANALYZE_ARGS...]
"""
import subprocess
import sys

from benchlib import SWEEP, interleaved


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    edan, rounds, traces, args = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
    cmds = {}
    for t in traces:
        cmds[(t, "one")] = ([edan, "analyze", *args, "--cache=32K", t], subprocess.DEVNULL)
        cmds[(t, "sweep")] = ([edan, "analyze", *args, "--cache=" + SWEEP, t], subprocess.DEVNULL)
    res = interleaved(cmds, rounds)
    print("| trace | one cache s | eight caches s | ratio |")
    print("|---|---:|---:|---:|")
    for t in traces:
        o, s = res[(t, "one")][0], res[(t, "sweep")][0]
        print(f"| {t} | {o:.2f} | {s:.2f} | {s / o:.2f} |")


if __name__ == "__main__":
    main()
