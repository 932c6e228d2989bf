#!/usr/bin/env python3
"""The eight-configuration sweep's wall-time ratio to one configuration, the
column of `make bench`, with more rounds: on a shared machine three rounds
move this ratio by 10% between runs. The two commands alternate round by
round on each trace; medians are printed.

usage: sweep_ratio.py EDAN ROUNDS TRACE[,TRACE...] [ANALYZE_ARGS...]
"""
import statistics
import subprocess
import sys
import time

SWEEP = "32K;64K;128K;256K;32K,ways=8;64K,ways=8;32K,write=back,alloc=yes;1M,ways=16,write=back,alloc=yes"


def wall(cmd):
    t0 = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - t0


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    edan, rounds, traces, args = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), sys.argv[4:]
    one, sweep = {}, {}
    for _ in range(rounds):
        for t in traces:
            one.setdefault(t, []).append(wall([edan, "analyze", *args, "--cache=32K", t]))
            sweep.setdefault(t, []).append(wall([edan, "analyze", *args, "--cache=" + SWEEP, t]))
    print("| trace | one cache s | eight caches s | ratio |")
    print("|---|---:|---:|---:|")
    for t in traces:
        o, s = statistics.median(one[t]), statistics.median(sweep[t])
        print(f"| {t} | {o:.2f} | {s:.2f} | {s / o:.2f} |")


if __name__ == "__main__":
    main()
