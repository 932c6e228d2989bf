#!/usr/bin/env python3
"""Other cores than the validation machine on real runs (the examples under the real qemu-riscv64 and
plugin): the narrow machine (machines/gem5-validation-narrow.ini) and the in-order one
(machines/gem5-validation-minor.ini, [core] model = inorder), and validation/gem5_machine.py building
the same cores in gem5 from the same files (--check, without gem5).

usage: cores_test.py BUILD_DIR CATEGORY   (categories: narrow, inorder)

narrow: real programs predicted on the narrow machine (cold), their time in seconds at the file's 2 GHz;
the same programs on the same file with the validation core's width, window and MSHRs put back: the
narrow core is never faster, a stream bound by the L1d's MSHRs exposes about twice the latency with 8
as with 16, a pointer chase the same; gem5_machine.py plans an O3CPU of the file's widths, ROB, queues,
MSHRs, L2 and clock.
inorder: a pointer chase's slope is its misses on the in-order core, as out of order; on every program,
at every latency, the in-order core is never faster than the same file with model = o3, and a stream is
more sensitive to latency in order (a load's use holds back the next iteration's loads);
a bad model names the file, the line and the key, exit 2; gem5_machine.py plans a MinorCPU and refuses
a file MinorCPU cannot be (a store-set size, a window that is not its in-flight queue).
"""
import json
import os
import subprocess
import tempfile

from realrun_lib import EX, check, edan, online, run_category

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINES = os.path.join(HERE, "..", "machines")
NARROW = os.path.join(MACHINES, "gem5-validation-narrow.ini")
MINOR = os.path.join(MACHINES, "gem5-validation-minor.ini")
GEM5_MACHINE = os.path.join(HERE, "..", "validation", "gem5_machine.py")
LATS = "--mem-latency=25,50,100,200"


def gem5_plan(path):
    g = subprocess.run(["python3", GEM5_MACHINE, "--machine", path, "--check"], capture_output=True, text=True)
    return g.returncode, (json.loads(g.stdout) if g.returncode == 0 else None), g.stderr


def variant(d, src, name, changes):
    """A copy of the machine file src with each (old, new) text replaced once; its path."""
    with open(src) as f:
        text = f.read()
    for old, new in changes:
        check(text.count(old) == 1, f"{src} has {old!r} once")
        text = text.replace(old, new)
    path = os.path.join(d, name + ".ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def test_narrow():
    slopes = {}
    with tempfile.TemporaryDirectory() as d:
        # the validation core's width, window, queues and MSHRs on the narrow file (its caches, clock)
        wide = variant(d, NARROW, "wide", [
            ("fetch_width = 4 ", "fetch_width = 8 "), ("dispatch_width = 4 ", "dispatch_width = 8 "),
            ("issue_width = 4 ", "issue_width = 8 "), ("commit_width = 4 ", "commit_width = 8 "),
            ("rob_entries = 64 ", "rob_entries = 192 "), ("lq_entries = 16 ", "lq_entries = 32 "),
            ("sq_entries = 16 ", "sq_entries = 32 "), ("iq_entries = 32 ", "iq_entries = 64 "),
            ("mshrs = 8 ", "mshrs = 16 ")])
        # cold: the programs' data come from memory (warm, they fit in the 1 MiB L2)
        for prog, n in (("stream", 40000), ("spmv", 2000), ("pointer_chase", 20000)):
            p = online(prog, n, "--machine=" + NARROW, "--exact", "--cold", LATS)["prediction"]
            w = online(prog, n, "--machine=" + wide, "--exact", "--cold", LATS)["prediction"]
            check(p["machine"]["name"] == "gem5-validation-narrow", f"{prog}: the narrow machine predicts")
            check(all(abs(s - c / 2e9) <= 1e-12 + 1e-9 * s for s, c in zip(p["seconds"], p["cycles"])),
                  f"{prog}: seconds are cycles at 2 GHz: {p['seconds']} {p['cycles']}")
            check(p["counts"]["levels"] == w["counts"]["levels"], f"{prog}: the same caches see the same accesses")
            check(all(a >= b for a, b in zip(p["cycles"], w["cycles"])),
                  f"{prog}: the narrow core is never faster than the wide one: {p['cycles']} against {w['cycles']}")
            slopes[prog] = (p["slope_ns_per_ns"], w["slope_ns_per_ns"])
    # the stream's misses are bound by the L1d's MSHRs: half of them, about twice the latency exposed
    n8, n16 = slopes["stream"]
    check(n8 >= 1.5 * n16, f"stream: 8 MSHRs expose about twice the latency of 16: slope {n8} against {n16}")
    n, w = slopes["spmv"]
    check(n > w, f"spmv: a smaller window and fewer MSHRs overlap fewer misses: slope {n} against {w}")
    # the chase's misses wait for each other: width, window and MSHRs change nothing
    n, w = slopes["pointer_chase"]
    check(abs(n - w) <= 1e-6 * w, f"pointer chase: the same slope on both cores: {n} and {w}")
    rc, plan, err = gem5_plan(NARROW)
    check(rc == 0, f"gem5_machine.py takes the narrow machine: {err}")
    if plan:
        cpu = plan["cpu"]
        check("cpu_model" not in plan and all(cpu[k] == 4 for k in ("fetchWidth", "decodeWidth", "renameWidth",
                                                                      "dispatchWidth", "issueWidth", "commitWidth")),
              f"gem5 builds a 4-wide O3CPU: {cpu}")
        check((cpu["numROBEntries"], cpu["numIQEntries"], cpu["LQEntries"], cpu["SQEntries"]) == (64, 32, 16, 16),
              f"gem5's window and queues are the file's: {cpu}")
        check(plan["caches"]["l1d"]["mshrs"] == 8 and plan["caches"]["l2"]["size"] == "1048576B" and
              plan["clock"] == "2GHz", f"gem5's L1d MSHRs, L2 and clock are the file's: {plan['caches']} {plan['clock']}")


def test_inorder():
    with tempfile.TemporaryDirectory() as d:
        o3 = variant(d, MINOR, "o3", [("model = inorder ", "model = o3 ")])
        # the chase: every miss waits for the one before, in order and out of order
        r = online("pointer_chase", 1000, "--machine=" + MINOR, "--exact", "--cold", LATS)["prediction"]
        check(r["machine"]["name"] == "gem5-validation-minor", "the in-order machine predicts")
        misses = r["counts"]["levels"][-1]["misses"] + r["counts"]["l1i_misses"]
        check(abs(r["slope_ns_per_ns"] - misses) <= 1, f"chase slope {r['slope_ns_per_ns']} = its {misses} misses")
        slopes = {}
        for prog, n in (("pointer_chase", 1000), ("stream", 40000), ("spmv", 300), ("matmul", 12)):
            i = online(prog, n, "--machine=" + MINOR, "--exact", LATS)["prediction"]
            o = online(prog, n, "--machine=" + o3, "--exact", LATS)["prediction"]
            check(all(a >= b for a, b in zip(i["cycles"], o["cycles"])),
                  f"{prog}: in order never faster than out of order: {i['cycles']} against {o['cycles']}")
            slopes[prog] = (i["slope_ns_per_ns"], o["slope_ns_per_ns"])
        si, so = slopes["stream"]
        check(si > so, f"the stream is more sensitive to latency in order: slope {si} against {so}")
        # a bad model: the file, its line and the key, exit 2
        bad = variant(d, MINOR, "bad", [("model = inorder ", "model = sideways ")])
        with open(bad) as f:
            line = f.read().split("model = sideways")[0].count("\n") + 1
        p = edan("run", "--machine=" + bad, "--filter=kernel", os.path.join(EX, "pointer_chase"), "5", expect=None)
        msg = p.stderr.strip()
        check(p.returncode == 2 and f"{bad}:{line}:" in msg and "model" in msg and msg.count("\n") == 0,
              f"a bad model: exit {p.returncode}, {msg!r}")
        rc, _, err = gem5_plan(bad)
        check(rc == 2 and "model" in err, f"gem5_machine.py refuses a bad model: {err}")
        # gem5 builds MinorCPU from the file, and refuses what MinorCPU cannot be
        rc, plan, err = gem5_plan(MINOR)
        check(rc == 0 and plan["cpu_model"] == "minor", f"gem5_machine.py plans a MinorCPU: {err}")
        if plan:
            cpu = plan["cpu"]
            check((cpu["decodeInputWidth"], cpu["executeIssueLimit"], cpu["executeCommitLimit"],
                   cpu["executeMaxAccessesInMemory"], cpu["executeLSQStoreBufferSize"]) == (2, 2, 2, 2, 5),
                  f"MinorCPU's widths and queues are the file's: {cpu}")
        for name, change, needle in (("ss", ("store_set_bytes = 0 ", "store_set_bytes = 16 "), "store_set_bytes"),
                                     ("rob", ("rob_entries = 29 ", "rob_entries = 40 "), "rob_entries"),
                                     ("lat", ("fadd = 4 ", "fadd = 6 "), "fadd")):
            rc, _, err = gem5_plan(variant(d, MINOR, name, [change]))
            check(rc == 2 and needle in err, f"gem5_machine.py refuses {needle} MinorCPU cannot have: {err}")
        # a file without model is an O3 core, in edan and in gem5
        none = variant(d, os.path.join(MACHINES, "gem5-validation.ini"), "none", [])
        rc, plan, err = gem5_plan(none)
        check(rc == 0 and "cpu_model" not in plan, f"no model: an O3CPU: {err}")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
