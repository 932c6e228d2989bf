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
  regions    per memory region (each data object of the program, its other static data, the stack, the
             heap): loads, stores, bytes, read/write ratio, lines, working set and DRAM traffic against a
             naive reference from the trace's text and the program's symbol table (readelf), on
             pseudo-random access orders of examples/regions; what its source says it accesses; the CSV
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
    # an array written once and never evicted: its write traffic is the final flush, under both traffic sources
    n = 3000  # stream's a[]: 24000 bytes, far below the 256 KiB of the machine's L2
    for opts in ((), ("--cache=machine",), ("--cache=" + assoc(262144),)):
        p = projection("stream", n, *opts)
        lines_a = (8 * n + 63) // 64
        check(lines_a <= p["dram_write_bytes"] // 64 <= lines_a + 1
              and p["dirty_at_end_bytes"] == p["dram_write_bytes"] and p["store_bytes"] == 8 * n,
              f"stream {n} {opts}: writes {p['dram_write_bytes']}, of them flushed {p['dirty_at_end_bytes']}; "
              f"a[] is {lines_a} lines")
        parts = sum(l["dirty_at_end_bytes"] for l in p["loops"]) + p["outside_loops"]["dirty_at_end_bytes"]
        check(parts == p["dirty_at_end_bytes"], f"stream {opts}: the flush partitioned among the loops")
        if opts:
            check(p["caches"][0]["dirty_at_end_bytes"] == p["dirty_at_end_bytes"], f"stream {opts}: caches[0]")


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
                                     "flushed": 0, "iterations": 0})
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
    for line, dirty, owner in lru:  # the final flush: lines still dirty are written, charged to their last store
        if dirty:
            row(owner)["flushed"] += 1
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
                        "writebacks": (have["dram_write_bytes"] - have["dirty_at_end_bytes"]) // 64,
                        "flushed": have["dirty_at_end_bytes"] // 64, **{k: have["fp"][k] for k in FLOPS}}
                if key is not None:
                    mine["iterations"] = have["iterations"]
                else:
                    want = dict(want, iterations=0)
                    mine["iterations"] = 0
                check(mine == want, f"{what}: the row of {key and hex(key)}: {mine}, the reference {want}")
            # the traffic below each level of the machine (L1d 16 lines, L2 32), the region's and per row
            for level, lines in zip(pr["levels"], (16, 32)):
                _, ref = naive_reference(recs, lines)
                want = [sum(x[k] for x in ref.values()) * 64 for k in ("reads", "writebacks", "flushed")]
                check([level["read_bytes"], level["write_bytes"] - level["dirty_at_end_bytes"],
                       level["dirty_at_end_bytes"]] == want and level["cache_bytes"] == 64 * lines,
                      f"{what}: below {level['name']}: {level}, the reference {want}")
            _, ref_l1 = naive_reference(recs, 16)
            with open(csv_path) as f:
                table = list(csv.DictReader(f))
            for line in table:
                if line["procedure"] == "Total/Max":
                    want = sum(x["reads"] + x["writebacks"] + x["flushed"] for x in ref_l1.values()) * 64
                else:
                    key = None if line["procedure"] == "(outside loops)" else \
                        next(l["head"] for l in pr["loops"] if l["id"] == int(line["loop"]))
                    want = (ref_l1[key]["reads"] + ref_l1[key]["writebacks"] + ref_l1[key]["flushed"]) * 64
                check(math.isclose(float(line["traffic_l1d_gb"]) * 1e9, want, rel_tol=1e-5, abs_tol=1e-3)
                      and line["traffic_l2_gb"] == line["traffic_gb"] and line["traffic_l3_gb"] == "",
                      f"{what}: the CSV's traffic below the L1d of {line['procedure']} {line['loop']}: "
                      f"{line['traffic_l1d_gb']} GB, the reference {want} bytes")
            # the sweep's traffic at other sizes, per loop, against the reference at those sizes
            for cache in (64, 512, 2048, 8192):
                _, ref = naive_reference(recs, cache // 64)
                for line in table:
                    if int(line["cache_bytes"]) != cache or line["procedure"] == "Total/Max":
                        continue
                    key = None if line["procedure"] == "(outside loops)" else \
                        next(l["head"] for l in pr["loops"] if l["id"] == int(line["loop"]))
                    want = (ref[key]["reads"] + ref[key]["writebacks"] + ref[key]["flushed"]) * 64
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
            for col in ("time_compute_ms", "time_memory_ms"):
                check(math.isclose(sum(float(x[col]) for x in parts), float(total[col]), rel_tol=1e-4, abs_tol=1e-9),
                      f"config {cfg}: the total's {col} is the sum of the loops'")
            mem = sum(float(x["time_ms"]) for x in parts if x["bound"] == "memory")
            check(total["bound"] == ("memory" if 2 * mem >= float(total["time_ms"]) * (1 - 1e-9) else "compute"),
                  f"config {cfg}: the total's bound is that of the larger share of the time: {total['bound']}")
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
                path = os.path.join(d, f"logistic-kernel-{kind}.{ext}")
                check(os.path.exists(path) and os.path.getsize(path) > 0, f"plot {path}")
        # one --projection-cache size: the report projects onto that cache, its traffic the curve's at that size
        one = edan("run", "--json", "--filter=kernel", "--projection", "--machine=" + GEM5, "--projection-cache=1K",
                   os.path.join(EX, "logistic"), "300")
        check(one.returncode == 0, f"--projection-cache=1K: {one.stderr}")
        p1 = json.loads(one.stdout.strip().splitlines()[-1])["projection"]
        check(p1["traffic"]["cache_bytes"] == 1024, f"the traffic's cache: {p1['traffic']}")
        check(p1["dram_read_bytes"] + p1["dram_write_bytes"] == curve[1024.0 if 1024.0 in curve else 1024],
              f"1K: {p1['dram_read_bytes']} + {p1['dram_write_bytes']} against the curve's {curve.get(1024)}")
        text = edan("run", "--filter=kernel", "--projection", "--machine=" + GEM5, "--projection-cache=1K",
                    os.path.join(EX, "logistic"), "300").stdout
        check("fully associative LRU of 1 KiB" in text, "the text names the cache of --projection-cache")
        # C++ loops: the procedure is the enclosing function, its signature's commas quoted
        cxx = os.path.join(d, "cxx.csv")
        p = edan("run", "--projection", "--machine=" + GEM5, "--projection-csv=" + cxx,
                 os.path.join(EX, "cxx_stencil"), "300", "3")
        check(p.returncode == 0, f"C++ sweep: {p.stderr}")
        with open(cxx, newline="") as f:
            table = list(csv.DictReader(f))
        loops = [x for x in table if x["loop"] != ""]
        check(loops and all(x["procedure"] not in ("", "?") for x in loops), "a procedure for every loop")
        check("grid::smooth(grid::Field&, int)" in {x["procedure"] for x in loops},
              f"the C++ signature whole: {sorted({x['procedure'] for x in loops})[:6]}")
        check(all(len(x) == len(table[0]) and None not in x for x in table), "every row has every column")
        # the text report and ExaSAT's Table 1
        p = edan("run", "--filter=kernel", "--projection", "--machine=" + GEM5, os.path.join(EX, "trsv"), "50")
        check(p.returncode == 0 and "projection on machine gem5-validation" in p.stdout
              and "loop (by time)" in p.stdout and "trsv.c:" in p.stdout, f"the text report: {p.stderr}")
        p = edan("run", "--filter=kernel", "--table", "--projection", "--machine=" + GEM5, os.path.join(EX, "trsv"), "50")
        check(p.returncode == 0 and "ExaSAT's Table 1" in p.stdout and "Total/Max" in p.stdout, "the table")


# ===================================================================== #
# Memory regions                                                         #
# ===================================================================== #

READELF = "riscv64-linux-gnu-readelf"
SIZES = {"lb": 1, "lbu": 1, "sb": 1, "lh": 2, "lhu": 2, "sh": 2, "lw": 4, "lwu": 4, "sw": 4, "flw": 4, "fsw": 4,
         "ld": 8, "sd": 8, "fld": 8, "fsd": 8}
STORES = ("sb", "sh", "sw", "sd", "fsw", "fsd")


def program_regions(binary):
    """The regions of docs/projection.md from readelf: objects (of aliases the largest, then a name without '_',
    then the first by name; one inside an earlier one dropped) and the loaded segments."""
    import subprocess
    syms = subprocess.run([READELF, "-sW", binary], capture_output=True, text=True, check=True).stdout
    objs = []
    for line in syms.splitlines():
        f = line.split()
        if len(f) == 8 and f[3] == "OBJECT" and f[6] != "UND":
            start, size = int(f[1], 16), int(f[2], 0)
            if start and size:
                objs.append((start, size, f[7]))
    by_start = {}
    for start, size, name in objs:
        by_start.setdefault(start, []).append((size, name))
    kept = []
    for start in sorted(by_start):
        size, name = min(by_start[start], key=lambda x: (-x[0], x[1].startswith("_"), x[1]))
        if kept and start < kept[-1][1]:
            continue
        kept.append((start, start + size, name))
    heads = subprocess.run([READELF, "-lW", binary], capture_output=True, text=True, check=True).stdout
    segs = [(int(f[2], 16), int(f[2], 16) + int(f[5], 16)) for f in (l.split() for l in heads.splitlines())
            if f and f[0] == "LOAD" and int(f[5], 16)]
    return kept, segs


def naive_regions(lines, objs, segs, cache_lines):
    """Per region, straight from the definitions over the whole stream: accesses, first touches, the largest
    stack distance of a reuse, LRU reads, write-backs and the final flush charged to the region of the store
    that made the line dirty."""
    import bisect
    starts = [o[0] for o in objs]
    stack = None

    def region(a):
        if stack and stack[0] <= a < stack[1]:
            return "(stack)"
        i = bisect.bisect_right(starts, a) - 1
        if i >= 0 and a < objs[i][1]:
            return objs[i][2]
        return "(static data)" if any(lo <= a < hi for lo, hi in segs) else "(heap)"
    rows = {}

    def row(name):
        return rows.setdefault(name, {"loads": 0, "stores": 0, "load_bytes": 0, "store_bytes": 0, "lines": 0,
                                      "block_accesses": 0, "max_bin": 0, "reads": 0, "writes": 0, "flushed": 0})
    recency = []  # every block, most recent first: stack distances
    lru = []  # [block, dirty, owner region], most recent first: the cache
    for text in lines:
        f = text.split(";")
        if len(f) < 3:
            continue
        dis, addr = f[1], int(f[2], 16)
        mn = dis.split()[0]
        size, store = SIZES[mn], mn in STORES
        if "(sp)" in dis:
            lo, hi = addr & ~4095, ((addr + size - 1) | 4095) + 1
            stack = (lo, hi) if stack is None else (min(stack[0], lo), max(stack[1], hi))
        x = row(region(addr))
        x["stores" if store else "loads"] += 1
        x["store_bytes" if store else "load_bytes"] += size
        for b in range(addr >> 6, ((addr + size - 1) >> 6) + 1):
            y = x if b == addr >> 6 else row(region(b << 6))
            y["block_accesses"] += 1
            if b in recency:
                d = recency.index(b)
                recency.remove(b)
                y["max_bin"] = max(y["max_bin"], d.bit_length())
            else:
                y["lines"] += 1
            recency.insert(0, b)
            hit = next((e for e in lru if e[0] == b), None)
            if hit:
                lru.remove(hit)
            else:
                y["reads"] += 1
                hit = [b, False, None]
                if len(lru) == cache_lines:
                    victim = lru.pop()
                    if victim[1]:
                        rows[victim[2]]["writes"] += 1
            if store:
                hit[1], hit[2] = True, region(b << 6) if b != addr >> 6 else region(addr)
            lru.insert(0, hit)
    for b, dirty, owner in lru:
        if dirty:
            rows[owner]["writes"] += 1
            rows[owner]["flushed"] += 1
    return rows


def test_regions():
    binary = os.path.join(EX, "regions")
    objs, segs = program_regions(binary)
    with tempfile.TemporaryDirectory() as d:
        machine = small_machine(d)  # 32 lines of 64 bytes
        for n in (40, 333, 1200):
            what = f"regions {n}"
            trace, text, table = (os.path.join(d, f"r{n}.{e}") for e in ("edt", "txt", "csv"))
            p = edan("record", "--filter=kernel", "-o", trace, binary, str(n))
            check(p.returncode == 0, f"record {what}: {p.stderr}")
            edan("convert", "--text", trace, text)
            p = edan("analyze", "--json", "--projection", "--machine=" + machine, "--projection-regions-csv=" + table,
                     trace)
            check(p.returncode == 0, f"analyze {what}: {p.stderr}")
            r = json.loads(p.stdout)
            validate_schema(r, what)
            pr = r["projection"]
            with open(text) as f:
                ref = naive_regions(f.read().splitlines(), objs, segs, 32)
            got = {g["name"]: g for g in pr["regions"]}
            check(sorted(got) == sorted(ref), f"{what}: regions {sorted(got)}, the reference {sorted(ref)}")
            for name, want in ref.items():
                g = got.get(name)
                if not g:
                    continue
                mine = {k: g[k] for k in ("loads", "stores", "load_bytes", "store_bytes", "lines", "block_accesses")}
                mine.update(reads=g["dram_read_bytes"] // 64, writes=g["dram_write_bytes"] // 64,
                            flushed=g["dirty_at_end_bytes"] // 64, max_bin=round(math.log2(g["working_set_bytes"] // 64)))
                check(mine == want, f"{what}: region {name}: {mine}, the reference {want}")
                ratio = want["load_bytes"] / want["store_bytes"] if want["store_bytes"] else None
                check(g["read_write_ratio"] == ratio and g["dram_bytes"] == g["dram_read_bytes"] + g["dram_write_bytes"],
                      f"{what}: region {name}: ratio {g['read_write_ratio']}, the reference {ratio}")
                obj = next((o for o in objs if o[2] == name), None)
                check((g["kind"] == "object" and (g["start"], g["end"]) == obj[:2]) if obj else g["start"] is None,
                      f"{what}: region {name}: {g['kind']} [{g['start']}, {g['end']})")
            # the regions partition the accesses and the traffic
            for key, total in (("loads", pr["loads"]), ("stores", pr["stores"]), ("dram_bytes", pr["dram_bytes"]),
                               ("dirty_at_end_bytes", pr["dirty_at_end_bytes"])):
                check(sum(g[key] for g in pr["regions"]) == total, f"{what}: the regions' {key} sum to the region's")
            check([g["dram_bytes"] for g in pr["regions"]] == sorted((g["dram_bytes"] for g in pr["regions"]),
                                                                      reverse=True), f"{what}: most DRAM bytes first")
            # what the source says: x (heap), coef, hist and out read 4n times in all, hist and out written n times
            src = ("(heap)", "coef", "hist", "out")
            loads = sum(got.get(name, {}).get("loads", 0) for name in src)
            stores = [got.get(name, {}).get("stores") for name in src]
            check(loads == 4 * n and stores == [0, 0, n, n] and min(got[name]["loads"] for name in src) > 0,
                  f"{what}: x, coef, hist, out: {loads} loads, stores {stores}; the source {4 * n}, [0, 0, {n}, {n}]")
            check(got["(stack)"]["loads"] >= n and got["(stack)"]["stores"] >= n, f"{what}: buf[] is on the stack")
            # the CSV says what the JSON says
            with open(table) as f:
                rows = list(csv.DictReader(f))
            check([x["region"] for x in rows] == [g["name"] for g in pr["regions"]], f"{what}: the CSV's regions")
            for x, g in zip(rows, pr["regions"]):
                for key in ("loads", "stores", "load_bytes", "store_bytes", "lines", "working_set_bytes",
                            "dram_read_bytes", "dram_write_bytes", "dirty_at_end_bytes", "dram_bytes"):
                    check(int(x[key]) == g[key], f"{what}: CSV {x['region']} {key}: {x[key]} vs {g[key]}")
        # under the cache model (--cache=machine) the regions partition its traffic, flush included
        p = projection("regions", 500, "--cache=machine")
        for key in ("dram_read_bytes", "dram_write_bytes", "dirty_at_end_bytes"):
            check(sum(g[key] for g in p["regions"]) == p[key] == p["caches"][0][key] if key != "dram_read_bytes"
                  else sum(g[key] for g in p["regions"]) == p[key], f"--cache=machine: the regions' {key}")
        check(p["dirty_at_end_bytes"] > 0, "--cache=machine: out[] is flushed at the end")
        # text report; without a program (a text trace) the regions are the stack and the rest
        p = edan("run", "--filter=kernel", "--projection", "--machine=" + GEM5, binary, "100")
        check(p.returncode == 0 and "region (by DRAM bytes)" in p.stdout and "\n  out " in p.stdout,
              f"the text report's regions: {p.stdout[-600:]}")
        text = os.path.join(d, "r40.txt")
        p = edan("analyze", "--json", "--projection", "--machine=" + GEM5, text)
        names = sorted(g["name"] for g in json.loads(p.stdout)["projection"]["regions"])
        check(names == ["(not stack)", "(stack)"], f"a text trace's regions: {names}")


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
    for opt in ("--projection-regions-csv", "--projection-csv"):
        p = edan("run", "--projection", "--machine=" + GEM5, opt + "=/nonexistent/x.csv", "--filter=kernel", chase, "5",
                 expect=None)
        check(p.returncode == 2 and "/nonexistent/x.csv: cannot write" in p.stderr, f"{opt}: {p.stderr.strip()}")
    # the timing model runs beside the projection only when --mem-latency asks for it
    r = online("pointer_chase", 50, "--projection", "--machine=" + GEM5)
    check("prediction" not in r and r["projection"]["prediction"] is None, "no timing model without --mem-latency")
    r = online("pointer_chase", 50, "--projection", "--machine=" + GEM5, "--mem-latency=50,100")
    check("prediction" in r and r["projection"]["prediction"]["seconds"] == r["prediction"]["seconds"],
          "the timing model's prediction beside the bounds")
    check(len(r["projection"]["lambda"]) == 1 and r["projection"]["lambda"][0]["W"] == r["configurations"][0]["W"],
          "lambda beside the bounds")
    test_model_time()


def test_model_time():
    """The timing model's time per loop and function: its attribution per static instruction, summed. And
    lambda per function: the per-function breakdown's, for the functions it names, null for the others."""
    for extra in (["--functions=kernel,main"], ["--per-function"]):
        p = edan("run", "--json", "--projection", "--machine=" + GEM5, *extra, os.path.join(EX, "spmv"), "200")
        check(p.returncode == 0, p.stderr)
        r = json.loads(p.stdout.strip().splitlines()[-1])
        validate_schema(r, f"--projection {extra}")
        mine = {f["name"]: f["lambda"] for f in r["projection"]["functions"]}
        theirs = {f["name"]: {"exclusive": f["exclusive"]["lambda"], "inclusive": f["inclusive"]["lambda"]}
                  for f in r["functions"]}
        check(all(mine.get(n) == l for n, l in theirs.items()) and "kernel" in theirs
              and all(l is None for n, l in mine.items() if n not in theirs),
              f"lambda per function {extra}: {mine} against the breakdown's {theirs}")
    r = online("spmv", 200, "--projection", "--machine=" + GEM5)
    check(all(f["lambda"] is None for f in r["projection"]["functions"]), "no lambda per function without a breakdown")
    r = online("pointer_chase", 50, "--projection", "--machine=" + GEM5)
    check(r["projection"]["model_time"] is None and r["projection"]["loops"][0]["model_time"] is None,
          "no model time without --mem-latency")
    for prog, n in (("matmul", 10), ("logistic", 60), ("spmv", 200)):
        r = online(prog, n, "--projection", "--machine=" + GEM5, "--mem-latency=50,100,300")
        validate_schema(r, f"{prog} --mem-latency")
        p, pred = r["projection"], r["prediction"]
        what = f"{prog} {n}"
        for k, sec in enumerate(pred["seconds"]):
            parts = sum(l["model_time"]["seconds"][k] for l in p["loops"]) + p["outside_loops"]["model_time"]["seconds"][k]
            funcs = sum(f["model_time"]["seconds"][k] for f in p["functions"])
            check(math.isclose(p["model_time"]["seconds"][k], sec, rel_tol=1e-9)
                  and math.isclose(parts, sec, rel_tol=1e-9) and math.isclose(funcs, sec, rel_tol=1e-9),
                  f"{what}: lane {k}: the region {p['model_time']['seconds'][k]}, loops {parts}, functions {funcs}; "
                  f"the timing model {sec}")
        # the timing tool's own per-function rows: the same cycles, what ran in libm calls moved to the caller
        mine = {f["name"]: f["model_time"]["cycles"] for f in p["functions"]}
        theirs = {f["name"]: f["cycles"] for f in pred["functions"]}
        libm = [name for name in theirs if name not in mine]
        for name, cycles in mine.items():
            want = [c + (sum(theirs[m][k] for m in libm) if name == "kernel" else 0) for k, c in enumerate(theirs[name])]
            check(all(math.isclose(a, b, rel_tol=1e-9) for a, b in zip(cycles, want)),
                  f"{what}: {name}: {cycles}, the timing tool's {theirs[name]} (+ libm's {libm})")
        check((prog == "logistic") == bool(libm), f"{what}: libm functions {libm}")
    # exp called from first (n calls) and second (2n): every call runs the same instructions, so each of
    # exp's instructions goes a third to first's row and two thirds to second's
    r = online("libm_sites", 40, "--projection", "--machine=" + GEM5, "--mem-latency=50,200")
    mine = {f["name"]: f["model_time"]["cycles"] for f in r["projection"]["functions"]}
    theirs = {f["name"]: f["cycles"] for f in r["prediction"]["functions"]}
    libm = [name for name in theirs if name not in mine]
    for k in range(2):
        e = sum(theirs[m][k] for m in libm)
        want = {"kernel": theirs["kernel"][k], "first": theirs["first"][k] + e / 3,
                "second": theirs["second"][k] + 2 * e / 3}
        check(libm and e > 0 and all(math.isclose(mine[f][k], w, rel_tol=1e-9) for f, w in want.items()),
              f"libm_sites, lane {k}: {mine}, the prediction's {theirs}; exp's split 1:2 expected")
    p = edan("run", "--filter=kernel", "--projection", "--machine=" + GEM5, "--mem-latency=80",
             os.path.join(EX, "trsv"), "30")
    check(p.returncode == 0 and "model s" in p.stdout, "the text report's model column")


run_category({"flops": test_flops, "traffic": test_traffic, "synthetic": test_synthetic, "sweep": test_sweep,
              "regions": test_regions, "options": test_options})
