#!/usr/bin/env python3
# The latency of one dependent load, from the L1, the L2 and memory, in gem5 and in edan's timing model
# on the same machine file: the pointer chase of validation/calibrate/chase.c (one 64-byte node a line,
# a random cycle) at a size that fits each level, walked twice (STEPS and 2 x STEPS) so that the
# difference cancels what the walk's start costs; memory at two latencies, whose difference is the
# slope. Then the cost of a serializing instruction ([core] serialize_cycles): the loop of
# validation/calibrate/serial.c, an frflags and three adds an iteration, run the same two ways; and of a
# mispredicted branch ([core] mispredict_penalty): validation/calibrate/branch.c's loop with its branch random
# against the same loop with it predictable, the extra cycles a step over the extra mispredicts a step (gem5's
# condIncorrect, the model's count). And two independent misses a step (validation/calibrate/pair.c at
# 300 ns), without and with a use of the first between them: how many misses the core keeps in flight.
# Prints one table: cycles a step in gem5, in the model, and their difference.
#
#   python3 validation/calibrate.py [--gem5 PATH] [--edan PATH] [--machine FILE] [--steps N]
#
# It checks the machine description (hit latencies, the memory path's fixed cycles), not a program: a
# difference here is one every program sees, and belongs in the machine file or the model, never in a
# per-program correction. Needs riscv64-linux-gnu-gcc, gem5 (validation/build-gem5.sh).
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FLOAT = re.compile(r"^\s*([0-9]+\.[0-9]+)\s*$")


def die(msg):
    sys.stderr.write("calibrate.py: %s\n" % msg)
    sys.exit(2)


def gem5_seconds(gem5, machine, binary, args, latency, outdir):
    cmd = [gem5, "-q", "--outdir=" + outdir, os.path.join(HERE, "gem5_machine.py"), "--machine", machine,
           "--latency", str(latency), "--", binary] + [str(a) for a in args]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    times = [float(m.group(1)) for m in map(FLOAT.match, p.stdout.splitlines()) if m]
    if p.returncode != 0 or not times:
        die("gem5 failed: %s\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    return times[-1]


def gem5_stat(outdir, name):
    """A counter of gem5's stats.txt in outdir (the first dump), 0 when gem5 printed none."""
    with open(os.path.join(outdir, "stats.txt"), encoding="utf-8", errors="replace") as f:
        for line in f:
            p = line.split()
            if len(p) >= 2 and p[0] == name:
                return float(p[1])
    return 0.0


def edan_prediction(edan, machine, binary, kernel, args, latencies):
    cmd = [edan, "run", "--json", "--exact", "--filter=" + kernel, "--machine=" + machine,
           "--mem-latency=" + ",".join(str(x) for x in latencies), binary] + [str(a) for a in args]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        die("edan failed: %s\n%s" % (" ".join(cmd), p.stderr))
    return json.loads(p.stdout.strip().splitlines()[-1])["prediction"]


def edan_cycles(edan, machine, binary, kernel, args, latencies):
    return edan_prediction(edan, machine, binary, kernel, args, latencies)["cycles"]


def mispredict_row(a, binary, ghz, d):
    """The branch loop random (1) and predictable (0), each at steps and 2 x steps: the extra cycles a step of
    the random one, over the extra mispredicted branches a step, in gem5 and in the model."""
    out = os.path.join(d, "m5")
    steps = (a.steps, 2 * a.steps)
    g_cyc, g_mis, m_cyc, m_mis = {}, {}, {}, {}
    for mode in (0, 1):
        g, wrong = [], []
        for s in steps:  # each run's stats.txt read before the next run replaces it
            g.append(gem5_seconds(a.gem5, a.machine, binary, [mode, s], 50, out))
            wrong.append(gem5_stat(out, "system.cpu.branchPred.condIncorrect"))
        g_cyc[mode] = (g[1] - g[0]) * ghz * 1e9 / a.steps
        g_mis[mode] = (wrong[1] - wrong[0]) / a.steps
        preds = [edan_prediction(a.edan, a.machine, binary, "branch", [mode, s], [50]) for s in steps]
        m_cyc[mode] = (preds[1]["cycles"][0] - preds[0]["cycles"][0]) / a.steps
        m_mis[mode] = (preds[1]["counts"]["mispredicts"] - preds[0]["counts"]["mispredicts"]) / a.steps
    g_pen = (g_cyc[1] - g_cyc[0]) / max(g_mis[1] - g_mis[0], 1e-9)
    m_pen = (m_cyc[1] - m_cyc[0]) / max(m_mis[1] - m_mis[0], 1e-9)
    print("| mispredicted branch (cycles each; mispredicts a step gem5 %.3f, model %.3f) | 50 | %.2f | %.2f | %+.2f |" % (
        g_mis[1] - g_mis[0], m_mis[1] - m_mis[0], g_pen, m_pen, m_pen - g_pen))


def main():
    ap = argparse.ArgumentParser(description="per-level load latency, gem5 against the timing model")
    ap.add_argument("--gem5", default=os.environ.get("GEM5", "/opt/gem5src/build/RISCV/gem5.opt"))
    ap.add_argument("--edan", default=os.path.join(ROOT, "build", "edan"))
    ap.add_argument("--machine", default=os.path.join(ROOT, "machines", "gem5-validation.ini"))
    ap.add_argument("--steps", type=int, default=20000)
    a = ap.parse_args()
    for tool in (a.gem5, a.edan):
        if not os.access(tool, os.X_OK):
            die("%s is missing (gem5: sh validation/build-gem5.sh SRC; edan: make build)" % tool)
    # chase: nodes of one line: 64 fit the L1 (4 KiB), 2048 the L2 but not the L1 (128 KiB), 65536 neither
    # (4 MiB); serial: no data; pair: two loads a step in 8 MiB arrays, without (0) and with (1) a use of
    # the first between them. (name, program, arguments before STEPS, latencies)
    cases = [("L1", "chase", [64], [50]), ("L2", "chase", [2048], [50]), ("memory", "chase", [65536], [50, 300]),
             ("serializing", "serial", [], [50]),
             ("two independent misses a step, side by side", "pair", [0], [300]),
             ("two independent misses a step, a use of the first between them", "pair", [1], [300])]
    ghz = 1.0
    with open(a.machine) as f:
        for line in f:
            m = re.match(r"\s*clock_ghz\s*=\s*([0-9.]+)", line)
            if m:
                ghz = float(m.group(1))
    with tempfile.TemporaryDirectory() as d:
        for prog in ("chase", "serial", "branch", "pair"):
            subprocess.run(["riscv64-linux-gnu-gcc", "-O2", "-g", "-static", "-o", os.path.join(d, prog),
                            os.path.join(HERE, "calibrate", prog + ".c")], check=True)
        print("| case | latency ns | gem5 cycles a step | model cycles a step | model - gem5 |")
        print("|---|---|---|---|---|")
        for name, prog, args, lats in cases:
            binary = os.path.join(d, prog)
            steps = (a.steps, 2 * a.steps)
            model = [edan_cycles(a.edan, a.machine, binary, prog, args + [s], lats) for s in steps]
            for i, lat in enumerate(lats):
                g = [gem5_seconds(a.gem5, a.machine, binary, args + [s], lat, os.path.join(d, "m5")) for s in steps]
                g_step = (g[1] - g[0]) * ghz * 1e9 / a.steps
                m_step = (model[1][i] - model[0][i]) / a.steps
                print("| %s | %g | %.2f | %.2f | %+.2f |" % (name, lat, g_step, m_step, m_step - g_step))
                sys.stdout.flush()
        mispredict_row(a, os.path.join(d, "branch"), ghz, d)


main()
