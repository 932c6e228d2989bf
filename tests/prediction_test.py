#!/usr/bin/env python3
"""The timing model's tool on real runs (the examples under the real qemu-riscv64 and plugin), and the
machine files: every shipped one parses; a bad one is refused with the file and line, exit 2.

usage: prediction_test.py BUILD_DIR CATEGORY   (categories: machine_files, prediction)
"""
import glob
import json
import os
import tempfile

from realrun_lib import EX, check, edan, online, run_category, validate_schema

MACHINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines")
GEM5 = os.path.join(MACHINES, "gem5-validation.ini")


def test_machine_files():
    shipped = sorted(glob.glob(os.path.join(MACHINES, "*.ini")))
    check(len(shipped) >= 3, f"at least three machines ship: {shipped}")
    chase = os.path.join(EX, "pointer_chase")
    for path in shipped:
        r = online("pointer_chase", 20, "--machine=" + path)
        check("prediction" in r and r["prediction"]["machine"]["file"] == path, f"{path} parses and predicts")
    with open(GEM5) as f:
        good = f.read()

    def line_of(needle):
        """The line of the good file that holds needle (1-based)."""
        return good[:good.index(needle)].count("\n") + 1

    # (what to do to the good file, what the message must say, the line it must name or None)
    cases = [
        (lambda t: t.replace("rob_entries = 192", "rob_entries = 192\nrob_size = 3"), "unknown key 'rob_size'", line_of("rob_entries") + 1),
        (lambda t: t.replace("rob_entries = 192", "rob_entries = many"), "rob_entries = 'many'", line_of("rob_entries")),
        (lambda t: t.replace("clock_ghz = 1.0", "clock_ghz = -1"), "clock_ghz", line_of("clock_ghz")),
        (lambda t: t.replace("mshrs = 16", "mshrs ="), "mshrs = ''", None),
        (lambda t: t.replace("mshr_targets = 20 ", "mshr_targets = 0 ", 2), "mshr_targets = '0'", line_of("mshr_targets")),
        (lambda t: t.replace("mshr_targets = 12", "#"), "[l2] mshr_targets is missing", None),
        (lambda t: t.replace("fetch_block_bytes = 64", "fetch_block_bytes = 48"), "fetch_block_bytes = 48", None),
        (lambda t: t.replace("latency_ns = 50 ", "#"), "[memory] latency_ns is missing", None),
        (lambda t: t.replace("[l2]", "[l9]"), "unknown section [l9]", None),
        (lambda t: t.replace("ways = 8", "ways = 3"), "[l2]", None),
        (lambda t: t.replace("int = 1", "int = 1\nint = 2"), "given twice", None),
        (lambda t: t.replace("write = back", "write = sometimes", 1), "back or through", None),
        (lambda t: t.replace("[core]", "core"), "not a [section] or key = value line", line_of("[core]")),
        (lambda t: t + "[l3]\nsize = " + "1" * 300 + "\n", "longer than", good.count("\n") + 2),
        (lambda t: t.replace("size = 64K", "size = 64K\0"), "NUL", None),
    ]
    with tempfile.TemporaryDirectory() as d:
        for i, (change, needle, line) in enumerate(cases):
            bad = os.path.join(d, f"bad{i}.ini")
            with open(bad, "w") as f:
                f.write(change(good))
            for cmd in (["run", "--machine=" + bad, "--filter=kernel", chase, "5"],):
                p = edan(*cmd, expect=None)
                msg = p.stderr.strip()
                where = f"{bad}:{line}:" if line else bad
                check(p.returncode == 2 and needle in msg and where in msg and msg.count("\n") == 0,
                      f"bad machine file {i}: exit {p.returncode}, {msg!r} (expected {where} ... {needle})")
        p = edan("run", "--machine=" + d, "--filter=kernel", chase, "5", expect=None)
        check(p.returncode == 2 and "not a regular file" in p.stderr, f"a directory as machine file: {p.stderr}")
        p = edan("run", "--machine=" + GEM5, "--mem-latency=50,x", "--filter=kernel", chase, "5", expect=None)
        check(p.returncode == 2 and "--mem-latency" in p.stderr, f"a bad latency list: {p.stderr}")


def prediction(report):
    p = report["prediction"]
    return p["mem_latency_ns"], p["cycles"], p["seconds"], p


def test_prediction():
    lats = "--mem-latency=50,100,150,200,250,300"
    r = online("pointer_chase", 1000, "--machine=" + GEM5, lats)
    validate_schema(r, "pointer_chase prediction")
    lat, cyc, sec, p = prediction(r)
    check(lat == [50, 100, 150, 200, 250, 300] and len(cyc) == 6 and len(sec) == 6, f"one entry a latency: {p}")
    check(all(a < b for a, b in zip(cyc, cyc[1:])), f"the chase slows down with latency: {cyc}")
    misses = p["counts"]["levels"][-1]["misses"] + p["counts"]["l1i_misses"]
    # every miss of the chase depends on the one before: each adds one latency
    check(abs(p["slope_ns_per_ns"] - misses) <= 1, f"chase slope {p['slope_ns_per_ns']} = its {misses} misses")
    check(abs(p["slowdown"] - sec[-1] / sec[0]) < 1e-9, "slowdown is the last time over the first")
    check(all(abs(s - c / 1e9) < 1e-15 for s, c in zip(sec, cyc)), "seconds = cycles at 1 GHz")

    # online, offline, threads, text traces: one prediction
    with tempfile.TemporaryDirectory() as d:
        for prog, n in (("spmv", 300), ("stream", 2000), ("matmul", 12)):
            want = online(prog, n, "--machine=" + GEM5, lats)["prediction"]
            t = os.path.join(d, prog + ".edt")
            edan("record", "--filter=kernel", "-o", t, os.path.join(EX, prog), str(n))
            for extra in ([], ["--threads=1"]):
                got = json.loads(edan("analyze", "--json", "--machine=" + GEM5, lats, *extra, t).stdout)
                got["prediction"]["machine"]["file"] = want["machine"]["file"]
                check(got["prediction"] == want, f"{prog}: offline {extra} equals online")
            # the lanes are independent: each latency alone gives what it gives in the six-latency pass
            for k, ns in enumerate(want["mem_latency_ns"]):
                alone = json.loads(edan("analyze", "--json", "--machine=" + GEM5, f"--mem-latency={ns}",
                                        t).stdout)["prediction"]
                check(alone["cycles"] == [want["cycles"][k]] and alone["counts"] == want["counts"] and
                      alone["mem_stall_share"] == [want["mem_stall_share"][k]] and
                      [f["cycles"] for f in alone["functions"]] == [[f["cycles"][k]] for f in want["functions"]] and
                      [f["mem_stall_cycles"] for f in alone["functions"]] ==
                      [[f["mem_stall_cycles"][k]] for f in want["functions"]],
                      f"{prog}: {ns} ns alone {alone['cycles']} as in one pass with six {want['cycles'][k]}")
            txt = os.path.join(d, prog + ".txt")
            edan("convert", t, txt)
            # the original text format has no instruction addresses: no fetch, no branch prediction
            got = json.loads(edan("analyze", "--json", "--machine=" + GEM5, lats, txt).stdout)["prediction"]
            n_insns = want["counts"]["instructions"]
            check(got["counts"]["unaddressed"] == n_insns and got["counts"]["l1i_misses"] == 0 and
                  got["counts"]["mispredicts"] == 0 and got["counts"]["levels"] == want["counts"]["levels"],
                  f"{prog}: the text trace predicts without fetch and branches: {got['counts']}")
        # the stream example is bound by bandwidth, not latency alone: never faster than bytes / bandwidth
        s = online("stream", 20000, "--machine=" + GEM5, lats)["prediction"]
        floor = s["counts"]["memory_bytes"] / 16e9
        check(all(x >= floor * 0.99 for x in s["seconds"]), f"stream {s['seconds']} against {floor} s of transfer")
    # per function and per line: the attributed times add up to the region's
    r = online("spmv", 300, "--machine=" + GEM5, lats)
    validate_schema(r, "spmv prediction with functions")
    p = r["prediction"]
    for k in range(6):
        total = sum(f["cycles"][k] for f in p["functions"])
        check(abs(total - p["cycles"][k]) < 1e-6 * p["cycles"][k], f"functions add up at lane {k}: {total}")
    check(p["functions"][0]["name"] == "kernel", f"spmv's time is its kernel's: {p['functions'][0]}")
    check(0 < len(p["lines"]) <= 20 and all(ln["file"].endswith("spmv.c") for ln in p["lines"][:3]),
          f"spmv's lines: {p['lines'][:3]}")
    slopes = [ln["slope_ns_per_ns"] for ln in p["lines"]]
    check(slopes == sorted(slopes, reverse=True), "lines by slope")
    # the plot: predicted time against latency, the eDAG's bound beside it
    with tempfile.TemporaryDirectory() as d:
        edan("run", "--filter=kernel", "--machine=" + GEM5, lats, "--plot-dir=" + d, os.path.join(EX, "spmv"), "300")
        for ext in ("dat", "gp", "png", "svg"):
            check(os.path.getsize(os.path.join(d, "spmv-kernel-prediction." + ext)) > 0, f"spmv-kernel-prediction.{ext} written")
        with open(os.path.join(d, "spmv-kernel-prediction.dat")) as f:
            rows = [ln.split() for ln in f if not ln.startswith("#")]
        check(len(rows) == 6 and all(len(r) == 3 for r in rows), f"a row a latency, model and bound: {rows}")
    # --cache=machine: the eDAG's cache is the machine's data hierarchy
    r = online("spmv", 300, "--machine=" + GEM5, "--cache=machine;32K")
    labels = [c["cache"] for c in r["configurations"]]
    check(labels[0] == "64K,line=64,ways=2,write=back,alloc=yes+256K,line=64,ways=8,write=back,alloc=yes" and
          labels[1].startswith("32K"), f"--cache=machine: {labels}")
    p = edan("run", "--filter=kernel", "--cache=machine", os.path.join(EX, "spmv"), "30", expect=None)
    check(p.returncode == 2 and "--cache=machine needs --machine" in p.stderr, f"--cache=machine alone: {p.stderr}")
    # the text report
    p = edan("run", "--filter=kernel", "--machine=" + GEM5, lats, os.path.join(EX, "pointer_chase"), "100")
    check("prediction on machine gem5-validation" in p.stdout and "slope" in p.stdout, "the text report")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
