#!/usr/bin/env python3
"""The locality tools on real runs (the examples under the real qemu-riscv64 and plugin): the reuse
tool (--reuse) against edan's own cache model configured fully associative, its histograms, curve and
windows against each other and against other tools; the load-classes tool (--classes) on the examples
whose classes are known; the zoom tree and the reuse histogram on a synthetic text trace against naive
implementations of their definitions; bad options.

usage: locality_test.py BUILD_DIR CATEGORY   (categories: reuse, classes, zoom, sampled, sampled_only, csv, command,
                                              locality_options, threads)
"""
import json
import os
import random
import tempfile

from realrun_lib import EX, check, edan, online, run_category, validate_schema


def assoc_cache(size):
    """A fully associative, write-back, write-allocate LRU cache of `size` bytes: its misses are the
    accesses at stack distance >= size / 64 lines, and the cold ones."""
    return f"{size},line=64,ways={size // 64},write=back,alloc=yes"


def test_reuse():
    for prog, n in (("stream", 3000), ("spmv", 300), ("pointer_chase", 2000), ("matmul", 24), ("linked_list", 500)):
        sizes = (1024, 4096, 32768)
        # cold: the stack distances are the region's own, and so are the caches they are compared with
        r = online(prog, n, "--reuse", "--footprint", "--reuse-sizes=128,1K,8K,32K", "--cold",
                   *[f"--cache={assoc_cache(s)}" for s in sizes])
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
        # the functions' misses at each --reuse-size (powers of two) sum to the curve's misses at that size
        for k, size in enumerate(u["sizes"]):
            if size in mrc:
                rows = sum(f["misses"][k] for f in u["functions"])
                check(rows == round(mrc[size] * a), f"{what}: the functions' misses at {size} B, {rows}, are the "
                      f"curve's {mrc[size] * a:.1f}")
    # rows per innermost loop: matmul's three nested loops, the innermost doing nearly all accesses
    mm = online("matmul", 24, "--reuse")["reuse"]
    loops = mm["loops"]
    check(loops and max(l["depth"] for l in loops) == 3 and sum(l["accesses"] for l in loops) <= mm["accesses"],
          f"matmul: loop rows {[(l['line'], l['depth'], l['accesses']) for l in loops]}")
    inner = max(loops, key=lambda l: l["depth"])
    check(inner["accesses"] == 2 * 24 ** 3 and inner["iterations"] > 0 and inner["function"] == "kernel",
          f"matmul: the innermost loop holds the 2 n^3 loads: {inner['accesses']}")
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
    # SHARDS: at rate 1 the sample is everything and equals the exact curve; at 1/100 it is close
    check(base["shards"] is None, "no SHARDS without --reuse-sample")
    one = online("spmv", 3000, "--reuse", "--reuse-sample=1")["reuse"]
    check(one["shards"]["miss_ratio"] == one["miss_ratio_curve"]["miss_ratio"] and one["shards"]["max_abs_error"] == 0
          and one["shards"]["sampled_accesses"] == one["accesses"], f"SHARDS at rate 1: {one['shards']}")
    hundredth = online("spmv", 20000, "--reuse", "--reuse-sample=0.01")["reuse"]
    sh = hundredth["shards"]
    check(abs(sh["rate"] - 0.01) < 1e-6 and 0.003 * hundredth["accesses"] < sh["sampled_accesses"] < 0.03 * hundredth["accesses"],
          f"SHARDS at 1/100: {sh['sampled_accesses']} of {hundredth['accesses']} accesses sampled")
    check(sh["mean_abs_error"] < 0.05 and sh["max_abs_error"] < 0.1, f"SHARDS at 1/100: error {sh}")
    # text report and plots
    with tempfile.TemporaryDirectory() as d:
        p = edan("run", "--reuse", "--reuse-sample=0.5", "--filter=kernel", "--plot-dir=" + d, os.path.join(EX, "spmv"), "200")
        check(p.returncode == 0 and "reuse (exact LRU stack distance" in p.stdout and "miss ratio" in p.stdout
              and "SHARDS estimate" in p.stdout,
              f"text report: {p.stderr}")
        for kind in ("reuse-histogram", "mrc", "footprint-windows"):
            for ext in ("dat", "gp", "png", "svg"):
                path = os.path.join(d, f"spmv-kernel-{kind}.{ext}")
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
    w = json.loads(whole.stdout.strip().splitlines()[-1])["load_classes"]
    check(w["all"]["constant"]["static"] > 0 and w["all"]["constant"]["accesses"] > 0,
          "whole program: constant loads (frame and global scalars)")
    p = edan("run", "--classes", "--filter=kernel", os.path.join(EX, "spmv"), "100")
    check(p.returncode == 0 and "load classes" in p.stdout and "irregular" in p.stdout, "text report")
    check("loop (head's line, function, depth)" in p.stdout and "footprint over windows of W load accesses" in p.stdout,
          "text report: the loop rows and the windows by class")
    with tempfile.TemporaryDirectory() as d:
        p = edan("run", "--classes", "--filter=kernel", "--plot-dir=" + d, os.path.join(EX, "spmv"), "100")
        for ext in ("dat", "gp", "png", "svg"):
            path = os.path.join(d, f"spmv-kernel-classes-windows.{ext}")
            check(p.returncode == 0 and os.path.exists(path) and os.path.getsize(path) > 0, f"plot {path}")
    test_loops_and_windows()


def test_loops_and_windows():
    """Per innermost loop, three tools agree on the loops and their accesses; the footprint over windows by class
    agrees with the reuse tool's windows of the loads and with the classes' footprints of the whole run."""
    for prog, n in (("spmv", 300), ("matmul", 24), ("stream", 2000), ("pointer_chase", 2000)):
        what = f"{prog} {n}"
        r = online(prog, n, "--footprint", "--classes", "--reuse")
        validate_schema(r, f"{what} --footprint --classes --reuse")
        fl = {l["head"]: l for l in r["footprint"]["loops"]}
        cl = {l["head"]: l for l in r["load_classes"]["loops"]}
        rl = {l["head"]: l for l in r["reuse"]["loops"]}
        place = ("end", "depth", "iterations", "function", "file", "line")
        check(fl and set(fl) == set(cl) and set(rl) <= set(fl),
              f"{what}: the same loops ({len(fl)} footprint, {len(cl)} classes, {len(rl)} reuse)")
        check(all(fl[h][k] == cl[h][k] for h in set(fl) & set(cl) for k in place)
              and all(fl[h][k] == rl[h][k] for h in set(fl) & set(rl) for k in place), f"{what}: the loops' places")
        for h, l in fl.items():
            c = cl.get(h, {}).get("classes", {})
            check(l["accesses"] == c.get("load_accesses", -1) + c.get("store", {}).get("accesses", -1),
                  f"{what}: loop {h:#x}: footprint's accesses = classes' loads and stores")
            check(l["lines"] >= max(c.get("load_blocks", 0), c.get("store", {}).get("blocks", 0)),
                  f"{what}: loop {h:#x}: lines >= its loads' blocks and its stores'")
            check(abs(l["growth"] - l["lines"] / l["accesses"]) < 1e-12, f"{what}: loop {h:#x}: growth = lines / A")
            if h in rl:
                check(rl[h]["accesses"] >= l["accesses"], f"{what}: loop {h:#x}: reuse's block accesses >= accesses")
        f = r["footprint"]
        check(sum(l["accesses"] for l in fl.values()) <= f["accesses"], f"{what}: loops' accesses within the run's")
        # the kernel's innermost loop
        inner = max((l for l in cl.values() if l["function"] == "kernel"), key=lambda l: (l["depth"], l["classes"]["load_accesses"]))
        c = inner["classes"]
        if prog == "stream":
            check(c["strided"]["accesses"] == c["load_accesses"], f"{what}: the kernel's loop is strided: {c}")
        if prog in ("spmv", "pointer_chase"):
            check(c["irregular"]["accesses"] > 0, f"{what}: the kernel's loop has irregular accesses: {c}")
        if prog == "matmul":
            check(fl[inner["head"]]["accesses"] == 2 * 24 ** 3, f"matmul: the innermost loop's 2 n^3 loads")
        # windows: the loads' F(W) of --classes = --reuse-stream=loads's (the kernel has no atomics); the widest
        # window holds each class's footprint of the run
        k = edan("run", "--json", "--classes", "--reuse", "--reuse-stream=loads", "--filter=kernel",
                 os.path.join(EX, prog), str(n))
        kr = json.loads(k.stdout.strip().splitlines()[-1])
        w, u = kr["load_classes"]["footprint_windows"], kr["reuse"]["footprint_windows"]
        check(w["window"] == u["window"] and w["blocks"] == u["blocks"] and w["accesses"] == kr["reuse"]["accesses"],
              f"{what}: --classes' F(W) of loads = --reuse-stream=loads's")
        a = kr["load_classes"]["all"]
        check(all(w[c][-1] == a[c]["blocks"] for c in ("constant", "strided", "irregular"))
              and w["blocks"][-1] == a["load_blocks"], f"{what}: the widest window holds the classes' footprints")
        check(all(max(w[c][i] for c in ("constant", "strided", "irregular")) <= w["blocks"][i] + 1e-9
                  and w["blocks"][i] <= sum(w[c][i] for c in ("constant", "strided", "irregular")) + 1e-9
                  for i in range(len(w["window"]))), f"{what}: F_c(W) <= F(W) <= sum of F_c(W)")


def test_locality_options():
    prog = os.path.join(EX, "sum")
    for opt, needle in (("--reuse-block=48", "power of two"), ("--reuse-block=0", "power of two"),
                        ("--reuse-block=2G", "power of two"), ("--reuse-stream=stores", "data, loads or all"),
                        ("--reuse-sizes=", "empty"), ("--reuse-sizes=1K,x", "cache sizes"),
                        ("--reuse-sizes=1K,2K,4K,8K,16K", "cache sizes"), ("--classes=yes", "takes no value"),
                        ("--reuse=1", "takes no value"), ("--reuse-sample=0", "sampling rate"),
                        ("--reuse-sample=1.5", "sampling rate"), ("--reuse-sample=nan", "sampling rate"), ("--zoom-pages=1", "from 2"),
                        ("--zoom-threshold=100", "percentage"), ("--zoom-stop=32", "from 64 bytes"),
                        ("--heap-end=0xq", "not an address"), ("--heap-end=", "empty"),
                        ("--sample-period=0", "number of loads"), ("--sample-window=x", "number of loads")):
        p = edan("run", "--reuse", opt, prog, "10", expect=None)
        check(p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1,
              f"{opt}: exit {p.returncode}, {p.stderr!r}")


def synthetic_trace(path, seed):
    """A text trace of loads: two hot arrays far apart, a cold sweep, scattered noise and a stack; returns the
    addresses in order."""
    rnd = random.Random(seed)
    addrs = []
    for _ in range(6):
        addrs += [0x100000 + 8 * i for i in range(2048)]                     # a 16 KiB array swept
        addrs += [0x9000000 + 8 * rnd.randrange(1024) for _ in range(500)]   # 8 KiB gathered from
        addrs += [rnd.randrange(1 << 28) & ~7 for _ in range(20)]             # noise
        addrs += [0x4000800000 - 8 * rnd.randrange(64) for _ in range(30)]   # a stack
    addrs += [0x2000000 + 64 * i for i in range(3000)]                        # a cold sweep
    with open(path, "w") as f:
        for i, a in enumerate(addrs):
            pc = 0x10000 + 4 * (i % 7)
            f.write(f"0;{pc:#x};ld a0,0(a1);{a:#x}\n")
    return addrs


def naive_distances(blocks):
    """Stack distance of each access (None when cold), by an LRU list."""
    stack, out = [], []
    for b in blocks:
        if b in stack:
            i = stack.index(b)
            out.append(i)
            stack.pop(i)
        else:
            out.append(None)
        stack.insert(0, b)
    return out


def naive_zoom(blocks, dists, pages, threshold, stop, heap_end):
    """The zoom tree by its definition (docs/locality.md), from every access."""
    acc, reuse, dsum = {}, {}, {}
    for b, d in zip(blocks, dists):
        acc[b] = acc.get(b, 0) + 1
        if d is not None:
            reuse[b] = reuse.get(b, 0) + 1
            dsum[b] = dsum.get(b, 0) + d
    regions = []

    def region(lo, hi, rid, parent, level):
        bs = [b for b in acc if lo <= b * 64 < hi]
        r = dict(id=rid, parent=parent, level=level, lo=lo, hi=hi, blocks=len(bs), accesses=sum(acc[b] for b in bs),
                 reuses=sum(reuse.get(b, 0) for b in bs))
        r["distance_mean"] = sum(dsum.get(b, 0) for b in bs) / r["reuses"] if r["reuses"] else 0
        regions.append(r)
        return r

    def zoom(r):
        width = r["hi"] - r["lo"]
        if width <= stop or r["level"] >= 64 or not r["accesses"]:
            return
        pw = -(-width // pages)
        pw = -(-pw // 64) * 64
        np_ = -(-width // pw)
        count = [0] * np_
        for b in acc:
            if r["lo"] <= b * 64 < r["hi"]:
                count[(b * 64 - r["lo"]) // pw] += acc[b]
        floor = 1
        if all(count):
            floor = -(-r["accesses"] // np_)
        i, children = 0, 0
        while i < np_:
            if count[i] < floor:
                i += 1
                continue
            j = i
            while j < np_ and count[j] >= floor:
                j += 1
            s = sum(count[i:j])
            if s > threshold * r["accesses"] and not (i == 0 and j == np_):
                rid = chr(ord("A") + children) if r["level"] == 0 else f"{r['id']}.{children}"
                c = region(r["lo"] + i * pw, min(r["lo"] + j * pw, r["hi"]), rid, r["id"], r["level"] + 1)
                children += 1
                zoom(c)
            i = j

    lo, hi = min(acc) * 64, (max(acc) + 1) * 64
    split = heap_end // 64 * 64 if heap_end is not None else hi
    if split > lo:
        zoom(region(lo, min(split, hi), "R", None, 0))
    if heap_end is not None and split < hi:
        region(max(split, lo), hi, "S", None, 0)
    return regions


def test_zoom():
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "synthetic.txt")
        addrs = synthetic_trace(trace, 7)
        blocks = [a // 64 for a in addrs]
        dists = naive_distances(blocks)
        # the reuse tool against the naive distances
        p = edan("analyze", "--json", "--reuse", "--zoom", "--zoom-stop=4K", "--heap-end=0x4000000000", trace)
        check(p.returncode == 0, f"analyze --zoom: {p.stderr}")
        r = json.loads(p.stdout)
        validate_schema(r, "--zoom")
        u = r["reuse"]
        hist = [0] * len(u["distance_histogram"])
        for x in dists:
            if x is not None:
                hist[0 if x == 0 else min(x.bit_length(), len(hist) - 1)] += 1
        check(u["distance_histogram"] == hist and u["cold"] == dists.count(None),
              "reuse on a text trace: the histogram equals the naive LRU list's")
        for heap_end, opts in ((0x4000000000, ["--zoom-stop=4K", "--heap-end=0x4000000000"]),
                               (None, ["--zoom-pages=64", "--zoom-threshold=20"])):
            p = edan("analyze", "--json", "--zoom", *opts, trace)
            z = json.loads(p.stdout)["zoom"]
            pages = 64 if heap_end is None else 512
            threshold = 0.2 if heap_end is None else 0.1
            stop = 4096 if heap_end is not None else 16384
            want = naive_zoom(blocks, dists, pages, threshold, stop, heap_end)
            got = z["regions"]
            check(len(got) == len(want) and len(got) >= 3, f"zoom {opts}: {len(got)} regions, expected {len(want)}")
            for g, w in zip(got, want):
                same = all(g[k] == w[k] for k in ("id", "parent", "level", "lo", "hi", "blocks", "accesses", "reuses"))
                same = same and abs(g["distance_mean"] - w["distance_mean"]) <= 1e-9 * max(1, w["distance_mean"])
                check(same, f"zoom {opts}: region {g} != {w}")
            check(z["accesses"] == len(addrs), "zoom: every access counted")
            leaves = [g for g in got if g["leaf"]]
            check(leaves and all(g["functions"] == [] or g["functions"][0]["accesses"] > 0 for g in leaves),
                  "zoom: leaves")
        # the swept and the gathered arrays are found as regions of their own
        p = edan("analyze", "--json", "--zoom", "--zoom-stop=4K", "--heap-end=0x4000000000", trace)
        z = json.loads(p.stdout)["zoom"]
        leaves = [(g["lo"], g["hi"]) for g in z["regions"] if g["leaf"]]
        check(any(lo <= 0x100000 and 0x100000 + 16384 <= hi + 64 for lo, hi in leaves), f"the swept array: {leaves}")
        check(any(lo <= 0x9000000 < hi for lo, hi in leaves), f"the gathered array: {leaves}")
        check(any(g["id"] == "S" for g in z["regions"]), "the stack apart")
        # the region map: a bar per leaf
        plots = os.path.join(d, "plots")
        p = edan("analyze", "--zoom", "--zoom-stop=4K", "--heap-end=0x4000000000", "--plot-dir=" + plots, trace)
        check(p.returncode == 0, f"--zoom --plot-dir: {p.stderr}")
        with open(os.path.join(plots, "synthetic-zoom.dat")) as f:
            bars = f.read().splitlines()
        check(len(bars) == len(leaves) and all(os.path.getsize(os.path.join(plots, "synthetic-zoom." + e)) > 0
                                               for e in ("png", "svg", "gp")), f"the region map: {bars}")


def test_sampled():
    """MemGaze's sampled estimates against a naive computation of the same definitions."""
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "synthetic.txt")
        addrs = synthetic_trace(trace, 11)
        for window, period in ((64, 640), (100, 1000), (512, 512), (7, 21000)):
            p = edan("analyze", "--json", f"--sample-period={period}", f"--sample-window={window}", trace)
            check(p.returncode == 0, f"sampled {window}/{period}: {p.stderr}")
            r = json.loads(p.stdout)
            validate_schema(r, "--sample-period")
            sm = r["sampled"]
            blocks = [a // 64 for a in addrs]  # every access is an aligned 8-byte load: one block
            sampled = [i % period < window for i in range(len(blocks))]
            a_s = sum(sampled)
            f = len(set(blocks))
            f_s = len({b for b, s in zip(blocks, sampled) if s})
            wins = {}
            for i, b in enumerate(blocks):
                wins.setdefault(i // window, []).append(b)
            # the footprint per window weighted by the window's loads (every window is full but the last)
            win_all = sum(len(set(x)) * len(x) for x in wins.values()) / len(blocks)
            swins = [x for k, x in wins.items() if (k * window) % period < window]
            win_s = sum(len(set(x)) * len(x) for x in swins) / sum(len(x) for x in swins)
            rho = len(blocks) / a_s
            a = sm["all"]
            want = dict(loads=len(blocks), sampled_loads=a_s, blocks=f, sampled_blocks=f_s)
            check(all(a[k] == v for k, v in want.items()), f"sampled {window}/{period}: {a} vs {want}")
            check(abs(sm["rho"] - rho) < 1e-9 * rho and abs(a["blocks_estimate"] - rho * f_s) < 1e-6 * rho * f_s
                  and abs(a["loads_estimate"] - len(blocks)) < 1e-6 * len(blocks),
                  f"sampled {window}/{period}: rho {sm['rho']} vs {rho}, F^ {a['blocks_estimate']} vs {rho * f_s}")
            check(abs(a["window_blocks"] - win_all) < 1e-9 * win_all and abs(a["window_blocks_estimate"] - win_s) < 1e-9 * win_s,
                  f"sampled {window}/{period}: per-window footprint {a['window_blocks']}/{a['window_blocks_estimate']}"
                  f" vs {win_all}/{win_s}")
            check(sm["samples"] == -(-len(blocks) // period), "samples")
            check(a["windows"] == len(wins) and a["sampled_windows"] == len(swins), f"windows: {a}")
        p = edan("analyze", "--sample-period=1000", "--sample-window=300", trace, expect=None)
        check(p.returncode == 2 and "must divide" in p.stderr, f"a window that does not divide the period: {p.stderr}")
    r = online("spmv", 3000, "--sample-period=1000", "--sample-window=100")["sampled"]
    check(sum(f["counts"]["loads"] for f in r["functions"]) == r["all"]["loads"], "sampled: functions sum to all")
    check(r["functions"][0]["name"] == "kernel" and r["functions"][0]["counts"]["sampled_loads"] > 0, "sampled: kernel")


SAMPLED_KEYS = ("sampled_loads", "sampled_blocks", "loads_estimate", "blocks_estimate", "growth_estimate",
                "window_blocks_estimate", "window_blocks_stderr", "window_blocks_ci95", "sampled_windows")


def test_sampled_only():
    """edan run --sample-only: the plugin traces the samples alone (it counts the loads between them and
    retranslates at each sample's edges), and every estimate equals the one from the whole stream of
    the same run, to the bit, and so are the loads of the run and of each function, which the plugin counts;
    the exact values it cannot know are null; other commands and tools refuse it."""
    cases = [("spmv", 3000, ["--filter=kernel"], (100, 1000)), ("spmv", 3000, [], (8192, 819200)),
             ("spmv", 3000, [], (1, 7)), ("spmv", 20000, [], (512, 65536)), ("pointer_chase", 20000, [], (64, 6400)),
             ("stream", 20000, [], (1000, 1000)), ("trsv", 200, [], (50, 5000)),
             ("spmv", 3000, ["--filter=kernel", "--exclude-callees"], (10, 1000))]
    for prog, n, extra, (window, period) in cases:
        what = f"{prog} {n} {' '.join(extra)} {window}/{period}"
        opts = ["run", "--json", f"--sample-period={period}", f"--sample-window={window}", *extra]
        full = edan(*opts, os.path.join(EX, prog), str(n))
        only = edan(*opts, "--sample-only", os.path.join(EX, prog), str(n))
        check(full.returncode == 0 and only.returncode == 0, f"{what}: {full.stderr} {only.stderr}")
        check("warning" not in only.stderr, f"{what}: a sample started late: {only.stderr}")
        rf = json.loads(full.stdout.strip().splitlines()[-1])
        ro = json.loads(only.stdout.strip().splitlines()[-1])
        validate_schema(ro, "--sample-only")
        check(ro["source"]["kind"] == "sampled" and "configurations" not in ro and set(ro) - {"schema", "source", "model"}
              == {"sampled"}, f"{what}: the report holds the sampled section alone: {sorted(ro)}")
        f, o = rf["sampled"], ro["sampled"]
        check(o["sample_only"] and not f["sample_only"], f"{what}: sample_only")
        check(all(f[k] == o[k] for k in ("samples", "rho", "window", "period")) and f["all"]["loads"] == o["all"]["loads"],
              f"{what}: samples, rho, loads: {f['samples']} {f['rho']} {f['all']['loads']} vs "
              f"{o['samples']} {o['rho']} {o['all']['loads']}")
        check(all(f["all"][k] == o["all"][k] for k in SAMPLED_KEYS), f"{what}: the run's estimates: {f['all']} vs {o['all']}")
        check(o["all"]["blocks"] is None and o["all"]["window_blocks"] is None and o["all"]["blocks_error"] is None
              and o["all"]["windows"] is None and f["all"]["windows"] >= f["all"]["sampled_windows"],
              f"{what}: exact values unknown: {o['all']}")
        # per function: the plugin counts each function's loads, so the rows, their order and loads are those of
        # the whole stream too; the blocks are unknown
        fs = [(r["name"], r["counts"]) for r in f["functions"]]
        os_ = [(r["name"], r["counts"]) for r in o["functions"]]
        check([n for n, _ in fs] == [n for n, _ in os_] and all(a[c] == b[c] for (_, a), (_, b) in zip(fs, os_)
                                                               for c in SAMPLED_KEYS + ("loads", "loads_error")),
              f"{what}: per function: {[(n, c['loads']) for n, c in fs[:4]]} vs {[(n, c['loads']) for n, c in os_[:4]]}")
        check(all(c["blocks"] is None and c["window_blocks"] is None for _, c in os_), f"{what}: functions' blocks")
    p = edan("run", "--sample-period=1000", "--sample-window=100", "--sample-only", os.path.join(EX, "spmv"), "300")
    check(p.returncode == 0 and "edan: MemGaze's samples alone (online)" in p.stdout and "eDAG" not in p.stdout
          and "  model " not in p.stdout and "sampled estimates" in p.stdout, f"the text report: {p.stdout[:400]}")
    # the CSV leaves what is unknown empty
    with tempfile.TemporaryDirectory() as d:
        p = edan("run", "--sample-period=1000", "--sample-window=100", "--sample-only", "--csv-dir=" + d,
                 os.path.join(EX, "spmv"), "300")
        check(p.returncode == 0, p.stderr)
        import csv
        with open(os.path.join(d, "spmv-sampled.csv")) as fh:
            rows = list(csv.DictReader(fh))
        check(rows[0]["function"] == "(all)" and int(rows[0]["loads"]) > 0 and all(r["loads"] != "" and r["blocks"] == ""
              for r in rows[1:]) and int(rows[1]["sampled_loads"]) > 0, f"sampled.csv with --sample-only: {rows[:2]}")
    prog = os.path.join(EX, "spmv")
    for args, msg in ((["analyze", "--sample-period=100", "--sample-window=10", "--sample-only", prog], "only edan run"),
                      (["record", "--sample-period=100", "--sample-window=10", "--sample-only", "-o",
                        os.path.join(tempfile.gettempdir(), "t.edt"), prog, "30"],
                       "only edan run"),
                      (["locality", "--sample-period=100", "--sample-window=10", "--sample-only", prog, "30"], "only edan run"),
                      (["run", "--sample-only", prog, "30"], "needs --sample-period"),
                      (["run", "--sample-only", "--sample-period=100", "--sample-window=100", "--reuse", prog, "30"],
                       "the reuse tool"),
                      (["run", "--sample-only", "--sample-period=100", "--sample-window=100", "--critical-path", prog, "30"],
                       "needs every instruction"),
                      (["run", "--sample-only", "--sample-period=100", prog, "30"], "must divide")):
        p = edan(*args, expect=None)
        check(p.returncode == 2 and msg in p.stderr and "qemu" not in p.stderr.lower(),
              f"{' '.join(args)}: exit {p.returncode}: {p.stderr}")


def test_csv():
    """--csv-dir: every table, parseable, equal to the JSON report's numbers."""
    import csv
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "tables")
        p = edan("run", "--json", "--reuse", "--reuse-sample=0.5", "--classes", "--zoom", "--footprint", "--sample-period=1000",
                 "--sample-window=100", "--csv-dir=" + out, "--filter=kernel", os.path.join(EX, "spmv"), "300")
        check(p.returncode == 0, f"--csv-dir: {p.stderr}")
        r = json.loads(p.stdout.strip().splitlines()[-1])
        tables = {}
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name), newline="") as f:
                tables[name] = list(csv.DictReader(f))
        want = {f"spmv-kernel-{t}.csv" for t in ("reuse-histogram", "mrc", "footprint-windows", "reuse-functions", "reuse-loops",
                                         "reuse-nests", "load-classes", "classes-functions", "classes-loops",
                                         "classes-nests", "classes-windows", "classes-function-windows",
                                         "classes-nest-windows", "footprint-functions", "footprint-loops",
                                         "footprint-nests", "footprint-threads", "reuse-threads", "zoom-regions",
                                         "sampled")}
        check(set(tables) == want, f"--csv-dir: the tables {sorted(tables)}")
        u = r["reuse"]
        mrc = tables.get("spmv-kernel-mrc.csv", [])
        check([float(x["miss_ratio"]) for x in mrc] == [round(x, 10) or x for x in u["miss_ratio_curve"]["miss_ratio"]]
              or all(abs(float(a["miss_ratio"]) - b) < 1e-9 for a, b in zip(mrc, u["miss_ratio_curve"]["miss_ratio"])),
              "mrc.csv = the JSON curve")
        check(all(abs(float(a["shards_miss_ratio"]) - b) < 1e-9 for a, b in zip(mrc, u["shards"]["miss_ratio"])),
              "mrc.csv: the SHARDS column")
        hist = tables.get("spmv-kernel-reuse-histogram.csv", [])
        check([int(x["distance_accesses"]) for x in hist] == u["distance_histogram"], "reuse-histogram.csv")
        loads = tables.get("spmv-kernel-load-classes.csv", [])
        js = {l["pc"]: l for l in r["load_classes"]["loads"]}
        check(loads and all(js[int(x["pc"])]["class"] == x["class"] and js[int(x["pc"])]["accesses"] == int(x["accesses"])
                            for x in loads), "load-classes.csv = the JSON rows")
        cw = tables.get("spmv-kernel-classes-windows.csv", [])
        jw = r["load_classes"]["footprint_windows"]
        check(cw and [float(x["window"]) for x in cw] == jw["window"]
              and all(abs(float(x[c + "_blocks"]) - jw[c][i]) <= 1e-9 * max(1, jw[c][i])
                      for i, x in enumerate(cw) for c in ("constant", "strided", "irregular"))
              and all(abs(float(x["blocks"]) - jw["blocks"][i]) <= 1e-9 * max(1, jw["blocks"][i]) for i, x in enumerate(cw)),
              "classes-windows.csv = the JSON windows")
        cl = tables.get("spmv-kernel-classes-loops.csv", [])
        check(cl and [(int(x["head"]), int(x["loads"]), int(x["irregular_accesses"]), int(x["blocks"])) for x in cl]
              == [(l["head"], l["classes"]["load_accesses"], l["classes"]["irregular"]["accesses"],
                   l["classes"]["load_blocks"]) for l in r["load_classes"]["loops"]], "classes-loops.csv = the JSON rows")
        fl = tables.get("spmv-kernel-footprint-loops.csv", [])
        check(fl and [(int(x["head"]), int(x["bytes"]), int(x["lines"]), int(x["accesses"])) for x in fl]
              == [(l["head"], l["bytes"], l["lines"], l["accesses"]) for l in r["footprint"]["loops"]],
              "footprint-loops.csv = the JSON rows")
        ff = tables.get("spmv-kernel-footprint-functions.csv", [])
        check(ff and ff[0]["function"] == "(all)" and int(ff[0]["lines"]) == r["footprint"]["lines"]
              and [(x["function"], int(x["bytes"]), int(x["accesses"])) for x in ff[1:]]
              == [(x["name"], x["bytes"], x["accesses"]) for x in r["footprint"]["functions"]],
              "footprint-functions.csv = the JSON rows")
        # the loop nests' rows, of the three tools, and the windows per function and per nest
        for tool, key in (("footprint", "footprint"), ("classes", "load_classes"), ("reuse", "reuse")):
            rows = tables.get(f"spmv-kernel-{tool}-nests.csv", [])
            js = r[key]["loop_nests"]
            count = (lambda l: l["classes"]["load_accesses"]) if tool == "classes" else (lambda l: l["accesses"])
            check(rows and [(int(x["head"]), int(x["loops"]), int(x["loads" if tool == "classes" else "accesses"]))
                            for x in rows] == [(l["head"], l["loops"], count(l)) for l in js],
                  f"{tool}-nests.csv = the JSON rows")
        def same_windows(rows, keys, objs):
            """CSV rows (printed to 10 digits) against the JSON windows of each (key, object)."""
            want = [(k, w, b, st) for k, fw in objs if fw for w, b, st in zip(fw["window"], fw["blocks"], fw["strided"])]
            close = lambda a, b: abs(a - b) <= 1e-9 * max(1, abs(b))
            return len(rows) == len(want) and all(
                tuple(x[c] for c in keys) == k and float(x["window"]) == w and close(float(x["blocks"]), b)
                and close(float(x["strided_blocks"]), st) for x, (k, w, b, st) in zip(rows, want))
        fwin = tables.get("spmv-kernel-classes-function-windows.csv", [])
        check(fwin and same_windows(fwin, ["function"], (((f["name"],), f["footprint_windows"])
                                                         for f in r["load_classes"]["functions"])),
              "classes-function-windows.csv = the JSON windows")
        nwin = tables.get("spmv-kernel-classes-nest-windows.csv", [])
        check(nwin and same_windows(nwin, ["head"], (((str(l["head"]),), l["footprint_windows"])
                                                     for l in r["load_classes"]["loop_nests"])),
              "classes-nest-windows.csv = the JSON windows")
        zr = tables.get("spmv-kernel-zoom-regions.csv", [])
        check([(x["id"], int(x["accesses"])) for x in zr] == [(g["id"], g["accesses"]) for g in r["zoom"]["regions"]],
              "zoom-regions.csv = the JSON regions")
        sm = tables.get("spmv-kernel-sampled.csv", [])
        check(sm and sm[0]["function"] == "(all)" and int(sm[0]["loads"]) == r["sampled"]["all"]["loads"],
              "sampled.csv")
        check(not [n for n in os.listdir(out) if ".tmp" in n], "no temporary files left")
    p = edan("run", "--reuse", "--csv-dir=/proc/no/such", "--filter=kernel", os.path.join(EX, "sum"), "5", expect=None)
    check(p.returncode == 2 and "/proc/no/such" in p.stderr, f"an unwritable --csv-dir: {p.returncode} {p.stderr}")


def test_command():
    """edan locality: the locality tools on one stream, the same numbers as edan run gives them."""
    spmv = os.path.join(EX, "spmv")
    p = edan("locality", "--json", "--filter=kernel", spmv, "300")
    check(p.returncode == 0, f"edan locality: {p.stderr}")
    loc = json.loads(p.stdout)
    check(loc["schema"] == "edan.locality/1" and all(k in loc for k in ("footprint", "reuse", "load_classes", "zoom"))
          and "sampled" not in loc, f"edan locality: the four analyses: {sorted(loc)}")
    run = online("spmv", 300, "--reuse", "--classes", "--zoom", "--footprint")
    for k in ("footprint", "reuse", "load_classes", "zoom"):
        check(loc[k] == run[k], f"edan locality: {k} as edan run gives it")
    p = edan("locality", "--reuse", "--filter=kernel", spmv, "300")
    check(p.returncode == 0 and "reuse (exact LRU" in p.stdout and "load classes" not in p.stdout
          and "spmv n=300" not in p.stdout, "edan locality --reuse: that one, the program's output apart")
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "spmv.edt")
        edan("record", "--filter=kernel", "-o", trace, spmv, "300")
        p = edan("locality", "--json", trace)
        t = json.loads(p.stdout)
        check(all(t[k] == loc[k] for k in ("reuse", "load_classes", "zoom")), "edan locality of a trace = of the program")
    p = edan("locality", "--help")
    check(p.returncode == 0 and "--memgaze-table" in p.stdout and "PROGRAM" in p.stdout, "edan locality --help")


def test_threads():
    """The rows per thread (vCPU) on a real two-thread program (tests/two_threads.c). The plugin traces the main
    thread only (vCPU 0), so a run gives one thread row, the whole run's; its recorded trace with every other run
    of records moved to vCPU 1 gives two rows whose accesses sum to the whole run's, and every other number of
    both tools is the same as on one vCPU."""
    import csv
    import subprocess
    with tempfile.TemporaryDirectory() as d:
        prog = os.path.join(d, "two_threads")
        p = subprocess.run(["riscv64-linux-gnu-gcc", "-std=c17", "-O2", "-static", "-pthread", "-o", prog,
                            os.path.join(os.path.dirname(os.path.abspath(__file__)), "two_threads.c")],
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, f"building two_threads.c: {p.stderr}")
        out = os.path.join(d, "csv")
        p = edan("run", "--json", "--footprint", "--reuse", "--csv-dir=" + out, prog, "2000")
        check(p.returncode == 0 and "other threads were not traced" in p.stderr, f"two_threads: {p.stderr[-300:]}")
        r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {}
        validate_schema(r, "two_threads --footprint --reuse")
        fp, u = r.get("footprint", {}), r.get("reuse", {})
        check([(t["vcpu"], t["bytes"], t["lines"], t["accesses"]) for t in fp.get("threads", [])]
              == [(0, fp.get("bytes"), fp.get("lines"), fp.get("accesses"))], f"two_threads: {fp.get('threads')}")
        check([(t["vcpu"], t["accesses"], t["cold"]) for t in u.get("threads", [])]
              == [(0, u.get("accesses"), u.get("cold"))], f"two_threads: reuse threads {u.get('threads')}")
        rows = {}
        for table in ("footprint-threads", "reuse-threads"):
            path = os.path.join(out, f"two_threads-{table}.csv")
            check(os.path.exists(path), f"{path}")
            with open(path, newline="") as f:
                rows[table] = list(csv.DictReader(f)) if os.path.exists(path) else []
        check([(int(x["vcpu"]), int(x["accesses"])) for x in rows["footprint-threads"]] == [(0, fp.get("accesses"))]
              and [(int(x["vcpu"]), int(x["cold"])) for x in rows["reuse-threads"]] == [(0, u.get("cold"))],
              f"two_threads: the threads' CSV tables {rows}")
        # the recorded main thread, every other run of 100 records moved to vCPU 1
        one, two = os.path.join(d, "one.txt"), os.path.join(d, "two.txt")
        check(edan("record", "--text", "-o", one, prog, "2000").returncode == 0, "record two_threads")
        with open(one) as f, open(two, "w") as g:
            k = 0
            for line in f:
                if not line.startswith("#"):
                    line = ("1" if k // 100 % 2 else "0") + line[line.index(";"):]
                    k += 1
                g.write(line)
        reps = []
        for trace in (one, two):
            p = edan("analyze", "--json", "--footprint", "--reuse", trace)
            check(p.returncode == 0, f"analyze {trace}: {p.stderr}")
            reps.append(json.loads(p.stdout) if p.returncode == 0 else {})
        validate_schema(reps[1], "two vCPUs --footprint --reuse")
        fp, u = reps[1].get("footprint", {}), reps[1].get("reuse", {})
        ft, ut = fp.get("threads", []), u.get("threads", [])
        check([t["vcpu"] for t in ft] == [0, 1] and [t["vcpu"] for t in ut] == [0, 1], f"two vCPUs: {ft} {ut}")
        check(sum(t["accesses"] for t in ft) == fp.get("accesses") and sum(t["accesses"] for t in ut) == u.get("accesses"),
              "two vCPUs: the threads' accesses sum to the whole run's")
        check(all(t["lines"] <= fp["lines"] <= sum(x["lines"] for x in ft) for t in ft)
              and all(t["bytes"] <= fp["bytes"] for t in ft), "two vCPUs: each thread's lines within the run's")
        check(all(sum(t["misses"][k] for t in ut) == sum(f["misses"][k] for f in u["functions"] or [])
                  for k in range(len(u.get("sizes", [])))) if u.get("functions") else
              sum(t["cold"] for t in ut) == u.get("cold"), "two vCPUs: the threads' misses sum to the run's")
        for key in ("footprint", "reuse"):
            a, b = dict(reps[0].get(key, {})), dict(reps[1].get(key, {}))
            check(len(a.pop("threads", [])) == 1 and len(b.pop("threads", [])) == 2 and a == b,
                  f"{key}: on two vCPUs the same numbers but the threads' rows")
        p = edan("analyze", "--footprint", "--reuse", two)
        check(p.returncode == 0 and p.stdout.count("thread (vCPU)") == 2, "two vCPUs: the threads' text tables")
        p = edan("analyze", "--footprint", "--reuse", one)
        check(p.returncode == 0 and "thread (vCPU)" not in p.stdout, "one vCPU: no threads' text tables")


if __name__ == "__main__":
    run_category({"threads": test_threads, "command": test_command, "csv": test_csv, "sampled": test_sampled, "sampled_only": test_sampled_only, "reuse": test_reuse, "classes": test_classes, "locality_options": test_locality_options,
                  "zoom": test_zoom})
