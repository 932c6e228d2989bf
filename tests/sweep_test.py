#!/usr/bin/env python3
# validation/sweep.py's edan side and validation/compare.py's metrics (issues 37 and 38), without gem5:
#  1. two sweeps write one results file at once (the timing model sampled in one, --exact in the
#     other): the file keeps every record of both (each write merges under a lock);
#  2. a sweep with --no-edan --no-gem5 rebuilds the table from the file: both model modes per program,
#     each run with its mode on edan's command line;
#  3. a rerun runs nothing; --force-edan reruns edan's side, every record;
#  4. compare.py --compact on that table with gem5's times made from --exact's times scaled by a known
#     factor per program: its slope errors, their median and 90th percentile, and the count over 50 %
#     equal a naive computation from the factors;
#  5. the kernel's time in gem5's commit trace (time=trace) runs from the kernel's first commit to the
#     commit at its call's return address: a function it tail-calls (Olden tsp's `j merge`) counts,
#     and the caller's instructions between two calls are not the kernel's, on a hand-built trace in
#     gem5's line format.
#
#   python3 tests/sweep_test.py BUILD_DIR
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWEEP = os.path.join(ROOT, "validation", "sweep.py")
COMPARE = os.path.join(ROOT, "validation", "compare.py")
# Each beyond the L2, so latency-sensitive (a slope that is not 0), and short.
PROGRAMS = (("spills.sum", "sum", "65536"), ("spills.chase", "pointer_chase", "16384"),
            ("spills.stream", "stream", "16384"))
# gem5's time at every latency = --exact's x (1 + e): the exact model's slope error is 1/(1 + e) - 1
ERRORS = {"spills.sum": -0.2, "spills.chase": 0.1, "spills.stream": 1.5}


def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)


def sweep_cmd(build, results, lst, extra):
    return [sys.executable, SWEEP, "--no-gem5", "--edan", os.path.join(build, "edan"), "--latencies",
            "50,300", "--results", results] + extra + [lst]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("%s: status %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout, p.stderr


def naive_quantile(vals, q):
    v = sorted(vals)
    h = (len(v) - 1) * q
    lo = int(h)
    return v[lo] + (h - lo) * (v[min(lo + 1, len(v) - 1)] - v[lo])


# gem5's Exec lines (ExecEnable, ExecUser): main calls tsp [0x10e70, 0x10ecc) twice, first with a 2-byte
# c_jal (tsp returns), then with a 4-byte jal (tsp ends in its tail call `j merge`, merge returns to main).
TRACE = """\
1000: system.cpu: 0x10618    : c_mv a0, s0                : IntAlu :  D=0x0000000000181010
2000: system.cpu: 0x1061a    : c_jal 2134                 : IntAlu :  D=0x000000000001061c
3000: system.cpu: 0x10e70    : c_lw a5, 0(a0)             : MemRead :  D=0x0000000000000fff
4000: system.cpu: 0x10eca    : c_jr ra                    : IntAlu :
5000: system.cpu: 0x1061c    : c_mv s1, a0                : IntAlu :  D=0x0000000000181010
6000: system.cpu: 0x1061e    : jal ra, 2130               : IntAlu :  D=0x0000000000010622
7000: system.cpu: 0x10e70    : c_lw a5, 0(a0)             : MemRead :  D=0x0000000000000fff
8000: system.cpu: 0x10ec8    : c_j -620                   : IntAlu :
9000: system.cpu: 0x10c4e    : c_addi sp, -32             : IntAlu :  D=0x0000007ffffffd00
10000: system.cpu: 0x10c60    : c_jr ra                    : IntAlu :
11000: system.cpu: 0x10622    : c_mv s2, a0                : IntAlu :  D=0x0000000000181010
12000: system.cpu: 0x10624    : c_addi s0, 1               : IntAlu :  D=0x0000000000000001
"""


def trace_time():
    sys.path.insert(0, os.path.join(ROOT, "validation"))
    import sweep  # noqa: E402 (the module under test, from the source tree)
    got = sweep.trace_kernel_time(TRACE.splitlines(True), 0x10E70, 0x10ECC)
    # the first call 3000 .. 4000 (2 instructions), the second 7000 .. 10000, merge's return (4); the
    # last commit in tsp's symbol alone would end it at 8000
    if got != (3000, 10000, 6):
        fail(f"trace_kernel_time on the hand-built trace: {got}, expected (3000, 10000, 6)")


def main():
    trace_time()
    build = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="edan-sweep-")
    try:
        lst = os.path.join(tmp, "list.tsv")
        with open(lst, "w") as f:
            for name, exe, arg in PROGRAMS:
                f.write("%s\t%s\t%s\tkernel\n" % (name, os.path.join(build, "examples", exe), arg))
        results = os.path.join(tmp, "results.json")

        # 1. two sweeps at once on one file
        procs = [subprocess.Popen(sweep_cmd(build, results, lst, ["--model-mode", mode]),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for mode in ("sampled", "exact")]
        for p in procs:
            out, err = p.communicate()
            if p.returncode != 0:
                fail("a concurrent sweep: status %d\n%s" % (p.returncode, err))
        with open(results) as f:
            d = json.load(f)
        modes = sorted(r.get("mode") for r in d["model"].values())
        if len(d["edan"]) != len(PROGRAMS) or modes != ["exact"] * 3 + ["sampled"] * 3:
            fail("two sweeps at once lost records: %d lambda records, model modes %s"
                 % (len(d["edan"]), modes))

        # 2. the table from the file alone
        _, err = run(sweep_cmd(build, results, lst, ["--no-edan"]))
        if re.search(r"^\[\d+/\d+\]", err, re.M):
            fail("--no-gem5 --no-edan ran something:\n%s" % err)
        with open(results) as f:
            table = json.load(f)["sweep"]
        for row in table["programs"]:
            for key, mode in (("model", "sampled"), ("model_exact", "exact")):
                m = row.get(key)
                if not m or m.get("mode") != mode or "--" + mode + " " not in m["command"]:
                    fail("%s: %s is not the %s model's record: %s" % (row["name"], key, mode, m))
            if not row["lambda"]:
                fail("%s: no lambda record in the table" % row["name"])

        # 3. reruns
        _, err = run(sweep_cmd(build, results, lst, ["--model-mode", "sampled,exact"]))
        if re.search(r"^\[\d+/\d+\]", err, re.M):
            fail("a complete sweep ran again:\n%s" % err)
        _, err = run(sweep_cmd(build, results, lst, ["--model-mode", "sampled,exact", "--force-edan"]))
        if "[9/9]" not in err:
            fail("--force-edan did not rerun edan's 9 runs (lambda, sampled, exact x 3):\n%s" % err)

        # 4. compare.py's metrics against the naive ones
        with open(results) as f:
            data = json.load(f)
        slope_err = {}
        for row in data["sweep"]["programs"]:
            e = ERRORS[row["name"]]
            row["gem5"] = {l: {"seconds": v["seconds"] * (1 + e)}
                           for l, v in row["model_exact"]["by_latency"].items()}
            row["time_source"] = "output"
            slope_err[row["name"]] = (1 / (1 + e) - 1) * 100
        with open(results, "w") as f:
            json.dump(data, f)
        out, _ = run([sys.executable, COMPARE, "--results", results, "--compact"])
        errs = [abs(v) for v in slope_err.values()]
        want_med, want_p90 = sorted(errs)[1], naive_quantile(errs, 0.9)
        over = sum(1 for v in errs if v > 50)
        line = [l for l in out.splitlines() if l.startswith("| all | exact |")]
        if len(line) != 1:
            fail("compare.py --compact printed no metrics row for --exact:\n%s" % out)
        cells = [c.strip().strip("*").replace(" %", "") for c in line[0].strip("|").split("|")]
        got_med, got_p90, got_over = float(cells[5].strip("*")), float(cells[6].strip("*")), cells[8]
        if (abs(got_med - want_med) > 0.01 * want_med or abs(got_p90 - want_p90) > 0.01 * want_p90
                or got_over != "%d / %d" % (over, over)):
            fail("compare.py's exact metrics %s, naive: median %.3g, p90 %.3g, over 50 %% %d\n%s"
                 % (cells, want_med, want_p90, over, out))
        for name, e in slope_err.items():
            row = [l for l in out.splitlines() if l.startswith("| %s |" % name)]
            if not row or "/ %+.1f |" % e not in row[0]:
                fail("%s: the per-program row lacks the exact slope error %+.1f: %s" % (name, e, row))
        print("sweep: two sweeps share one results file; both model modes in the table; reruns and "
              "--force-edan; compare.py's metrics equal the naive ones (median %.3g %%, p90 %.3g %%)"
              % (want_med, want_p90))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
