#!/usr/bin/env python3
"""The projection (--projection, issue 23) on real runs and on a synthetic trace:

  flops      flop counts exact on kernels whose operations are known from their source and code (matrix
             multiply, a triangular solve with divisions, norms with square roots and fused multiply-adds,
             the logistic function with a call of exp per element), counted independently from the
             mnemonics of `edan record --text`; online = offline; stack traffic and loads/stores alike
  traffic    the traffic of the stack-distance curve equals edan's cache model configured fully
             associative, write-back, write-allocate, at three sizes, on five examples; --cache=machine
  synthetic  a text trace with program counters (nested loops, loads, stores, the stack): loops, their
             rows (operation mix, DRAM reads and write-backs of an LRU cache at the machine's size and at
             the sweep's sizes) against a naive reference that keeps the whole stream
  sweep      the CSV of a sweep (ExaSAT's Table 1 per configuration) recomputed from the JSON's counts;
             the plots; the --table form
  options    bad machine files ([projection] keys), bad sweep lists, --projection without --machine,
             the timing model only with --mem-latency

usage: projection_test.py BUILD_DIR CATEGORY
"""
import csv
import json
import math
import os
import re
import tempfile

from realrun_lib import EX, check, edan, online, run_category, validate_schema

MACHINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines")
GEM5 = os.path.join(MACHINES, "gem5-validation.ini")


def projection(prog, n, *opts, machine=GEM5):
    r = online(prog, n, "--projection", "--machine=" + machine, *opts)
    validate_schema(r, f"{prog} --projection")
    return r["projection"]


# ===================================================================== #
# Counting the text trace's mnemonics                                    #
# ===================================================================== #

FP_KIND = (("fadd.", "add"), ("fsub.", "add"), ("fmul.", "mul"), ("fmadd.", "fma"), ("fmsub.", "fma"),
           ("fnmadd.", "fma"), ("fnmsub.", "fma"), ("fdiv.", "div"), ("fsqrt.", "sqrt"))
FLOPS = {"add": 1, "mul": 1, "fma": 2, "div": 1, "sqrt": 1}


def text_counts(prog, n, *opts):
    """Counts from `edan record --text`: FP kinds, loads, stores and stack accesses of the kernel's own
    instructions (call depth 0), the calls it makes, and what runs inside them."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.txt")
        p = edan("record", "--text", "--filter=kernel", *opts, "-o", path, os.path.join(EX, prog), str(n))
        check(p.returncode == 0, f"record {prog}: {p.stderr}")
        with open(path) as f:
            lines = f.read().splitlines()
    c = {"add": 0, "mul": 0, "fma": 0, "div": 0, "sqrt": 0, "calls": 0, "inside": 0, "inside_flops": 0,
         "loads": 0, "stores": 0, "stack_loads": 0, "stack_stores": 0, "instructions": 0}
    depth = 0
    for line in lines:
        if line.startswith("#"):  # edan's header and end line
            continue
        dis = line.split(";")[1]
        mn = dis.split()[0]
        kind = next((k for p, k in FP_KIND if mn.startswith(p)), None)
        if depth > 0:
            c["inside"] += 1
            c["inside_flops"] += FLOPS.get(kind, 0)
        else:
            c["instructions"] += 1
            if kind:
                c[kind] += 1
            load = mn in ("lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", "flw", "fld")
            store = mn in ("sb", "sh", "sw", "sd", "fsw", "fsd")
            c["loads"] += load
            c["stores"] += store
            if "(sp)" in dis:
                c["stack_loads"] += load
                c["stack_stores"] += store
        # a call: jal/jalr writing ra; a return: ret (the kernel's own return ends the trace at depth 0)
        if re.match(r"jalr? ra,", dis):
            c["calls"] += depth == 0
            depth += 1
        elif mn == "ret" and depth > 0:
            depth -= 1
    return c


def test_flops():
    # (program, n, what the source and the generated code say it executes)
    known = [
        ("matmul", 12, {"add": 12 ** 3, "mul": 12 ** 3, "fma": 0, "div": 0, "sqrt": 0}, 0),
        ("trsv", 40, {"add": 40 * 39 // 2, "mul": 40 * 39 // 2, "fma": 0, "div": 40, "sqrt": 0}, 0),
        ("norms", 50, {"add": 0, "mul": 50, "fma": 100, "div": 0, "sqrt": 50}, 0),
        ("logistic", 40, {"add": 40, "mul": 0, "fma": 0, "div": 40, "sqrt": 0}, 40),
    ]
    weights = {"div": 48, "sqrt": 96, "transcendental": 125}  # gem5-validation.ini
    for prog, n, source, calls in known:
        p = projection(prog, n)
        text = text_counts(prog, n)
        what = f"{prog} {n}"
        for k in ("add", "mul", "fma", "div", "sqrt"):
            check(p["fp"][k] == text[k] == source[k],
                  f"{what}: {k}: the projection {p['fp'][k]}, the text trace {text[k]}, the source {source[k]}")
        check(p["transcendentals"] == text["calls"] == calls,
              f"{what}: transcendental calls {p['transcendentals']}, text {text['calls']}, source {calls}")
        check(p["in_calls"]["instructions"] == text["inside"] and p["in_calls"]["flops"] == text["inside_flops"],
              f"{what}: inside the calls {p['in_calls']}, text {text['inside']} / {text['inside_flops']}")
        flops = sum(source[k] * FLOPS[k] for k in FLOPS) + calls
        weighted = (source["add"] + source["mul"] + 2 * source["fma"] + weights["div"] * source["div"]
                    + weights["sqrt"] * source["sqrt"] + weights["transcendental"] * calls)
        check(p["flops"] == flops and p["weighted_flops"] == weighted,
              f"{what}: flops {p['flops']} / {p['weighted_flops']}, expected {flops} / {weighted}")
        check(p["instructions"] == text["instructions"] and p["loads"] == text["loads"]
              and p["stores"] == text["stores"],
              f"{what}: instructions, loads, stores {p['instructions']}, {p['loads']}, {p['stores']}; text {text}")
        check(p["stack"]["loads"] == text["stack_loads"] and p["stack"]["stores"] == text["stack_stores"],
              f"{what}: stack {p['stack']}, text {text['stack_loads']} / {text['stack_stores']}")
        # the loops partition the region, as the functions do
        for key in ("instructions", "flops", "dram_bytes", "load_bytes"):
            parts = sum(l[key] for l in p["loops"]) + p["outside_loops"][key]
            check(parts == p[key], f"{what}: loops + outside sum to the region's {key}: {parts} vs {p[key]}")
            check(sum(f[key] for f in p["functions"]) == p[key], f"{what}: functions sum to the region's {key}")
        check(p["functions"][0]["name"] == "kernel" and p["functions"][0]["flops"] == flops,
              f"{what}: the kernel's row: {p['functions'][0]['name']}")
        # ExaSAT's bound on the machine's numbers
        check(math.isclose(p["time_compute_s"], weighted / 8e9) and
              math.isclose(p["time_memory_s"], p["dram_bytes"] / 16e9) and
              p["time_s"] == max(p["time_compute_s"], p["time_memory_s"]),
              f"{what}: T = max(W/alpha, D/beta): {p['time_compute_s']}, {p['time_memory_s']}, {p['time_s']}")
        check(p["bound"] == ("compute" if p["time_compute_s"] > p["time_memory_s"] else "memory"), f"{what}: bound")
        check(p["time_sum_of_parts_s"] >= p["time_s"] * (1 - 1e-12), f"{what}: the sum of the parts is no less")
    # the innermost loop of matmul: n^3 iterations, n^3 - n^2 back edges, one add and one mul each
    p = projection("matmul", 12)
    inner = max(p["loops"], key=lambda l: l["depth"])
    check(inner["depth"] == 3 and inner["iterations"] == 12 ** 3 and inner["back_edges"] == 12 ** 3 - 12 ** 2
          and inner["fp"]["add"] == 12 ** 3 and inner["function"] == "kernel" and inner["file"].endswith("matmul.c"),
          f"matmul's innermost loop: {inner}")
    check(sorted(l["depth"] for l in p["loops"]) == [1, 2, 3], "matmul: three nested loops")
    # with the callees left out, exp's calls are still counted (by the call's target), nothing inside
    q = online("logistic", 40, "--projection", "--machine=" + GEM5, "--exclude-callees")["projection"]
    check(q["transcendentals"] == 40 and q["in_calls"]["instructions"] == 0 and q["fp"]["div"] == 40,
          f"logistic --exclude-callees: {q['transcendentals']} calls, {q['in_calls']}")
    # online = offline, from a binary trace
    with tempfile.TemporaryDirectory() as d:
        t = os.path.join(d, "t.edt")
        edan("record", "--filter=kernel", "-o", t, os.path.join(EX, "logistic"), "40")
        off = json.loads(edan("analyze", "--json", "--projection", "--machine=" + GEM5, t).stdout)["projection"]
        on = projection("logistic", 40)
        check(off == on, "logistic: the projection offline equals online")


# ===================================================================== #
# Traffic against the cache model                                        #
# ===================================================================== #

def assoc(size):
    return f"{size},line=64,ways={size // 64},write=back,alloc=yes"


def test_traffic():
    sizes = (1024, 4096, 32768)
    for prog, n in (("stream", 3000), ("spmv", 300), ("matmul", 24), ("trsv", 60), ("linked_list", 500)):
        p = projection(prog, n, "--cache=" + ";".join(assoc(s) for s in sizes))
        curve = p["traffic_curve"]
        at = {b: (r, w) for b, r, w in zip(curve["cache_bytes"], curve["read_bytes"], curve["write_bytes"])}
        for i, s in enumerate(sizes):
            c = p["caches"][i]
            want = at.get(s, (curve["read_bytes"][-1], curve["write_bytes"][-1]))
            check((c["dram_read_bytes"], c["dram_write_bytes"]) == want,
                  f"{prog} {n}, {s} B fully associative: the cache model {c['dram_read_bytes']} / "
                  f"{c['dram_write_bytes']}, the stack-distance curve {want}")
        check(p["traffic"]["source"] == "cache" and p["dram_bytes"] == p["caches"][0]["dram_bytes"],
              f"{prog}: the projection's traffic is the first --cache's")
        reads = curve["read_bytes"]
        check(all(x >= y for x, y in zip(reads, reads[1:])), f"{prog}: reads do not rise with the cache")
        # without --cache: the LRU cache of the machine's last level (gem5-validation: L2, 256 KiB)
        q = projection(prog, n)
        check(q["traffic"]["source"] == "lru" and q["traffic"]["cache_bytes"] == 262144, f"{prog}: lru source")
        k = min(len(reads) - 1, curve["cache_bytes"].index(262144) if 262144 in curve["cache_bytes"] else 99)
        check(q["dram_read_bytes"] == reads[k], f"{prog}: the machine's traffic is the curve's at 256 KiB")
    # --cache=machine: the machine's own hierarchy through the cache model
    p = projection("spmv", 300, "--cache=machine")
    check(p["traffic"]["source"] == "cache" and p["traffic"]["cache"].startswith("64K,line=64,ways=2,write=back")
          and "+256K" in p["traffic"]["cache"], f"--cache=machine: {p['traffic']}")


# ===================================================================== #
# A synthetic trace against a naive reference                            #
# ===================================================================== #

def small_machine(d):
    """gem5-validation with a 1 KiB L1d and a 2 KiB L2: the LRU cache of the projection holds 32 lines."""
    with open(GEM5) as f:
        text = f.read()
    text = text.replace("size = 64K", "size = 1K").replace("size = 256K", "size = 2K")
    path = os.path.join(d, "small.ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def synthetic_trace(path, seed):
    """Nested loops: an outer loop over two inner ones (a streaming update and a random gather with a
    stack spill), a division between them, code after. Returns the records as (pc, text, addr)."""
    import random
    rnd = random.Random(seed)
    recs = []
    pc0 = 0x10000

    def r(off, text, addr=None):
        recs.append((pc0 + off, text, addr))
    arr_a, arr_b, region_c, stack = 0x200000, 0x300000, 0x400000, 0x7fff000
    outer = 2 + seed % 3
    for o in range(outer):
        r(0x00, "addi a2,a2,1")
        n1 = 20 + rnd.randrange(60)
        for i in range(n1):
            r(0x04, "fld fa5,0(a5)", arr_a + 8 * i)
            r(0x08, "fmul.d fa5,fa5,fa4")
            r(0x0c, "fmadd.d fa4,fa5,fa5,fa4")
            r(0x10, "fsd fa5,0(a6)", arr_b + 8 * ((i * 3) % 200))
            r(0x14, "bne a0,a1,-16")
        r(0x18, "fdiv.d fa0,fa0,fa1")
        n2 = 10 + rnd.randrange(40)
        for i in range(n2):
            r(0x1c, "ld a3,0(a7)", region_c + 64 * rnd.randrange(48) + 8 * rnd.randrange(8))
            r(0x20, "sd a3,8(sp)", stack + 8)
            r(0x24, "fsqrt.d fa0,fa0")
            r(0x28, "bne a0,a1,-12")
        r(0x2c, "bne a2,a4,-44")
    r(0x30, "fadd.d fa1,fa1,fa0")
    r(0x34, "sw a0,4(a1)", arr_a + 60)  # an access that stays in a line
    with open(path, "w") as f:
        for pc, text, addr in recs:
            f.write(f"0;{pc:#x};{text}" + (f";{addr:#x}" if addr is not None else "") + "\n")
    return recs


def naive_reference(recs, lines_cached):
    """Loops, rows and LRU traffic straight from their definitions, keeping the whole stream."""
    loops = {}  # head -> [end, back edges]
    for i, (pc, text, _) in enumerate(recs):
        m = re.match(r"(bne|beq|blt|bge|j)\b.*?(-?\d+)$", text)
        if m and int(m.group(2)) <= 0 and i + 1 < len(recs) and recs[i + 1][0] == pc + int(m.group(2)):
            head = pc + int(m.group(2))
            e = loops.setdefault(head, [pc, 0])
            e[0] = max(e[0], pc)
            e[1] += 1

    def innermost(pc):
        best = None
        for head, (end, _) in loops.items():
            if head <= pc <= end and (best is None or end - head < loops[best][0] - best
                                      or (end - head == loops[best][0] - best and head > best)):
                best = head
        return best
    rows = {}

    def row(key):
        return rows.setdefault(key, {"instructions": 0, "add": 0, "mul": 0, "fma": 0, "div": 0, "sqrt": 0,
                                     "loads": 0, "stores": 0, "stack_stores": 0, "reads": 0, "writebacks": 0,
                                     "iterations": 0})
    lru = []  # [line, dirty, owner row], most recent first
    for pc, text, addr in recs:
        key = innermost(pc)
        x = row(key)
        x["instructions"] += 1
        if key is not None and pc == key:
            x["iterations"] += 1
        mn = text.split()[0]
        kind = next((k for p, k in FP_KIND if mn.startswith(p)), None)
        if kind:
            x[kind] += 1
        if addr is None:
            continue
        store = mn in ("sd", "fsd", "sw")
        size = 4 if mn == "sw" else 8
        x["stores" if store else "loads"] += 1
        x["stack_stores"] += store and "(sp)" in text
        for line in range(addr >> 6, ((addr + size - 1) >> 6) + 1):
            hit = next((e for e in lru if e[0] == line), None)
            if hit:
                lru.remove(hit)
            else:
                x["reads"] += 1
                hit = [line, False, None]
                if len(lru) == lines_cached:
                    victim = lru.pop()
                    if victim[1]:
                        row(victim[2])["writebacks"] += 1
            if store:
                hit[1], hit[2] = True, key
            lru.insert(0, hit)
    return loops, rows


def test_synthetic():
    with tempfile.TemporaryDirectory() as d:
        machine = small_machine(d)
        for seed in range(6):
            trace = os.path.join(d, f"s{seed}.txt")
            recs = synthetic_trace(trace, seed)
            csv_path = os.path.join(d, "s.csv")
            p = edan("analyze", "--json", "--projection", "--machine=" + machine, "--projection-cache=64,512,2K,8K",
                     "--projection-csv=" + csv_path, trace)
            check(p.returncode == 0, f"synthetic {seed}: {p.stderr}")
            r = json.loads(p.stdout)
            validate_schema(r, f"synthetic {seed}")
            pr = r["projection"]
            loops, rows = naive_reference(recs, 32)
            what = f"synthetic trace {seed}"
            check(pr["functions"] is None, f"{what}: no symbols, no functions")
            got = {l["head"]: l for l in pr["loops"]}
            check(sorted(got) == sorted(loops), f"{what}: loops {sorted(got)}, the reference {sorted(loops)}")
            for head, (end, back) in loops.items():
                l = got.get(head, {})
                check(l.get("end") == end and l.get("back_edges") == back,
                      f"{what}: loop at {head:#x}: end {l.get('end')}, back edges {l.get('back_edges')}; "
                      f"reference {end:#x}, {back}")
            for key, want in rows.items():
                have = pr["outside_loops"] if key is None else got.get(key)
                if have is None:
                    check(False, f"{what}: no row for {key}")
                    continue
                mine = {"instructions": have["instructions"], "loads": have["loads"], "stores": have["stores"],
                        "stack_stores": have["stack"]["stores"], "reads": have["dram_read_bytes"] // 64,
                        "writebacks": have["dram_write_bytes"] // 64, **{k: have["fp"][k] for k in FLOPS}}
                if key is not None:
                    mine["iterations"] = have["iterations"]
                else:
                    want = dict(want, iterations=0)
                    mine["iterations"] = 0
                check(mine == want, f"{what}: the row of {key and hex(key)}: {mine}, the reference {want}")
            # the sweep's traffic at other sizes, per loop, against the reference at those sizes
            with open(csv_path) as f:
                table = list(csv.DictReader(f))
            for cache in (64, 512, 2048, 8192):
                _, ref = naive_reference(recs, cache // 64)
                for line in table:
                    if int(line["cache_bytes"]) != cache or line["procedure"] == "Total/Max":
                        continue
                    key = None if line["procedure"] == "(outside loops)" else \
                        next(l["head"] for l in pr["loops"] if l["id"] == int(line["loop"]))
                    want = (ref[key]["reads"] + ref[key]["writebacks"]) * 64
                    check(math.isclose(float(line["traffic_gb"]) * 1e9, want, rel_tol=1e-5, abs_tol=1e-3),
                          f"{what}: {cache} B, the row of {key and hex(key)}: {line['traffic_gb']} GB, "
                          f"the reference {want} bytes")


# ===================================================================== #
# The sweep                                                              #
# ===================================================================== #

def test_sweep():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "sweep.csv")
        opts = ["--projection-cache=4K..64K", "--projection-bandwidth=4,16", "--projection-peak=1,8",
                "--projection-cores=1..4", "--projection-div=20,48", "--projection-transcendental=125",
                "--projection-csv=" + out, "--plot-dir=" + d]
        p = edan("run", "--json", "--filter=kernel", "--projection", "--machine=" + GEM5, *opts,
                 os.path.join(EX, "logistic"), "300")
        check(p.returncode == 0, f"sweep: {p.stderr}")
        pr = json.loads(p.stdout.strip().splitlines()[-1])["projection"]
        with open(out) as f:
            table = list(csv.DictReader(f))
        configs = 5 * 2 * 2 * 3 * 2
        rows = len(pr["loops"]) + 2
        check(len(table) == configs * rows and int(table[-1]["configuration"]) == configs,
              f"sweep: {len(table)} rows, expected {configs} x {rows}")
        curve = dict(zip(pr["traffic_curve"]["cache_bytes"],
                         (r + w for r, w in zip(pr["traffic_curve"]["read_bytes"], pr["traffic_curve"]["write_bytes"]))))
        by_config = {}
        for line in table:
            by_config.setdefault(line["configuration"], []).append(line)
        for cfg, lines in by_config.items():
            total = lines[-1]
            parts = lines[:-1]
            v = {k: float(total[k]) for k in ("cache_bytes", "bandwidth_gbs_per_core", "peak_gflops_per_core",
                                               "cores", "div_weight", "sqrt_weight", "transcendental_weight")}
            check(total["procedure"] == "Total/Max", f"config {cfg}: the totals last")
            check(math.isclose(sum(float(x["time_ms"]) for x in parts), float(total["time_ms"]), rel_tol=1e-4),
                  f"config {cfg}: the total time is the sum of the loops'")
            # the region's traffic at that cache: the curve's (the sum of the rows)
            want = curve.get(v["cache_bytes"], list(curve.values())[-1])
            check(math.isclose(float(total["traffic_gb"]) * 1e9, want, rel_tol=1e-5), f"config {cfg}: traffic")
            # each loop's time from the JSON's counts with the configuration's numbers
            for x in parts:
                row = pr["outside_loops"] if x["loop"] == "" else next(l for l in pr["loops"] if l["id"] == int(x["loop"]))
                fp = row["fp"]
                w = (fp["add"] + fp["mul"] + 2 * fp["fma"] + v["div_weight"] * fp["div"]
                     + v["sqrt_weight"] * (fp["sqrt"] + row["sqrt_calls"])
                     + v["transcendental_weight"] * row["transcendentals"])
                tc = w / (v["peak_gflops_per_core"] * 1e9 * v["cores"])
                td = float(x["traffic_gb"]) * 1e9 / (v["bandwidth_gbs_per_core"] * 1e9 * v["cores"])
                check(math.isclose(float(x["weighted_gflop"]) * 1e9, w, rel_tol=1e-5, abs_tol=1e-3)
                      and math.isclose(float(x["time_ms"]), max(tc, td) * 1e3, rel_tol=1e-4, abs_tol=1e-12)
                      and x["bound"] == ("compute" if tc > td else "memory"),
                      f"config {cfg}, loop {x['loop']}: {x}")
        for kind in ("roofline", "projection-cache", "projection-bandwidth"):
            for ext in ("dat", "gp", "png", "svg"):
                path = os.path.join(d, f"logistic-{kind}.{ext}")
                check(os.path.exists(path) and os.path.getsize(path) > 0, f"plot {path}")
        # the text report and ExaSAT's Table 1
        p = edan("run", "--filter=kernel", "--projection", "--machine=" + GEM5, os.path.join(EX, "trsv"), "50")
        check(p.returncode == 0 and "projection on machine gem5-validation" in p.stdout
              and "loop (by time)" in p.stdout and "trsv.c:" in p.stdout, f"the text report: {p.stderr}")
        p = edan("run", "--filter=kernel", "--table", "--projection", "--machine=" + GEM5, os.path.join(EX, "trsv"), "50")
        check(p.returncode == 0 and "ExaSAT's Table 1" in p.stdout and "Total/Max" in p.stdout, "the table")


# ===================================================================== #
# Options                                                                #
# ===================================================================== #

def test_options():
    chase = os.path.join(EX, "pointer_chase")
    with open(GEM5) as f:
        good = f.read()

    def line_of(needle):
        return good[:good.index(needle)].count("\n") + 1
    cases = [
        (lambda t: t.replace("cores = 1 ", "cores = 1\nthreads = 4 "), "[projection]: unknown key 'threads'",
         line_of("cores = 1") + 1),
        (lambda t: t.replace("div_weight = 48", "div_weight = 0.5"), "div_weight = '0.5'", line_of("div_weight")),
        (lambda t: t.replace("peak_gflops = 8", "peak_gflops = fast"), "peak_gflops = 'fast'", line_of("peak_gflops")),
        (lambda t: t.replace("cores = 1 ", "cores = 0 "), "cores = '0'", line_of("cores = 1")),
        (lambda t: t.replace("sqrt_weight = 96", "#"), "[projection] sqrt_weight is missing", None),
        (lambda t: t.replace("[projection]", "[projektion]"), "unknown section [projektion]", line_of("[projection]") + 1),
    ]
    with tempfile.TemporaryDirectory() as d:
        for i, (change, needle, line) in enumerate(cases):
            bad = os.path.join(d, f"bad{i}.ini")
            with open(bad, "w") as f:
                f.write(change(good))
            p = edan("run", "--projection", "--machine=" + bad, "--filter=kernel", chase, "5", expect=None)
            msg = p.stderr.strip()
            where = f"{bad}:{line}:" if line else bad
            check(p.returncode == 2 and needle in msg and where in msg,
                  f"bad machine file {i}: exit {p.returncode}, {msg!r} (expected {where} ... {needle})")
    for opt, needle in (("--projection-cache=3K", "--projection-cache"), ("--projection-cache=32", "line"),
                        ("--projection-bandwidth=0", "--projection-bandwidth"),
                        ("--projection-cores=1.5", "--projection-cores"),
                        ("--projection-div=0.5", "--projection-div"),
                        ("--projection-peak=8..1", "--projection-peak"),
                        ("--projection-cache=64..1G", "configurations")):
        extra = ["--projection-bandwidth=1..512", "--projection-peak=1..512", "--projection-cores=1..512",
                 "--projection-div=1..512", "--projection-transcendental=1..512"] \
            if "configurations" in needle else []
        p = edan("run", "--projection", "--machine=" + GEM5, opt, *extra, "--filter=kernel", chase, "5", expect=None)
        check(p.returncode == 2 and needle in p.stderr, f"{opt}: exit {p.returncode}: {p.stderr.strip()}")
    p = edan("run", "--projection", "--filter=kernel", chase, "5", expect=None)
    check(p.returncode == 2 and "--projection needs --machine" in p.stderr, f"no machine: {p.stderr.strip()}")
    # the timing model runs beside the projection only when --mem-latency asks for it
    r = online("pointer_chase", 50, "--projection", "--machine=" + GEM5)
    check("prediction" not in r and r["projection"]["prediction"] is None, "no timing model without --mem-latency")
    r = online("pointer_chase", 50, "--projection", "--machine=" + GEM5, "--mem-latency=50,100")
    check("prediction" in r and r["projection"]["prediction"]["seconds"] == r["prediction"]["seconds"],
          "the timing model's prediction beside the bounds")
    check(len(r["projection"]["lambda"]) == 1 and r["projection"]["lambda"][0]["W"] == r["configurations"][0]["W"],
          "lambda beside the bounds")


run_category({"flops": test_flops, "traffic": test_traffic, "synthetic": test_synthetic, "sweep": test_sweep,
              "options": test_options})
