#!/usr/bin/env python3
"""DRAM timing ([dram], docs/machines.md) on real runs and in machine files.

machine_files: machines/gem5-validation-ddr4.ini parses in edan and in validation/gem5_machine.py (--check,
  no gem5), whose plan is gem5's DDR4_2400_8x8 and MemCtrl with the file's values and the swept latency on
  the controller's front end; a bad [dram] value names the file, the line and the key, exit status 2, in
  edan; gem5_machine.py refuses the same files with exit status 2.
realrun: pointer_chase and stream under the real QEMU and plugin on the DDR4 machine. The swept latency is
  a link's, added once to every read: a pointer chase, one read at a time, has a slope (ns of run time per
  ns of latency) equal to its memory reads; the DRAM's own time is on top of the fixed-latency machine's at
  the same latency; the results are the same run after run.

rows: the report's DRAM rows (text, JSON prediction.dram, NAME-dram.csv) on real --exact runs of stream and
  pointer_chase: per latency row hits + misses + conflicts == the DRAM's reads == the memory lines the report
  counts; stream's reads mostly row hits, the random chase's mostly misses and conflicts; the CSV equals the
  JSON; a fixed-latency machine's report has neither.

usage: dram_machine_test.py BUILD_DIR CATEGORY   (categories: machine_files, realrun, rows)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

from realrun_lib import EX, check, edan, online, run_category, validate_schema

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINES = os.path.join(HERE, "..", "machines")
DDR4 = os.path.join(MACHINES, "gem5-validation-ddr4.ini")
FIXED = os.path.join(MACHINES, "gem5-validation.ini")
GEM5_MACHINE = os.path.join(HERE, "..", "validation", "gem5_machine.py")


def gem5_check(path):
    return subprocess.run([sys.executable, GEM5_MACHINE, "--machine", path, "--check"], capture_output=True,
                          text=True, timeout=60)


def test_machine_files():
    with open(DDR4) as f:
        good = f.read()
    r = online("pointer_chase", 20, "--machine=" + DDR4)
    check(r["prediction"]["machine"]["name"] == "gem5-validation-ddr4", "the DDR4 machine parses and predicts")
    check(r["prediction"]["mem_latency_ns"] == [0], f"its default latency is link_latency_ns: {r['prediction']}")
    check(r["prediction"]["machine"].get("memory") == "dram", "the report says the latency is a link's on DRAM")
    validate_schema(r, "a DRAM machine's report")
    check("memory" not in online("pointer_chase", 20, "--machine=" + FIXED)["prediction"]["machine"],
          "a fixed-latency machine's report as before")
    p = edan("run", "--machine=" + DDR4, "--filter=kernel", os.path.join(EX, "pointer_chase"), "20")
    check("memory: DRAM, 1 channel x 2 ranks x 16 banks; mem latency = a link's" in p.stdout,
          f"the text report's header says what the latency is: {p.stdout[-800:]}")
    p = edan("machines", expect=0)
    check("gem5-validation-ddr4" in p.stdout, "edan machines lists it")

    g = gem5_check(DDR4)
    check(g.returncode == 0, f"gem5_machine.py --check: {g.stderr}")
    plan = json.loads(g.stdout)
    d = plan.get("dram") or {}
    want = {"ranks_per_channel": 2, "banks_per_rank": 16, "bank_groups_per_rank": 4, "devices_per_rank": 8,
            "device_bus_width": 8, "burst_length": 8, "device_rowbuffer_size": "1024B", "tCK": "0.833ns",
            "tBURST": "3.332ns", "tCCD_L": "5ns", "tRCD": "14.16ns", "tCL": "14.16ns", "tRP": "14.16ns",
            "tRAS": "32ns", "tWR": "15ns", "tRTP": "7.5ns", "tRTW": "1.666ns", "tWTR": "5ns", "tRRD": "3.332ns",
            "tRRD_L": "4.9ns", "tXAW": "21ns", "activation_limit": 4, "tRFC": "350ns", "tREFI": "7800ns",
            "read_buffer_size": 64, "write_buffer_size": 128, "page_policy": "open_adaptive",
            "addr_mapping": "RoRaBaCoCh"}
    check(d.get("interface") == want, f"gem5's DRAMInterface has DDR4_2400_8x8's values: {d.get('interface')}")
    check(d.get("ctrl", {}).get("static_frontend_latency") == "10ns" and "memory" not in plan,
          f"no link latency by default, no SimpleMemory: {d.get('ctrl')}")
    g = subprocess.run([sys.executable, GEM5_MACHINE, "--machine", DDR4, "--check", "--latency", "40"],
                       capture_output=True, text=True, timeout=60)
    check(json.loads(g.stdout)["dram"]["ctrl"]["static_frontend_latency"] == "50ns",
          "--latency rides on the controller's front end")

    def line_of(needle):
        return good[:good.index(needle)].count("\n") + 1

    # (change, what edan's message must say, the line it names or None for the file alone, gem5_machine refuses)
    cases = [
        (lambda t: t.replace("tcl_ns = 14.16", "tcl_ns = -1"), "tcl_ns = '-1'", line_of("tcl_ns"), True),
        (lambda t: t.replace("page_policy = open_adaptive", "page_policy = lazy"), "page_policy = 'lazy'",
         line_of("page_policy"), True),
        (lambda t: t.replace("banks = 16 ", "banks = 0 "), "banks = '0'", line_of("banks = 16"), True),
        (lambda t: t.replace("bank_groups = 4 ", "bank_groups = 3 "), "bank_groups = 3 does not divide",
         line_of("bank_groups"), True),
        (lambda t: t.replace("burst_length = 8", "burst_length = 4"), "burst_length = 4", line_of("burst_length"),
         True),
        (lambda t: t.replace("write_low_percent = 50", "write_low_percent = 90"), "write_low_percent = 90",
         line_of("write_low_percent"), True),
        (lambda t: t.replace("address_map = RoRaBaCoCh", "address_map = RoRaBaCoCh\nrow_policy = 1"),
         "unknown key 'row_policy'", line_of("address_map") + 1, True),
        (lambda t: t.replace("trp_ns = 14.16", "trp_ns = 14.16\ntrp_ns = 15"), "[dram] trp_ns given twice",
         line_of("trp_ns") + 1, False),
        (lambda t: t.replace("twtr_ns = 5 ", "# "), "[dram] twtr_ns is missing", None, True),
        (lambda t: t.replace("\n[dram] ", "\n[memory]\nlatency_ns = 50\nbandwidth_gbs = 16\n[dram] "),
         "[dram] and [memory] both given", line_of("\n[dram] ") + 1 + 4, True),
        (lambda t: t.replace("channels = 1", "channels = 3"), "channels = 3 is not a power of two",
         line_of("channels"), True),
        (lambda t: t.replace("trrd_l_ns = 4.9", "trrd_l_ns = 2"), "trrd_l_ns = 2 is below trrd_ns",
         line_of("trrd_l_ns"), True),
        (lambda t: t.replace("activation_limit = 4", "activation_limit = 9"), "activation_limit = '9'",
         line_of("activation_limit = 4"), True),
        (lambda t: t.replace("trefi_ns = 7800", "trefi_ns = 300"), "trefi_ns = 300 is not above",
         line_of("trefi_ns"), True),
        (lambda t: t.replace("trfc_ns = 350", "trfc_ns = 0"), "trfc_ns = '0'", line_of("trfc_ns"), True),
        (lambda t: t.replace("txaw_ns = 21 ", "# "), "[dram] txaw_ns is missing", None, True),
    ]
    chase = os.path.join(EX, "pointer_chase")
    with tempfile.TemporaryDirectory() as tmp:
        for i, (change, needle, line, gem5_refuses) in enumerate(cases):
            bad = os.path.join(tmp, f"bad{i}.ini")
            with open(bad, "w") as f:
                f.write(change(good))
            p = edan("run", "--machine=" + bad, "--filter=kernel", chase, "5", expect=None)
            msg = p.stderr.strip()
            where = f"{bad}:{line}:" if line else bad
            check(p.returncode == 2 and needle in msg and where in msg and msg.count("\n") == 0,
                  f"bad [dram] {i}: exit {p.returncode}, {msg!r} (expected {where} ... {needle})")
            if gem5_refuses:
                g = gem5_check(bad)
                check(g.returncode == 2 and bad in g.stderr, f"gem5_machine.py refuses bad [dram] {i}: {g.stderr!r}")


def prediction(prog, n, machine, lats):
    return online(prog, n, "--machine=" + machine, "--mem-latency=" + lats)["prediction"]


def test_realrun():
    n = 200000  # 3.2 MB of nodes: the chase misses the L2 at almost every step
    p = prediction("pointer_chase", n, DDR4, "0,100")
    reads = p["counts"]["memory_lines"]
    check(reads > n // 2, f"the chase reads memory: {reads} lines")
    # a longer run holds more refreshes, a read that meets one waits for it: a little more than a read
    check(reads <= p["slope_ns_per_ns"] <= 1.02 * reads,
          f"one read at a time: the link's latency adds once a read: slope {p['slope_ns_per_ns']}, {reads} reads")
    with tempfile.TemporaryDirectory() as tmp:  # with no refresh in reach, exactly once a read
        noref = os.path.join(tmp, "noref.ini")
        with open(DDR4) as f, open(noref, "w") as g:
            g.write(f.read().replace("trefi_ns = 7800 ", "trefi_ns = 10000000 "))
        q = prediction("pointer_chase", n, noref, "0,100")
        check(abs(q["slope_ns_per_ns"] - reads) <= 0.001 * reads and q["cycles"][0] < p["cycles"][0],
              f"no refresh: the link's latency adds once a read: slope {q['slope_ns_per_ns']}, {reads} reads; "
              f"faster than with refresh: {q['cycles']} against {p['cycles']}")
    f = prediction("pointer_chase", n, FIXED, "0,100")
    check(f["counts"] == p["counts"], "the same caches, the same counts")
    extra = (p["cycles"][0] - f["cycles"][0]) / reads  # ns a read at 1 GHz
    # a random chase over 3.2 MB finds its banks' rows mostly closed or other rows open: between a row
    # miss's tRCD + tCL + tBURST + 20 ns of controller (51.7 ns) and a conflict's + tRP (65.8 ns)
    check(45 < extra < 70, f"the DRAM's own time a read: {extra:.1f} ns")
    again = prediction("pointer_chase", n, DDR4, "0,100")
    check(again["cycles"] == p["cycles"], "the same run again: the same times")

    # stream: reads of consecutive lines are row hits, many in flight: less than the chase's time a read
    s = prediction("stream", 400000, DDR4, "0,100")
    sf = prediction("stream", 400000, FIXED, "0,100")
    lines = s["counts"]["memory_lines"]
    check(lines > 100000, f"stream reads memory: {lines} lines")
    check(s["cycles"][0] > sf["cycles"][0], f"the DRAM's time on top: {s['cycles']} against {sf['cycles']}")
    check(s["cycles"][0] / lines < p["cycles"][0] / reads,
          f"row hits and overlap: stream {s['cycles'][0] / lines:.1f} ns a line, chase {p['cycles'][0] / reads:.1f}")
    check(s["cycles"][1] > s["cycles"][0], "a longer link, a longer run")


def rows_run(prog, n, machine, tmp):
    """One --exact run at 0 and 100 ns: its JSON prediction, its CSV tables by name and its text report."""
    out = tempfile.mkdtemp(dir=tmp)
    p = edan("run", "--json", "--exact", "--filter=kernel", "--machine=" + machine, "--mem-latency=0,100",
             "--csv-dir=" + out, os.path.join(EX, prog), str(n))
    check(p.returncode == 0, f"edan run {prog}: exit {p.returncode}: {p.stderr}")
    r = json.loads(p.stdout.strip().splitlines()[-1])
    validate_schema(r, f"{prog}'s report")
    tables = {}
    for name in os.listdir(out):
        with open(os.path.join(out, name), newline="") as f:
            tables[name[len(prog) + len("-kernel-"):-4]] = list(csv.DictReader(f))
    text = edan("run", "--exact", "--filter=kernel", "--machine=" + machine, "--mem-latency=0,100",
                os.path.join(EX, prog), str(n)).stdout
    return r["prediction"], tables, text


def test_rows():
    with tempfile.TemporaryDirectory() as tmp:
        share = {}
        for prog, n in (("stream", 400000), ("pointer_chase", 200000)):
            p, tables, text = rows_run(prog, n, DDR4, tmp)
            d = p.get("dram")
            check(isinstance(d, dict), f"{prog}: prediction.dram on a [dram] machine: {d}")
            if not isinstance(d, dict):
                continue
            lines = p["counts"]["memory_lines"]
            check(lines > 100000, f"{prog} reads memory: {lines} lines")
            for k, lat in enumerate(p["mem_latency_ns"]):
                h, m, c = d["row_hits"][k], d["row_misses"][k], d["row_conflicts"][k]
                check(h + m + c == d["reads"][k] == lines,
                      f"{prog} at {lat} ns: {h} hits + {m} misses + {c} conflicts, {d['reads'][k]} DRAM reads, "
                      f"{lines} memory lines in the report")
                check(d["read_queue_wait_ns"][k] > 0, f"{prog} at {lat} ns: reads wait: {d['read_queue_wait_ns']}")
                # a read waits at least its bank's activate (tRCD 14.16 ns) on a miss, precharge too on a conflict
                least = (14.16 * m + 28.32 * c) / d["reads"][k]
                check(d["read_queue_wait_ns"][k] >= least - 0.01,
                      f"{prog} at {lat} ns: a mean wait of {d['read_queue_wait_ns'][k]:.2f} ns >= {least:.2f}")
            check(sum(d["writes"]) > 0 and min(d["drains"]) > 0, f"{prog}: write-backs drained: {d}")
            share[prog] = d["row_hits"][0] / d["reads"][0]
            # the CSV is the JSON, row for row
            rows = tables.get("dram", [])
            check(len(rows) == len(p["mem_latency_ns"]), f"{prog}: NAME-dram.csv has a row per latency: {rows}")
            for k, row in enumerate(rows):
                check(float(row["mem_latency_ns"]) == p["mem_latency_ns"][k], f"{prog} CSV row {k}: {row}")
                for key in ("reads", "row_hits", "row_misses", "row_conflicts", "writes", "drains"):
                    check(int(row[key]) == d[key][k], f"{prog} CSV {key} at row {k}: {row[key]} != {d[key][k]}")
                w = d["read_queue_wait_ns"][k]
                check(abs(float(row["read_queue_wait_ns"]) - w) <= 1e-6 * w, f"{prog} CSV wait at row {k}: {row}")
            # the text report: under the memory: DRAM line, a line per latency with the same numbers
            head = text.find("memory: DRAM")
            for k, lat in enumerate(p["mem_latency_ns"]):
                r = d["reads"][k]
                want = (f"    at {lat:g} ns: {r} reads, {100 * d['row_hits'][k] / r:.1f}% row hits, "
                        f"{100 * d['row_misses'][k] / r:.1f}% misses, {100 * d['row_conflicts'][k] / r:.1f}% "
                        f"conflicts; {d['drains'][k]} write drains; read queue wait "
                        f"{d['read_queue_wait_ns'][k]:.1f} ns mean")
                at = text.find(want)
                check(head >= 0 and at > head and text.count("\n", head, at) == k + 1,
                      f"{prog}: the text report's line {want!r} under memory: DRAM: {text[head:head + 600]}")
        # consecutive lines share a DDR4 row (1 KiB: 16 lines); random nodes over 3.2 MB seldom do
        check(share.get("stream", 0) > 0.9, f"stream's reads are row hits: {share}")
        check(share.get("pointer_chase", 1) < 0.4, f"the chase's reads are row misses and conflicts: {share}")

        # a fixed-latency machine: no "dram" member, no NAME-dram.csv, no DRAM lines
        p, tables, text = rows_run("pointer_chase", 2000, FIXED, tmp)
        check("dram" not in p and "dram" not in tables and "memory: DRAM" not in text,
              f"no DRAM rows without [dram]: {sorted(p)}, {sorted(tables)}")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
