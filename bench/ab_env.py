#!/usr/bin/env python3
"""A/B comparison of one command under several environment settings, for a
scratch build that reads a switch from the environment (an experiment tried
before it is kept or dropped): the settings alternate round by round, and the
median and least wall and CPU times of each are printed.

usage: ab_env.py ROUNDS SETTING[;SETTING...] COMMAND...

A setting is a comma-separated list of NAME=VALUE (or '-' for none), e.g.
  ab_env.py 9 '-;EDAN_PF=1' build/edan analyze --cache=none hy.edt
"""
import os
import subprocess
import sys

from benchlib import interleaved


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, settings, cmd = int(sys.argv[1]), sys.argv[2].split(";"), sys.argv[3:]
    res = interleaved({s: (["env", *[kv for kv in s.split(",") if kv != "-"], *cmd], subprocess.DEVNULL)
                       for s in settings}, rounds)
    print("| setting | wall s, median / least | CPU s, median / least |")
    print("|---|---:|---:|")
    for s in settings:
        wall, _, _, cpu, cpu_least, walls = res[s]
        print(f"| {s} | {wall:.2f} / {min(walls):.2f} | {cpu:.2f} / {cpu_least:.2f} |")


if __name__ == "__main__":
    main()
