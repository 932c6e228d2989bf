#!/usr/bin/env python3
# validation/sweep.py's edan side and validation/compare.py's metrics (issues 37 and 38), without gem5:
#  1. two sweeps write one results file at once (the timing model sampled in one, --exact in the
#     other): the file keeps every record of both (each write merges under a lock);
#  2. a sweep with --no-edan --no-gem5 rebuilds the table from the file: both model modes per program,
#     each run with its mode on edan's command line;
#  3. with sampled,exact both modes analyse one recorded trace: each program's two records name the
#     same trace digest and their commands record once and analyse; a rerun runs nothing;
#     --force-edan reruns edan's side, every record (lambda, and one pair job a program);
#  3b. compare.py checks the sampled model against --exact only on a pair of one trace: a pair whose
#     records name two traces is left out and counted, and the interval's coverage equals a naive
#     check of the records;
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
PROGRAMS = (("spills.sum", "sum", "65536"), ("spills.chase", "pointer_chase", "32768"),
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

        # 3. both modes on one trace (the two sweeps above recorded a trace each: a pair whose traces
        # differ runs again, as one job), then reruns
        _, err = run(sweep_cmd(build, results, lst, ["--model-mode", "sampled,exact"]))
        if re.search(r"^\[\d+/\d+\] (?!model-pair )", err, re.M):
            fail("sampled,exact ran more than the pairs of two traces again:\n%s" % err)
        with open(results) as f:
            table = json.load(f)["sweep"]
        for row in table["programs"]:
            s, x = row["model"], row["model_exact"]
            if not s.get("trace") or s.get("trace") != x.get("trace"):
                fail("%s: the two modes' records are not of one trace: %s, %s"
                     % (row["name"], s.get("trace"), x.get("trace")))
            for m in (s, x):
                if not re.match(r"edan record --filter=kernel .*-o TRACE .*&& edan analyze .*TRACE$", m["command"]):
                    fail("%s: not one recording analysed: %s" % (row["name"], m["command"]))
        _, err = run(sweep_cmd(build, results, lst, ["--model-mode", "sampled,exact"]))
        if re.search(r"^\[\d+/\d+\]", err, re.M):
            fail("a complete sweep ran again:\n%s" % err)
        _, err = run(sweep_cmd(build, results, lst, ["--model-mode", "sampled,exact", "--force-edan"]))
        if "[6/6]" not in err or err.count("] model-pair ") != 3:
            fail("--force-edan did not rerun edan's 6 jobs (lambda, the pair of modes x 3):\n%s" % err)

        # 3b. compare.py's sampled against exact: pairs of one trace only; coverage as a naive check
        with open(results) as f:
            data = json.load(f)
        rows = data["sweep"]["programs"]
        naive = 0
        for row in rows[1:]:
            s, x = row["model"], row["model_exact"]
            smp = s["sampling"]
            lats = sorted(s["by_latency"], key=float)
            naive += all(smp["cycles_low"][i] <= x["by_latency"][l]["cycles"] <= smp["cycles_high"][i]
                         for i, l in enumerate(lats))
        rows[0]["model"] = dict(rows[0]["model"], trace="another-trace")
        sep = os.path.join(tmp, "separate.json")
        with open(sep, "w") as f:
            json.dump(data, f)
        out, _ = run([sys.executable, COMPARE, "--results", sep, "--compact"])
        want = "holds the exact cycles at every latency in %d of %d programs" % (naive, len(rows) - 1)
        if want not in out or "; 1 pair of two traces left out" not in out:
            fail("compare.py on a pair of two traces: wanted '%s' and the pair left out:\n%s" % (want, out))

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
        print("sweep: two sweeps share one results file; both model modes in the table, of one trace; "
              "reruns and --force-edan; a pair of two traces left out; compare.py's metrics equal the naive ones (median %.3g %%, p90 %.3g %%)"
              % (want_med, want_p90))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
