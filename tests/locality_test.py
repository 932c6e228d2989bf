#!/usr/bin/env python3
"""The locality tools on real runs (the examples under the real qemu-riscv64 and plugin): the reuse
tool (--reuse) against edan's own cache model configured fully associative, its histograms, curve and
windows against each other and against other tools; the load-classes tool (--classes) on the examples
whose classes are known; bad options.

usage: locality_test.py BUILD_DIR CATEGORY   (categories: reuse, classes, locality_options)
"""
import os
import tempfile

from realrun_lib import EX, check, edan, online, run_category, validate_schema


def assoc_cache(size):
    """A fully associative, write-back, write-allocate LRU cache of `size` bytes: its misses are the
    accesses at stack distance >= size / 64 lines, and the cold ones."""
    return f"{size},line=64,ways={size // 64},write=back,alloc=yes"


def test_reuse():
    for prog, n in (("stream", 3000), ("spmv", 300), ("pointer_chase", 2000), ("matmul", 24), ("linked_list", 500)):
        sizes = (1024, 4096, 32768)
        r = online(prog, n, "--reuse", "--footprint", *[f"--cache={assoc_cache(s)}" for s in sizes])
        validate_schema(r, f"{prog} --reuse")
        u = r["reuse"]
        what = f"{prog} {n}"
        a, cold = u["accesses"], u["cold"]
        check(u["block_bytes"] == 64 and u["stream"] == "data", f"{what}: defaults")
        check(a == sum(c["loads"] + c["stores"] + c["atomics"] for c in r["configurations"][:1]) or a > 0,
              f"{what}: accesses")
        check(sum(u["distance_histogram"]) == a - cold and sum(u["reuse_time_histogram"]) == a - cold,
              f"{what}: the histograms hold every reuse")
        check(u["reuse_time_histogram"][0] == 0, f"{what}: no reuse time is 0")
        # a distance is less than its reuse time: distance-0 reuses are exactly the reuse-time-1 ones
        check(u["distance_histogram"][0] == u["reuse_time_histogram"][1], f"{what}: d=0 <=> rt=1")
        check(cold == u["blocks"], f"{what}: one cold access per distinct block")
        check(u["blocks"] == r["footprint"]["lines"], f"{what}: distinct blocks = --footprint's lines "
              f"({u['blocks']} vs {r['footprint']['lines']})")
        mrc = dict(zip(u["miss_ratio_curve"]["bytes"], u["miss_ratio_curve"]["miss_ratio"]))
        ratios = u["miss_ratio_curve"]["miss_ratio"]
        check(all(x >= y for x, y in zip(ratios, ratios[1:])), f"{what}: the miss-ratio curve does not rise")
        check(abs(ratios[-1] - cold / a) < 1e-12, f"{what}: a cache that holds every block misses only cold")
        for i, s in enumerate(sizes):
            misses = r["configurations"][i]["cache_levels"][0]["misses"]
            if s in mrc:
                check(round(mrc[s] * a) == misses,
                      f"{what}: fully associative {s} B: the curve says {mrc[s] * a:.1f} misses, the cache model {misses}")
        w = u["footprint_windows"]
        check(w["window"][0] == 1 and w["blocks"][0] == 1, f"{what}: a window of one access holds one block")
        check(w["blocks"][-1] == u["blocks"], f"{what}: the widest window holds every block")
        check(all(x <= y + 1e-9 for x, y in zip(w["blocks"], w["blocks"][1:])), f"{what}: F(W) does not fall")
        check(r["reuse"]["functions"][0]["name"] == "kernel", f"{what}: the kernel's row")
        check(sum(f["accesses"] for f in u["functions"]) == a, f"{what}: functions sum to the whole")
    # the whole stream of a streaming kernel at 4 KiB blocks and of loads only
    base = online("stream", 3000, "--reuse")["reuse"]
    big = online("stream", 3000, "--reuse", "--reuse-block=4096")["reuse"]
    loads = online("stream", 3000, "--reuse", "--reuse-stream=loads")["reuse"]
    fetch = online("stream", 3000, "--reuse", "--reuse-stream=all")["reuse"]
    check(big["block_bytes"] == 4096 and big["blocks"] < base["blocks"] and big["accesses"] == base["accesses"],
          f"4 KiB blocks: {big['blocks']} blocks, {big['accesses']} accesses")
    check(loads["accesses"] < base["accesses"] and loads["stream"] == "loads", "loads only")
    check(fetch["fetches"] > 0 and fetch["accesses"] == base["accesses"] + fetch["fetches"], "fetches added")
    # a streaming kernel reads each line once per sweep: at 64-byte lines and 8-byte elements, 7 of 8
    # accesses of a line are reuses, and the loop's three streams interleave, so their distance is < 4
    near = sum(base["distance_histogram"][:3])
    check(near >= 0.8 * (base["accesses"] - base["cold"]) and near >= 0.8 * 7 / 8 * base["accesses"],
          f"stream: reuses within a line at distance < 4: {near} of {base['accesses']}")
    # text report and plots
    with tempfile.TemporaryDirectory() as d:
        p = edan("run", "--reuse", "--filter=kernel", "--plot-dir=" + d, os.path.join(EX, "spmv"), "200")
        check(p.returncode == 0 and "reuse (exact LRU stack distance" in p.stdout and "miss ratio" in p.stdout,
              f"text report: {p.stderr}")
        for kind in ("reuse-histogram", "mrc", "footprint-windows"):
            for ext in ("dat", "gp", "png", "svg"):
                path = os.path.join(d, f"spmv-{kind}.{ext}")
                check(os.path.exists(path) and os.path.getsize(path) > 0, f"plot {path}")


def classes_of(prog, n):
    r = online(prog, n, "--classes")
    validate_schema(r, f"{prog} --classes")
    return r["load_classes"]


def test_classes():
    # (example, argument, the kernel's source line -> the class of its loads)
    stream = classes_of("stream", 2000)
    check(all(l["class"] == "strided" for l in stream["loads"]) and stream["loads"],
          f"stream: strided loads: {[(l['line'], l['class']) for l in stream['loads']]}")
    check(all(l["stride"] == 8 for l in stream["loads"]), "stream: stride 8 (doubles)")
    chase = classes_of("pointer_chase", 2000)
    check(chase["loads"][0]["class"] == "irregular" and chase["loads"][0]["dependent"] >= chase["loads"][0]["accesses"] - 2,
          f"pointer chase: irregular, its address from the previous load: {chase['loads'][0]}")
    lst = classes_of("linked_list", 500)
    check(all(l["class"] == "irregular" for l in lst["loads"]), "linked list: irregular")
    spmv = classes_of("spmv", 300)
    by_class = {}
    for l in spmv["loads"]:
        by_class.setdefault(l["class"], []).append(l)
    # val[j] and col[j] strided, rowptr strided, x[col[j]] irregular (a gather)
    check(len(by_class.get("irregular", [])) == 1 and len(by_class.get("strided", [])) >= 3,
          f"spmv: one gather, the rest strided: {[(l['line'], l['class']) for l in spmv['loads']]}")
    gather = by_class.get("irregular", [{}])[0]
    check(gather.get("dependent", 0) >= gather.get("accesses", 1) - 2, "spmv: the gather depends on col[j]")
    a = spmv["all"]
    check(a["load_accesses"] == sum(l["accesses"] for l in spmv["loads"]), "spmv: every load listed")
    check(a["load_blocks"] <= a["constant"]["blocks"] + a["strided"]["blocks"] + a["irregular"]["blocks"],
          "spmv: F <= sum of the classes' footprints")
    check(a["irregular"]["blocks"] > 0 and a["strided"]["blocks"] > 0, "spmv: both footprints")
    # scalars: the whole program's loads from the stack and constant globals are constant
    whole = edan("run", "--json", "--classes", os.path.join(EX, "sum"), "100")
    import json
    w = json.loads(whole.stdout.strip().splitlines()[-1])["load_classes"]
    check(w["all"]["constant"]["static"] > 0 and w["all"]["constant"]["accesses"] > 0,
          "whole program: constant loads (frame and global scalars)")
    p = edan("run", "--classes", "--filter=kernel", os.path.join(EX, "spmv"), "100")
    check(p.returncode == 0 and "load classes" in p.stdout and "irregular" in p.stdout, "text report")


def test_locality_options():
    prog = os.path.join(EX, "sum")
    for opt, needle in (("--reuse-block=48", "power of two"), ("--reuse-block=0", "power of two"),
                        ("--reuse-block=2G", "power of two"), ("--reuse-stream=stores", "data, loads or all"),
                        ("--reuse-sizes=", "empty"), ("--reuse-sizes=1K,x", "cache sizes"),
                        ("--reuse-sizes=1K,2K,4K,8K,16K", "cache sizes"), ("--classes=yes", "takes no value"),
                        ("--reuse=1", "takes no value")):
        p = edan("run", "--reuse", opt, prog, "10", expect=None)
        check(p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1,
              f"{opt}: exit {p.returncode}, {p.stderr!r}")


run_category({"reuse": test_reuse, "classes": test_classes, "locality_options": test_locality_options})
