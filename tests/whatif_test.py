#!/usr/bin/env python3
"""The projection's what-ifs (--what-if, issue 41) on real runs of examples/stencils under qemu-riscv64:

  affine    the access functions of each stencil's nest (base, strides, trip counts) generate exactly the
            addresses `edan record --text` shows for the function, apart from the accesses outside loops
            (a naive reference from the whole text trace); replayed as it ran, the nests' traffic equals the
            measured traffic of the run within 1 % (and the accesses outside loops); ExaSAT's register model
            of each body (registers named, accesses spilled per iteration at 8, 16 and 32 registers)
            against a count of the registers in objdump's listing of the loop; spmv's gather is non-affine
            and gets no projection
  blocking  the 7-point and 27-point 3-D stencils blocked in j and i (levels 2,3) and the 5-point 2-D one
            blocked in j (level 2), tiles 4, 8, 16, 32, caches 8 to 64 KiB: the predicted traffic of each
            tile within 10 % of the projection's measured traffic of the hand-blocked function
            (stX_blocked with that tile), the predicted best tile per cache the measured best; the CSV
            and the plot of projected time against tile size against the JSON; the instructions the tiling
            adds recomputed from the loops' rows, and their change from tile 32 to 4 within 20 % of the
            hand-blocked builds'
  siblings  nests of several inner loops: stencils_pc (stencils.c at -O3 with predictive commoning: the 7-point
            and 5-point stencils' inner loop unrolled by two with loads before it and a remainder loop after it), the
            nests replayed as trees; replayed as they ran, their traffic equals the measured traffic; blocked as
            in `blocking` against the hand-blocked functions of the same build, every tile within 10 %, best tiles
            equal
  varying   sibling inner loops whose trip counts vary: sib5 (a row's stencil and a loop over j <= i), replayed as
            a tree with the second loop's bound, as run against the measured traffic, blocked in j against
            sib5_blocked (every tile within 10 %, best tiles equal); sib_ragged (GCC's code runs in some rows only) and
            tri5 in stencils_pc (a remainder loop after a varying unrolled loop) reported non-affine with their share
  triangular  non-rectangular nests: the bounds of trsv's and trmm's triangular loops (j < i) recovered as affine
            functions of the outer counters (their innermost points summed from the bounds equal the loop's
            iterations; the replay as run equals the measured traffic); tri5 (the 5-point stencil on the lower
            triangle) blocked in j against tri5_blocked, every tile within 10 %, best tiles equal; ragged (trip
            counts (7 i) mod 11 + 1) reported non-rectangular with its share of the region's accesses, no rows
  fusion    two loops fused: the predicted traffic saved within 10 % of the measured saving (two_loops
            against the hand-fused `fused`) at three cache sizes; two nests of several inner loops (pair5 in
            stencils_pc, replayed as trees) against pair5_fused of the same build at four, and as chains; pipe's
            fusion of trees refused (a flow dependence); each pair of unfusable's nests not fused, with its reason
  halo      two 5-point stencils in a row (pipe) in the all-loops-per-block scheme, blocked in i and j (tiles 4
            to 32, caches 8 to 64 KiB): the redundant iterations against the points the hand-blocked pipe_blocked
            (tmp recomputed on a ring of 1 around each block) computes beyond pipe's, the predicted weighted flops
            equal to pipe_blocked's measured ones, the predicted traffic within 10 % of its measured traffic; the
            hand-blocked version computes the same checksum
  depend    dependences: the plans called illegal change the results of the hand-transformed code (its checksum
            differs from the original's: pipe fused, sweep blocked in j), those called legal keep them (two_loops
            fused, st5 and pipe blocked, sweep blocked in i); illegal rows name the dependence and carry no traffic,
            in text, JSON and CSV
  options   bad --what-if, --what-if-tiles and --what-if-registers values, --what-if-tiles without --what-if,
            an unwritable CSV

The categories on the timing model and on native times are in whatif_machine_test.py.

usage: whatif_test.py BUILD_DIR CATEGORY
"""
import collections
import json
import os
import re
import subprocess
import tempfile

from realrun_lib import EX, check, edan, run_category, validate_schema
from whatif_lib import (CACHES, GEM5, STENCIL_NESTS, STENCILS, STENCILS_PC, TILES, check_tiles, check_unblocked,
                         measured, projection, read_csv)


# ===================================================================== #
# Access functions against the text trace                               #
# ===================================================================== #

def points(trips):
    """Every iteration vector of a rectangular nest, in order."""
    if not trips:
        yield ()
        return
    for i in range(trips[0]):
        for rest in points(trips[1:]):
            yield (i,) + rest


XREG = ["zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
        "a7"] + [f"s{i}" for i in range(2, 12)] + ["t3", "t4", "t5", "t6"]
FREG = [f"ft{i}" for i in range(8)] + ["fs0", "fs1"] + [f"fa{i}" for i in range(8)] + \
    [f"fs{i}" for i in range(2, 12)] + [f"ft{i}" for i in range(8, 12)]


def naive_registers(binary, head, end, counts):
    """ExaSAT's register model of a straight-line loop body from objdump: each instruction in [head, end]
    runs once per iteration and accesses each register it names once."""
    p = subprocess.run(["riscv64-linux-gnu-objdump", "-d", "--no-show-raw-insn", f"--start-address={head}",
                        f"--stop-address={end + 4}", binary], capture_output=True, text=True)
    refs = collections.Counter()
    for line in p.stdout.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*([^#<]*)", line)
        if not m or int(m.group(1), 16) > end:
            continue
        for reg in set(re.findall(r"[a-z][a-z0-9]*", m.group(3))):
            if reg in FREG:
                refs[("fp", reg)] += 1
            elif reg in XREG and reg != "zero":
                refs[("int", reg)] += 1
    out = {"int_used": sum(1 for c, _ in refs if c == "int"), "fp_used": sum(1 for c, _ in refs if c == "fp")}
    for cls in ("int", "fp"):
        v = sorted((n for (c, _), n in refs.items() if c == cls), reverse=True)
        out[cls + "_spilled_per_iteration"] = [sum(v[r:]) for r in counts]
    return out


def test_affine():
    for kernel, n, levels in (("st5", 12, "2"), ("st7", 8, "2,3"), ("st27", 7, "2,3"), ("two_loops", 50, "1")):
        r = projection(kernel, n, opts=("--what-if=block:" + levels, "--projection-cache=4K"))
        w = r["what_if"]
        check(w["complete"] and all(x["replayed"] for x in w["nests"]), f"{kernel}: every nest affine: {w['nests']}")
        gen = collections.Counter()
        for nest in w["nests"]:
            trips = nest["trips"]
            for ins in nest["instructions"]:
                d = len(ins["strides"])
                for i in points(trips):
                    if any(i[k] for k in range(d, len(trips))):
                        continue  # an outer level's instruction runs where the deeper counters are 0
                    addr = ins["base"] + sum(s * x for s, x in zip(ins["strides"], i))
                    gen[(addr, ins["store"])] += 1
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.txt")
            p = edan("record", "--text", "--filter=" + kernel, "-o", path, STENCILS, kernel, str(n))
            check(p.returncode == 0, f"record {kernel}: {p.stderr}")
            with open(path) as f:
                lines = [x for x in f.read().splitlines() if not x.startswith("#")]
        text = collections.Counter()
        for line in lines:
            parts = line.split(";")
            if len(parts) < 3:
                continue
            mn = parts[1].split()[0]
            store = mn in ("sb", "sh", "sw", "sd", "fsw", "fsd")
            text[(int(parts[2], 16), store)] += 1
        outside = r["outside_loops"]["loads"] + r["outside_loops"]["stores"]
        extra = text - gen
        check(not (gen - text), f"{kernel}: the access functions make addresses the trace lacks: "
              f"{list((gen - text).items())[:5]}")
        check(sum(extra.values()) == outside, f"{kernel}: the trace's accesses beyond the functions' "
              f"{sum(extra.values())}, outside loops {outside}")
        # the register model of each body (straight-line: one basic block) against objdump's listing
        loops = {x["id"]: x for x in r["loops"]}
        for nest in w["nests"]:
            g = nest["registers"]
            body = loops[g["body_loop"]]
            want = naive_registers(STENCILS, body["head"], body["end"], g["register_counts"])
            have = {k: g[k] for k in want}
            check(have == want and g["memory_state"] == 0 and g["stack_per_iteration"] == 0,
                  f"{kernel}: registers of loop {g['body_loop']}: {have}, objdump's {want}")
        row = r["what_if"]["rows"][0]
        # the accesses outside loops (saved registers) are not replayed: at most a line read and written each
        check(abs(row["as_run_dram_bytes"] - row["measured_dram_bytes"]) <= 0.01 * row["measured_dram_bytes"] +
              128 * outside, f"{kernel}: replayed as it ran {row['as_run_dram_bytes']}, measured {row['measured_dram_bytes']}")
    # an indirect gather: non-affine, reported as such, no projection made up
    p = edan("run", "--json", "--filter=kernel", "--projection", "--machine=" + GEM5, "--what-if=block:1",
             os.path.join(EX, "spmv"), "300")
    check(p.returncode == 0, f"spmv: {p.stderr}")
    w = json.loads(p.stdout.strip().splitlines()[-1])["projection"]["what_if"]
    gather = [x for x in w["nests"] if x["nonaffine_accesses"]]
    check(gather and all(not x["replayed"] and x["reason"] == "non-affine accesses" for x in gather),
          f"spmv: the gather's nest not replayed: {[(x['loops'], x['reason']) for x in w['nests']]}")
    for x in w["nests"]:
        bad = sum(i["accesses"] for i in x["instructions"] if not i["affine"])
        check(x["nonaffine_accesses"] == bad and x["accesses"] == sum(i["accesses"] for i in x["instructions"]),
              f"spmv: non-affine accesses {x['nonaffine_accesses']} = {bad}")
    check(not w["complete"] and not w["rows"], f"spmv: no rows from non-affine nests: {w['rows'][:2]}")
    p = edan("run", "--filter=kernel", "--projection", "--machine=" + GEM5, "--what-if=block:1",
             os.path.join(EX, "spmv"), "300")
    check("not replayed: non-affine accesses" in p.stdout and "no nest to transform" in p.stdout,
          f"spmv text: {p.stdout[-600:]}")


# ===================================================================== #
# Blocking                                                               #
# ===================================================================== #

def naive_added(nest, loops, blocked, t):
    """The instructions tile t adds to nest (docs/projection.md): a level's loop runs again for each tile of a
    deeper blocked level, and the tile loops iterate at their level's instructions per iteration."""
    trips = nest["trips"]
    tiles = [(tr + t - 1) // t if k + 1 in blocked and t < tr else 1 for k, tr in enumerate(trips)]
    added, runs = 0.0, nest["entries"]
    for k in range(len(trips)):
        row = loops[nest["loops"][k]]
        again = 1
        for x in tiles[k + 1:]:
            again *= x
        added += (again - 1) * row["instructions"]
        runs *= tiles[k]
        if tiles[k] > 1:
            added += runs * row["instructions"] / row["iterations"]
    return added


def test_blocking():
    worst = 0.0
    for kernel, n, levels in STENCIL_NESTS:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "w.csv")
            r = projection(kernel, n, opts=("--what-if=block:" + levels, "--what-if-tiles=" +
                                            ",".join(map(str, TILES)), "--projection-cache=" +
                                            ",".join(map(str, CACHES)), "--what-if-csv=" + path,
                                            "--plot-dir=" + d))
            rows, as_run = read_csv(path)
            plot = [x for x in os.listdir(d) if x.endswith("-what-if-tiles.dat")]
            check(len(plot) == 1 and all(os.path.getsize(os.path.join(d, plot[0][:-3] + e)) > 0
                                         for e in ("dat", "gp", "png", "svg")), f"{kernel}: the plot {plot}")
            with open(os.path.join(d, plot[0])) as f:
                dat = [list(map(float, x.split())) for x in f if not x.startswith("#")]
        w = r["what_if"]
        want = [[t] + [next(x["time_s"] for x in w["rows"] if x["tile"] == t and x["cache_bytes"] == c)
                       for c in CACHES] for t in TILES]
        check(len(dat) == len(want) and all(abs(a - b) <= 1e-8 * abs(b) for u, v in zip(dat, want)
                                            for a, b in zip(u, v)), f"{kernel}: the plot's times {dat}, {want}")
        check(w["levels"] == [int(x) for x in levels.split(",")] and w["complete"], f"{kernel}: {w['levels']}")
        check(len(rows) == len(w["rows"]) == len(TILES) * len(CACHES), f"{kernel}: {len(rows)} CSV rows")
        check_unblocked(kernel, w, CACHES, as_run)
        for c, j in zip(rows, w["rows"]):
            check(int(c["tile"]) == j["tile"] and float(c["cache_bytes"]) == j["cache_bytes"] and
                  abs(float(c["traffic_gb"]) * 1e9 - j["dram_bytes"]) <= 1e-6 * j["dram_bytes"] and
                  (c["best"] == "1") == j["best"], f"{kernel}: CSV {c} against JSON {j}")
        hand = {t: projection(kernel + "_blocked", n, t) for t in TILES}
        meas = {t: hand[t]["traffic_curve"] for t in TILES}
        # the instructions the tiling adds: recomputed from the loops' rows, and against the hand-blocked builds
        (nest,) = w["nests"]
        loops = {x["id"]: x for x in r["loops"]}
        blocked = [int(x) for x in levels.split(",")]
        for t in TILES:
            want = naive_added(nest, loops, blocked, t)
            have = {x["added_instructions"] for x in w["rows"] if x["tile"] == t}
            check(len(have) == 1 and abs(have.pop() - want) <= 1e-6 * want + 0.5, f"{kernel} tile {t}: added "
                  f"instructions {[x['added_instructions'] for x in w['rows'] if x['tile'] == t]}, expected {want:.0f}")
        pred = {t: next(x["added_instructions"] for x in w["rows"] if x["tile"] == t) for t in TILES}
        d_pred = pred[TILES[0]] - pred[TILES[-1]]
        d_meas = hand[TILES[0]]["instructions"] - hand[TILES[-1]]["instructions"]
        check(abs(d_pred - d_meas) <= 0.20 * d_meas, f"{kernel}: instructions added from tile {TILES[-1]} to "
              f"{TILES[0]}: predicted {d_pred:.0f}, measured {d_meas}")
        print(f"{kernel}: instructions added, tile {TILES[-1]} to {TILES[0]}: predicted {d_pred:.0f}, measured "
              f"{d_meas} ({100 * (d_pred - d_meas) / d_meas:+.1f} %); at tile {TILES[0]}: predicted "
              f"{pred[TILES[0]]:.0f}, the hand-blocked build's {hand[TILES[0]]['instructions'] - r['instructions']}")
        e = check_tiles(kernel, w["rows"], meas)
        print(f"{kernel}: worst traffic error {100 * e:.2f} %")
        worst = max(worst, e)
    print(f"blocking: worst traffic error {100 * worst:.2f} %")


# ===================================================================== #
# Nests of several inner loops                                           #
# ===================================================================== #

def test_siblings():
    worst = 0.0
    for kernel, n, levels in (("st7", 40, "2,3"), ("st5", 256, "2")):
        r = projection(kernel, n, binary=STENCILS_PC, opts=(
            "--what-if=block:" + levels, "--what-if-tiles=" + ",".join(map(str, TILES)),
            "--projection-cache=" + ",".join(map(str, CACHES))))
        w = r["what_if"]
        (nest,) = w["nests"]
        loops = {x["id"]: x for x in r["loops"]}
        inner = [x for x in loops.values() if x["depth"] == len(nest["trips"])]
        check(len(inner) == 2 and nest["replayed"] and nest["reason"] is None and w["complete"],
              f"{kernel} -O3: two sibling inner loops, replayed: {nest['reason']}, {len(inner)} inner loops")
        check(all(x["legal"] for x in w["rows"]), f"{kernel} -O3: every tiling legal: "
              f"{[x['illegal_reason'] for x in w['rows'] if not x['legal']][:1]}")
        outside = r["outside_loops"]["loads"] + r["outside_loops"]["stores"]
        for x in w["rows"]:
            check(abs(x["as_run_dram_bytes"] - x["measured_dram_bytes"]) <= 128 * outside,
                  f"{kernel} -O3: replayed as it ran {x['as_run_dram_bytes']}, measured {x['measured_dram_bytes']}")
        meas = {t: projection(kernel + "_blocked", n, t, binary=STENCILS_PC)["traffic_curve"] for t in TILES}
        worst = max(worst, check_tiles(kernel + " -O3", w["rows"], meas))
    # a tiling that breaks a dependence across the two sibling loops is still refused: sweep's (+1,-1) in j
    w = projection("sweep", 64, binary=STENCILS_PC, opts=("--what-if=block:2", "--what-if-tiles=8",
                                                          "--projection-cache=32K"))["what_if"]
    check(not w["rows"][0]["legal"] and "dependence" in w["rows"][0]["illegal_reason"],
          f"sweep -O3 blocked in j: {w['rows'][0]}")
    print(f"siblings: worst traffic error {100 * worst:.2f} %")


def test_varying():
    """Sibling inner loops whose trip counts change from one outer iteration to the next."""
    # sib5: per row the 5-point stencil (254 points) and a second inner loop over j <= i: a tree whose second loop's
    # trip count is affine in the row's counter, replayed; blocked in j against sib5_blocked
    n, worst = 256, 0.0
    r = projection("sib5", n, opts=("--what-if=block:2", "--what-if-tiles=" + ",".join(map(str, TILES)),
                                    "--projection-cache=" + ",".join(map(str, CACHES))))
    w = r["what_if"]
    (nest,) = w["nests"]
    loops = {x["id"]: x for x in r["loops"]}
    inner = [x for x in loops.values() if x["parent"] == nest["loops"][0]]
    check(len(inner) == 2 and sorted(x["iterations"] for x in inner) == [(n - 2) * (n - 1) // 2, (n - 2) ** 2] and
          nest["replayed"] and w["complete"] and all(x["legal"] for x in w["rows"]),
          f"sib5: two sibling inner loops, one triangular, replayed: {nest['reason']} {[x['iterations'] for x in inner]}")
    outside = r["outside_loops"]["loads"] + r["outside_loops"]["stores"]
    for x in w["rows"]:
        check(abs(x["as_run_dram_bytes"] - x["measured_dram_bytes"]) <= 128 * outside,
              f"sib5: replayed as it ran {x['as_run_dram_bytes']}, measured {x['measured_dram_bytes']}")
    check(checksum("sib5_blocked", n, 8) == checksum("sib5", n), "sib5_blocked: the same results as sib5")
    meas = {t: projection("sib5_blocked", n, t)["traffic_curve"] for t in TILES}
    worst = check_tiles("sib5", w["rows"], meas)
    p = edan("run", "--projection", "--machine=" + GEM5, "--what-if=block:2", "--filter=sib5", STENCILS, "sib5", "64")
    check("1 entry, " in p.stdout and "accesses: affine, non-rectangular" in p.stdout, f"sib5 text: {p.stdout[-900:]}")
    print(f"sib5: worst traffic error {100 * worst:.2f} %")
    # reported, with the share of accesses they carry, no rows: sib_ragged's second loop over (7 i) mod 11 + 1
    # points (GCC unrolls it whole into code that runs in some rows only) and the remainder loop after tri5's loop
    # unrolled by two in stencils_pc (its start moves with the unrolled loop's varying trip count)
    for kernel, binary in (("sib_ragged", STENCILS), ("tri5", STENCILS_PC)):
        r = projection(kernel, 64, binary=binary, opts=("--what-if=block:2",))
        w = r["what_if"]
        (nest,) = w["nests"]
        bad = sum(i["accesses"] for i in nest["instructions"] if not i["affine"])
        check(not nest["replayed"] and nest["reason"] == "non-affine accesses" and 0 < bad < nest["accesses"] and
              nest["nonaffine_accesses"] == bad and not w["complete"] and not w["rows"],
              f"{kernel}: reported non-affine: {nest['reason']}, {bad} of {nest['accesses']}, rows {w['rows'][:1]}")
        p = edan("run", "--projection", "--machine=" + GEM5, "--what-if=block:2", "--filter=" + kernel, binary,
                 kernel, "64")
        share = f"not replayed: non-affine accesses ({100 * bad / nest['accesses']:.1f} % of its accesses non-affine)"
        check(share in p.stdout and "no nest to transform" in p.stdout, f"{kernel} text: {share}: {p.stdout[-700:]}")
        print(f"{kernel}: {share}")


# ===================================================================== #
# Non-rectangular nests                                                  #
# ===================================================================== #

def bounded_points(nest):
    """The points of a bounded nest from its trip counts and bounds, per entry."""
    def walk(k, outer):
        if k == len(nest["trips"]):
            return 1
        b = nest["bounds"][k]
        trip = nest["trips"][k] if b is None else max(0, b["base"] + sum(s * x for s, x in zip(b["strides"], outer)))
        return sum(walk(k + 1, outer + [i]) for i in range(trip))
    return walk(0, [])


def test_triangular():
    for prog, n, want in (("trsv", 60, [None, {"base": 1, "strides": [1]}]),
                          ("trmm", 20, [None, None, {"base": 1, "strides": [1, 0]}])):
        p = edan("run", "--json", "--filter=kernel", "--projection", "--machine=" + GEM5, "--what-if=block:1",
                 "--what-if-tiles=8", "--projection-cache=4K", os.path.join(EX, prog), str(n))
        check(p.returncode == 0, f"{prog}: {p.stderr}")
        r = json.loads(p.stdout.strip().splitlines()[-1])
        validate_schema(r, prog)
        r = r["projection"]
        (nest,) = r["what_if"]["nests"]
        check(nest["replayed"] and nest["bounds"] == want, f"{prog}: bounds {nest['bounds']}, expected {want}")
        loops = {x["id"]: x for x in r["loops"]}
        inner = loops[nest["loops"][-1]]["iterations"]
        check(bounded_points(nest) * nest["entries"] == inner, f"{prog}: points from the bounds "
              f"{bounded_points(nest)}, the inner loop's iterations {inner}")
        row = r["what_if"]["rows"][0]
        outside = r["outside_loops"]["loads"] + r["outside_loops"]["stores"]
        check(abs(row["as_run_dram_bytes"] - row["measured_dram_bytes"]) <= 128 * outside + 64,
              f"{prog}: replayed as it ran {row['as_run_dram_bytes']}, measured {row['measured_dram_bytes']}")
    n, worst = 256, 0.0
    w = projection("tri5", n, opts=("--what-if=block:2", "--what-if-tiles=" + ",".join(map(str, TILES)),
                                    "--projection-cache=" + ",".join(map(str, CACHES))))["what_if"]
    (nest,) = w["nests"]
    check(nest["bounds"] == [None, {"base": 1, "strides": [1]}] and nest["max_trips"] == [n - 2, n - 2],
          f"tri5: {nest['bounds']} {nest['max_trips']}")
    meas = {t: projection("tri5_blocked", n, t)["traffic_curve"] for t in TILES}
    check(checksum("tri5_blocked", n, 8) == checksum("tri5", n), "tri5_blocked: the same results as tri5")
    for cache in CACHES:
        pred = {x["tile"]: x for x in w["rows"] if x["cache_bytes"] == cache}
        for t in TILES:
            m = measured(meas[t], cache)
            e = (pred[t]["dram_bytes"] - m) / m
            worst = max(worst, abs(e))
            check(pred[t]["legal"] and abs(e) <= 0.10, f"tri5 tile {t} cache {cache}: predicted "
                  f"{pred[t]['dram_bytes']}, measured {m}")
        best_pred = [t for t in TILES if pred[t]["best"]]
        best_meas = min(TILES, key=lambda t: (measured(meas[t], cache), t))
        check(best_pred == [best_meas], f"tri5 cache {cache}: best tile predicted {best_pred}, measured {best_meas}")
    print(f"tri5: worst traffic error {100 * worst:.2f} %")
    # trip counts not affine in the outer counter: reported, with the share of the region's accesses, no rows
    r = projection("ragged", 64, opts=("--what-if=block:2",))
    w = r["what_if"]
    (nest,) = w["nests"]
    check(not nest["replayed"] and nest["reason"].startswith("non-rectangular") and nest["bounds"] == [None, None]
          and not w["complete"] and not w["rows"], f"ragged: {nest['reason']} {w['rows'][:1]}")
    p = edan("run", "--projection", "--machine=" + GEM5, "--what-if=block:2", "--filter=ragged", STENCILS, "ragged",
             "64")
    share = 100 * (nest["accesses"] + nest["in_calls"]) / (r["loads"] + r["stores"] + r.get("atomics", 0))
    check(f"not affine in the outer counters ({share:.1f} % of the region's accesses)" in p.stdout and
          "no nest to transform" in p.stdout, f"ragged text: {p.stdout[-500:]}")


# ===================================================================== #
# Fusion                                                                 #
# ===================================================================== #

def fusion_saving(label, kernel, hand, n, cache, binary):
    """The predicted traffic saved by fusing KERNEL's nests against the measured saving of the hand-fused HAND."""
    r = projection(kernel, n, binary=binary, opts=("--what-if=fuse", f"--projection-cache={cache}"))
    w = r["what_if"]
    check(w["kind"] == "fuse" and w["complete"] and all(x["fused"] for x in w["pairs"]),
          f"{label}: every pair fused: {w['pairs']}")
    (row,) = w["rows"]
    fused = projection(hand, n, binary=binary, opts=(f"--projection-cache={cache}",))
    saved_pred = row["as_run_dram_bytes"] - row["dram_bytes"]
    saved_meas = row["measured_dram_bytes"] - measured(fused["traffic_curve"], cache)
    check(row["legal"] and saved_meas > 0 and abs(saved_pred - saved_meas) <= 0.10 * saved_meas,
          f"{label} fused at {cache}: saved {saved_pred} predicted, {saved_meas} measured")
    print(f"{label} fused at {cache} bytes: saved {saved_pred:.0f} predicted, {saved_meas:.0f} measured "
          f"({100 * (saved_pred - saved_meas) / saved_meas:+.2f} %)")
    return r


def test_fusion():
    for cache in (32768, 65536, 262144):
        r = fusion_saving("two loops", "two_loops", "fused", 40000, cache, STENCILS)
        check(len(r["what_if"]["nests"]) == 2, f"two loops: {r['what_if']['nests']}")
    # nests of several inner loops (stencils_pc: each inner loop unrolled by two with a remainder loop): fused over
    # their positions, against pair5_fused of the same build; and as chains (stencils)
    check(checksum("pair5_fused", 256) == checksum("pair5", 256), "pair5_fused: the same results as pair5")
    for cache in (8192, 16384, 32768, 262144):
        r = fusion_saving("pair5 -O3", "pair5", "pair5_fused", 256, cache, STENCILS_PC)
        nests, loops = r["what_if"]["nests"], r["loops"]
        check(len(nests) == 2 and all(sum(x["depth"] == 2 and x["parent"] == nest["loops"][0] for x in loops) == 2
                                      for nest in nests), f"pair5 -O3: two nests of two inner loops: {loops}")
        if cache > 8192:  # at 8 KiB the chains' rows hardly fit either way: 4 KiB saved, too little to compare
            fusion_saving("pair5", "pair5", "pair5_fused", 256, cache, STENCILS)
    # a fusion of tree nests that breaks a dependence is refused: pipe's second stencil reads tmp a row ahead
    w = projection("pipe", 64, binary=STENCILS_PC, opts=("--what-if=fuse", "--projection-cache=32K"))["what_if"]
    check(w["pairs"][0]["fused"] and not w["rows"][0]["legal"] and w["rows"][0]["dram_bytes"] is None and
          "flow dependence" in w["rows"][0]["illegal_reason"], f"pipe -O3 fused: {w['rows'][0]}")
    # every pair not fused says why, in the JSON and the text, and gets no made-up fusion
    r = projection("unfusable", 64, opts=("--what-if=fuse", "--projection-cache=32K"))
    w = r["what_if"]
    want = ["different iteration spaces", "different depths", "the second is not replayed"]
    check([x["reason"] for x in w["pairs"]] == want and not any(x["fused"] for x in w["pairs"]) and
          [x["first"] for x in w["pairs"][1:]] == [x["second"] for x in w["pairs"][:-1]],
          f"unfusable: the pairs' reasons {w['pairs']}")
    (row,) = w["rows"]
    check(row["dram_bytes"] == row["as_run_dram_bytes"], f"unfusable: nothing fused, as run: {row}")
    p = edan("run", "--projection", "--machine=" + GEM5, "--what-if=fuse", "--projection-cache=32K",
             "--filter=unfusable", STENCILS, "unfusable", "64")
    for x, why in zip(w["pairs"], want):
        check(f"nests #{x['first']} and #{x['second']}: not fused: {why}" in p.stdout, f"unfusable text: {p.stdout}")
    check("(positions 62 x 62 against 31 x 62)" in p.stdout and "(positions 31 x 62 against 64)" in p.stdout,
          f"unfusable text: the iteration spaces: {p.stdout[-900:]}")


# ===================================================================== #
# The all-loops-per-block scheme's redundant halo work                   #
# ===================================================================== #

def checksum(kernel, *args):
    p = subprocess.run(["qemu-riscv64", STENCILS, kernel, *map(str, args)],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"stencils {kernel}: {p.stderr}")
    return p.stdout.split("checksum=")[1].strip()


def test_halo():
    n = 64
    tiles = [4, 8, 16, 32]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "w.csv")
        r = projection("pipe", n, opts=("--what-if=block:1,2", "--what-if-tiles=" + ",".join(map(str, tiles)),
                                        "--projection-cache=" + ",".join(map(str, CACHES)), "--what-if-csv=" + path))
        rows, as_run = read_csv(path)
    w = r["what_if"]
    check_unblocked("pipe", w, CACHES, as_run)
    check(len(w["nests"]) == 2 and w["complete"], f"pipe: two nests: {w['nests']}")
    tile_rows = [x for x in w["rows"] if x["scheme"] == "all-loops-per-block"]
    check(len(tile_rows) == len(tiles) * len(CACHES) and all(x["legal"] for x in w["rows"]),
          f"pipe: every plan legal: {[(x['scheme'], x['tile'], x['illegal_reason']) for x in w['rows']]}")
    check(all(x["halo_iterations"] == 0 for x in w["rows"] if x["scheme"] == "traditional"),
          "the traditional scheme recomputes nothing")
    trip = n - 2
    worst = 0.0
    for t in tiles:
        # the points of tmp pipe_blocked makes: per level the blocks widened by 1 each side, clipped to the interior
        per_level = sum(min(lo + t + 1, trip) - max(lo - 1, 0) for lo in range(0, trip, t))
        want = per_level * per_level - trip * trip
        blocked = projection("pipe_blocked", n, t, opts=("--projection-cache=" + ",".join(map(str, CACHES)),))
        check(checksum("pipe_blocked", n, t) == checksum("pipe", n), f"pipe_blocked {t}: the same results as pipe")
        for x in (x for x in tile_rows if x["tile"] == t):
            check(x["halo_iterations"] == want, f"tile {t}: halo iterations {x['halo_iterations']}, expected {want}")
            check(x["weighted_flops"] == blocked["weighted_flops"] and x["halo_weighted_flops"] ==
                  blocked["weighted_flops"] - r["weighted_flops"],
                  f"tile {t}: weighted flops {x['weighted_flops']} (halo {x['halo_weighted_flops']}), "
                  f"pipe_blocked's {blocked['weighted_flops']}")
            m = measured(blocked["traffic_curve"], x["cache_bytes"])
            e = (x["dram_bytes"] - m) / m
            worst = max(worst, abs(e))
            check(abs(e) <= 0.10, f"pipe tile {t} cache {x['cache_bytes']}: predicted {x['dram_bytes']:.0f}, "
                  f"measured {m} ({100 * e:+.1f} %)")
            check(x["halo_dram_bytes"] is not None and x["halo_dram_bytes"] >= 0, f"halo bytes {x['halo_dram_bytes']}")
            print(f"pipe n={n} tile {t} cache {x['cache_bytes']}: {x['halo_iterations']} halo iterations, "
                  f"{x['halo_weighted_flops']:.0f} weighted flops, {x['halo_dram_bytes']:.0f} bytes; traffic "
                  f"predicted {x['dram_bytes']:.0f}, measured {m} ({100 * e:+.2f} %)")
    check(len(rows) == len(w["rows"]), "CSV rows")
    for c, j in zip(rows, w["rows"]):
        check(int(c["halo_iterations"]) == j["halo_iterations"] and c["legal"] == "1" and
              abs(float(c["halo_weighted_gflop"]) * 1e9 - j["halo_weighted_flops"]) <= 1e-6 * j["weighted_flops"] and
              abs(float(c["halo_traffic_gb"]) * 1e9 - j["halo_dram_bytes"]) <= 1e-3 and
              abs(float(c["weighted_gflop"]) * 1e9 - j["weighted_flops"]) <= 1e-6 * j["weighted_flops"] and
              abs(float(c["added_instructions"]) - j["added_instructions"]) <= 0.5 and
              abs(float(c["overhead_ms"]) * 1e-3 - j["overhead_s"]) <= 1e-9 * max(j["overhead_s"], 1e-9),
              f"CSV {c} against JSON {j}")
    p = edan("run", "--projection", "--machine=" + GEM5, "--what-if=block:1,2", "--what-if-tiles=8",
             "--projection-cache=32K", "--filter=pipe", STENCILS, "pipe", str(n))
    row = [x for x in p.stdout.splitlines() if x.startswith("  all-loops-per-block")]
    check(len(row) == 1 and row[0].split()[6] == str(next(x["halo_iterations"] for x in tile_rows if x["tile"] == 8)),
          f"text: the halo iterations column: {row}")
    print(f"halo: worst traffic error {100 * worst:.2f} %")


# ===================================================================== #
# Dependences                                                            #
# ===================================================================== #

def test_depend():
    # (kernel, n, what-if, tiles, hand-transformed kernel and its tile, legal)
    cases = (("two_loops", 1000, "fuse", None, ("fused",), True),
             ("pipe", 64, "fuse", None, ("pipe_fused",), False),
             ("st5", 64, "block:2", 8, ("st5_blocked", 8), True),
             ("pipe", 64, "block:1,2", 8, ("pipe_blocked", 8), True),
             ("sweep", 64, "block:2", 8, ("sweep_blocked", 8), False),
             ("sweep", 64, "block:1", 8, None, True))
    for kernel, n, what, tile, hand, legal in cases:
        opts = ["--what-if=" + what, "--projection-cache=32K"] + (["--what-if-tiles=" + str(tile)] if tile else [])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "w.csv")
            w = projection(kernel, n, opts=opts + ["--what-if-csv=" + path])["what_if"]
            rows, as_run = read_csv(path)
        check_unblocked(f"{kernel} {what}", w, [32768], as_run)
        first = w["rows"][0]  # the traditional scheme or the fusion
        check(first["legal"] == legal, f"{kernel} {what}: legal {first['legal']}, expected {legal}: "
              f"{first['illegal_reason']}")
        if hand:
            same = checksum(*hand[:1], n, *hand[1:]) == checksum(kernel, n)
            check(same == legal, f"{kernel} {what}: the hand-transformed {hand[0]} keeps the results: {same}")
        if legal:
            check(first["illegal_reason"] is None and first["dram_bytes"] is not None, f"{kernel}: {first}")
            continue
        check(first["dram_bytes"] is None and first["time_s"] is None and not first["best"] and
              "dependence" in first["illegal_reason"] and rows[0]["legal"] == "0" and rows[0]["traffic_gb"] == "" and
              rows[0]["illegal_reason"] == first["illegal_reason"], f"{kernel} {what}: the illegal row {first} {rows[0]}")
        print(f"{kernel} {what}: illegal: {first['illegal_reason']}")
        p = edan("run", "--projection", "--machine=" + GEM5, "--filter=" + kernel, *opts, STENCILS, kernel, str(n))
        check(f"illegal: {first['scheme']}" in p.stdout and first["illegal_reason"] in p.stdout and
              re.search(r"\s+illegal$", p.stdout, re.M), f"{kernel} text: {p.stdout[-900:]}")
    # the distance of sweep's dependence, and of pipe's fusion
    w = projection("sweep", 64, opts=("--what-if=block:2", "--what-if-tiles=8", "--projection-cache=32K"))["what_if"]
    check("flow dependence" in w["rows"][0]["illegal_reason"] and "distance (+1,-1)" in w["rows"][0]["illegal_reason"],
          f"sweep: {w['rows'][0]['illegal_reason']}")
    w = projection("pipe", 64, opts=("--what-if=fuse", "--projection-cache=32K"))["what_if"]
    check("flow dependence" in w["rows"][0]["illegal_reason"] and "distance (-1,0)" in w["rows"][0]["illegal_reason"],
          f"pipe fused: {w['rows'][0]['illegal_reason']}")


# ===================================================================== #
# Options                                                                #
# ===================================================================== #

def test_options():
    for opts, needle in ((("--what-if=block:0",), "--what-if"), (("--what-if=block:2,x",), "--what-if"),
                         (("--what-if=tile",), "block:LEVELS"), (("--what-if=block:1", "--what-if-tiles=0"),
                                                                "--what-if-tiles"),
                         (("--what-if-tiles=8",), "need --what-if"),
                         (("--what-if=fuse", "--what-if-registers=0"), "--what-if-registers"),
                         (("--what-if=block:1", "--what-if-cache=fifo"), "--what-if-cache"),
                         (("--what-if-cache=machine",), "need --what-if"),
                         (("--what-if=block:1", "--what-if-cache=machine", "--projection-cache=64..4M"),
                          "at most 16 --projection-cache sizes"),
                         (("--what-if=fuse", "--what-if-csv=/nonexistent/x.csv"), "/nonexistent/x.csv: cannot write")):
        p = edan("run", "--projection", "--machine=" + GEM5, *opts, "--filter=st5", STENCILS, "st5", "8", expect=None)
        check(p.returncode == 2 and needle in p.stderr, f"{opts}: exit {p.returncode}: {p.stderr.strip()}")
    p = edan("run", "--projection", "--machine=" + GEM5, "--what-if=block:2", "--filter=st5", STENCILS, "st5", "20")
    best = [x for x in p.stdout.splitlines() if re.match(r"  traditional +\d+ .* best$", x)]
    check(p.returncode == 0 and len(best) == 1, f"text report: one best tile at the machine's cache: {p.stdout[-800:]}")


run_category({"affine": test_affine, "blocking": test_blocking, "siblings": test_siblings,
              "triangular": test_triangular, "varying": test_varying, "fusion": test_fusion, "halo": test_halo,
              "depend": test_depend, "options": test_options})
