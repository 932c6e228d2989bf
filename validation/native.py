#!/usr/bin/env python3
# Native validation (make validate-native): the timing model's predicted kernel time against the kernel's
# measured time on the host, for PolyBench/C 4.2.1 built for the host with its gcc.
#
#   python3 validation/native.py --edan BUILD/edan --polybench SRC_DIR --out DIR
#                                [--machine NAME] [--runs 5] [--cpu 1] [--update-doc FILE --command TEXT]
#
#   --polybench SRC_DIR  a checkout of MatthiasJReisinger/PolyBenchC-4.2.1 (only read)
#   --out DIR            where the programs, the host's machine file and the results (native.json) go
#   --machine NAME       the machine file of the host's core [zen4]; its clock is replaced by the one
#                        measured here (validation/native_clock.c), written to DIR/NAME-host.ini
#   --runs N             native runs per kernel, the median taken [5]
#   --cpu N              the CPU every native run is pinned to (taskset) [1]
#   --update-doc FILE    write the tables between <!-- native:begin --> and <!-- native:end --> of FILE
#
# validation/thirdparty/polybench.sh builds the 30 MINI and 27 L2X kernels with CC=gcc and the kernel timed by
# the thread's CPU time (-DPOLYBENCH_CLOCK=CLOCK_THREAD_CPUTIME_ID: a shared host's other processes take
# turns on the CPU, which wall time would count). Measured: the median of the programs' own timer over the
# runs, each pinned with taskset. Predicted: edan run --filter=kernel_NAME --machine=DIR/NAME-host.ini (warm,
# as the program runs). Reported: Spearman's rho between the two over all kernels and per size, the median
# and the worst |time error|. Python 3 standard library only. Errors: a message and exit status 2.
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from compare import spearman, update_doc  # noqa: E402 (one definition of both)

BEGIN, END = "<!-- native:begin -->", "<!-- native:end -->"


def die(msg):
    sys.stderr.write("native.py: %s\n" % msg)
    sys.exit(2)


def run(argv, **kw):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def host_clock(out, cpu, runs):
    """The host core's clock in GHz: the median of native_clock's runs, pinned."""
    exe = os.path.join(out, "native_clock")
    p = run(["gcc", "-O2", "-o", exe, os.path.join(HERE, "native_clock.c")])
    if p.returncode:
        die("native_clock.c: %s" % p.stderr.strip())
    ghz = []
    for _ in range(runs):
        p = run(["taskset", "-c", str(cpu), exe])
        if p.returncode:
            die("native_clock: exit %d %s" % (p.returncode, p.stderr.strip()))
        ghz.append(float(p.stdout))
    return statistics.median(ghz)


def host_machine(name, out, ghz):
    """machines/NAME.ini with clock_ghz the host's; its path."""
    src = os.path.join(ROOT, "machines", name + ".ini")
    try:
        with open(src, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        die("%s: %s" % (src, e.strerror))
    text, n = re.subn(r"(?m)^clock_ghz = .*$", "clock_ghz = %.3f       # measured on this host (native_clock.c)" % ghz,
                      text)
    if n != 1:
        die("%s: no clock_ghz line" % src)
    dst = os.path.join(out, name + "-host.ini")
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text)
    return dst


def read_list(path):
    progs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, binary, kernel = line.rstrip("\n").split("\t")[:3]
                progs.append((name, binary, kernel))
    return progs


def measure(binary, cpu, runs):
    """The median of the program's own kernel time (its last line of output, seconds) over runs, pinned."""
    times = []
    for _ in range(runs):
        p = run(["taskset", "-c", str(cpu), binary])
        lines = p.stdout.strip().splitlines()
        if p.returncode or not lines:
            die("%s: exit %d, no time printed: %s" % (binary, p.returncode, p.stderr.strip()[:200]))
        times.append(float(lines[-1]))
    return statistics.median(times)


def predict(edan, machine, binary, kernel):
    p = run([edan, "run", "--json", "--threads=1", "--filter=" + kernel, "--machine=" + machine,
             "--program-output=/dev/null", binary])
    if p.returncode:
        die("edan run %s: exit %d: %s" % (binary, p.returncode, p.stderr.strip()[-300:]))
    rep = json.loads(p.stdout.strip().splitlines()[-1])
    return rep["prediction"]["seconds"][0], rep["prediction"]["counts"]


def tables(res):
    rows = res["kernels"]
    out = ["Host: %s, %d runs a kernel pinned to CPU %d, the thread's CPU time; clock %.3f GHz (measured). "
           "Machine: `%s` with that clock. %d kernels." % (res["host"], res["runs"], res["cpu"], res["ghz"],
                                                           res["machine"], len(rows)), ""]
    summary = ["| kernels | n | Spearman ρ | median \\|error\\| | worst \\|error\\| | predicted / measured (median) |",
               "|---|---|---|---|---|---|"]
    for label, sel in (("all", rows), ("MINI (fits.)", [r for r in rows if r["name"].startswith("fits.")]),
                       ("L2X (spills.)", [r for r in rows if r["name"].startswith("spills.")])):
        if not sel:
            continue
        rho, _ = spearman([r["measured_s"] for r in sel], [r["predicted_s"] for r in sel])
        errs = [abs(r["error_pct"]) for r in sel]
        ratio = statistics.median(r["predicted_s"] / r["measured_s"] for r in sel)
        summary.append("| %s | %d | %s | %.1f %% | %.0f %% | %.2f |" % (
            label, len(sel), "–" if rho is None else "%.3f" % rho, statistics.median(errs), max(errs), ratio))
    out += summary + ["", "| kernel | instructions | L1d misses | memory lines | measured µs | predicted µs | error |",
                      "|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: r["name"]):
        out.append("| %s | %d | %d | %d | %.2f | %.2f | %+.1f %% |" % (
            r["name"], r["instructions"], r["l1d_misses"], r["memory_lines"], r["measured_s"] * 1e6,
            r["predicted_s"] * 1e6, r["error_pct"]))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description="native validation (see the header)")
    ap.add_argument("--edan", required=True)
    ap.add_argument("--polybench", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine", default="zen4")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cpu", type=int, default=1)
    ap.add_argument("--update-doc")
    ap.add_argument("--command")
    a = ap.parse_args(argv)
    for tool in ("gcc", "nm", "taskset"):
        if not shutil.which(tool):
            die("%s: not found" % tool)
    if not os.path.isfile(os.path.join(a.polybench, "utilities", "polybench.c")):
        die("%s: not a PolyBench/C 4.2.1 checkout (--polybench, POLYBENCH=DIR)" % a.polybench)
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, CC="gcc", NM="nm", EXTRA_CFLAGS="-DPOLYBENCH_CLOCK=CLOCK_THREAD_CPUTIME_ID")
    p = subprocess.run(["sh", os.path.join(HERE, "thirdparty", "polybench.sh"), a.polybench, out], env=env)
    if p.returncode:
        die("polybench.sh failed (exit %d)" % p.returncode)
    ghz = host_clock(out, a.cpu, a.runs)
    machine = host_machine(a.machine, out, ghz)
    model = ""
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    res = {"host": model, "runs": a.runs, "cpu": a.cpu, "ghz": ghz, "machine": a.machine, "kernels": []}
    for name, binary, kernel in read_list(os.path.join(out, "polybench.tsv")):
        measured = measure(binary, a.cpu, a.runs)
        predicted, counts = predict(a.edan, machine, binary, kernel)
        res["kernels"].append({
            "name": name, "measured_s": measured, "predicted_s": predicted,
            "error_pct": 100.0 * (predicted - measured) / measured, "instructions": counts["instructions"],
            "l1d_misses": counts["levels"][0]["misses"], "memory_lines": counts["memory_lines"]})
        sys.stderr.write("%-24s measured %10.2f us  predicted %10.2f us\n" % (name, measured * 1e6, predicted * 1e6))
    with open(os.path.join(out, "native.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=1)
    body = tables(res)
    if a.update_doc:
        commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).stdout.strip() or "unknown"
        head = ["", "Generated by `%s` at commit `%s`." % (a.command or "python3 validation/native.py", commit), ""]
        update_doc(a.update_doc, head + body + [""], BEGIN, END)
    print("\n".join(body))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
