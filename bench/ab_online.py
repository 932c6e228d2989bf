#!/usr/bin/env python3
"""Tracing speed of several builds side by side: plain QEMU, then each build's
`edan run --filter=KERNEL --cache=32K` and `edan record --filter=KERNEL` on
the 100M-instruction workloads of `make bench`, every command alternated round
by round (an A/B of the plugin and the online analysis). Prints the median
wall time of each, with its median CPU (user + system) time.

usage: ab_online.py BUILD_DIR[,BUILD_DIR...] ROUNDS
The workloads are those of the first build (BUILD_DIR/bench).
"""
import os
import subprocess
import sys
import tempfile

from benchlib import interleaved

WORKLOADS = [
    ("cg", "cg_solve", ["16", "29"]),
    ("hydro", "hydro_step_loop", ["24", "8"]),
    ("chase", "chase", ["1048576", "20000000"]),
    ("stream", "triad", ["1000000", "11"]),
]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    builds, rounds = [os.path.abspath(b) for b in sys.argv[1].split(",")], int(sys.argv[2])
    print("| workload | plain QEMU s | " + " | ".join(f"{b}: online s (CPU), record s (CPU)" for b in builds) + " |")
    print("|---|---:|" + "---:|" * len(builds))
    with tempfile.TemporaryDirectory() as tmp:
        for name, kernel, args in WORKLOADS:
            prog = os.path.join(builds[0], "bench", name)
            cmds = {"plain": (["qemu-riscv64", prog, *args], subprocess.DEVNULL)}
            for b in builds:
                edan = os.path.join(b, "edan")
                cmds[(b, "online")] = ([edan, "run", "--json", "--filter=" + kernel, "--cache=32K", prog, *args],
                                       subprocess.DEVNULL)
                cmds[(b, "record")] = ([edan, "record", "--filter=" + kernel, "-o", os.path.join(tmp, "t.edt"), prog,
                                        *args], subprocess.DEVNULL)
            r = interleaved(cmds, rounds)
            cells = [f"{r[(b, 'online')][0]:.2f} ({r[(b, 'online')][3]:.2f}), "
                     f"{r[(b, 'record')][0]:.2f} ({r[(b, 'record')][3]:.2f})" for b in builds]
            print(f"| {name} {' '.join(args)} | {r['plain'][0]:.2f} | " + " | ".join(cells) + " |", flush=True)


main()
