#!/usr/bin/env python3
"""MemGaze's load traces through edan's locality tools (docs/locality.md, "MemGaze traces"): on random
MemGaze-format traces made here, the reuse tool (stack distances, reuse times, footprint over windows), the
footprint tool and the zoom tree against naive implementations of their definitions, each sample on its own
and with --across-samples; the load classes of --load-classes; --memgaze-compat's tree against MemGaze's own
location analyzer's output on a vendored trace (tests/data/memgaze-traces/README.md); bad input.

usage: mgtrace_test.py BUILD_DIR CATEGORY   (categories: streams, classes, compat, bad)
"""
import json
import os
import random
import re
import tempfile

from realrun_lib import check, edan, run_category, validate_schema
from locality_test import naive_distances, naive_zoom

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "memgaze-traces")


def random_samples(seed):
    """Samples of loads, each a list of (ip, addr): arrays swept and gathered across samples (so that reuses
    span them), a stack, a few addresses below 0xffffff, and sample ids that come back (5, 6, 5 are three
    samples)."""
    rnd = random.Random(seed)
    heap, other, stack = 0x55b2351ce08a + rnd.randrange(4096), 0x7fc4a0000ea2, 0x7ffec7780340
    samples = []
    for s in range(rnd.randrange(3, 9)):
        loads = []
        for _ in range(rnd.randrange(1, 5)):
            kind = rnd.randrange(5)
            n = rnd.randrange(1, 300)
            if kind == 0:    # a sweep, from where an earlier sample may have been
                base = heap + 8 * rnd.randrange(512)
                loads += [(0x4983f7, base + 8 * i) for i in range(n)]
            elif kind == 1:  # a gather over a far array
                loads += [(0x498412, other + 8 * rnd.randrange(2048)) for _ in range(n)]
            elif kind == 2:  # the stack
                loads += [(0x498409, stack - 8 * rnd.randrange(16)) for _ in range(n)]
            elif kind == 3:  # repeats of one address
                a = heap + rnd.randrange(1 << 16)
                loads += [(0x4984a0, a)] * n
            else:            # low addresses, which MemGaze's location analysis leaves out
                loads += [(0x401000, 0x600000 + 8 * rnd.randrange(64)) for _ in range(min(n, 5))]
        samples.append(loads)
    return samples


def write_trace(path, samples, header, ids=None):
    """The samples as a MemGaze trace, consecutive loads of one sample with one SAMPLE id; with MemGaze's
    later DSO header and sixth column when header."""
    ids = ids or list(range(1, len(samples) + 1))
    with open(path, "w") as f:
        if header:
            f.write("DSO: <name> <id>\n/home/user/app 0\n/lib/x86_64-linux-gnu/libc.so.6 1\n")
            f.write("TRACE: <IP> <Addrs> <CPU> <time> <sampleID> <DSO_id>\n")
        t = 13964463.803418284
        for sid, loads in zip(ids, samples):
            for i, (ip, addr) in enumerate(loads):
                f.write(f"{ip:#x} {addr:#x} {sid % 4} {t + i * 1e-7:.9f} {sid}" + (" 0\n" if header else "\n"))


def bin_of(v, n):
    return 0 if v == 0 else min(v.bit_length(), n - 1)


def naive_reuse(streams, n_bins):
    """Distances, reuse times (None: cold in its stream) and F(W) of each stream on its own (64-byte blocks)."""
    dist, rt = [0] * n_bins, [0] * n_bins
    cold, dists = 0, []
    for s in streams:
        blocks = [a >> 6 for a in s]
        d = naive_distances(blocks)
        dists += d
        last = {}
        for i, b in enumerate(blocks):
            if d[i] is None:
                cold += 1
            else:
                dist[bin_of(d[i], n_bins)] += 1
                rt[bin_of(i - last[b], n_bins)] += 1
            last[b] = i
    longest = max(len(s) for s in streams)
    windows, f = [], []
    k = 0
    while True:
        w = 1 << k
        count = distinct = 0
        for s in streams:
            for i in range(0, len(s), w):
                count += 1
                distinct += len({a >> 6 for a in s[i:i + w]})
        windows.append(w)
        f.append(distinct / count)
        if w >= longest:
            break
        k += 1
    return dist, rt, cold, dists, windows, f


def test_streams():
    with tempfile.TemporaryDirectory() as d:
        for seed in range(12):
            samples = random_samples(seed)
            header = seed % 2 == 1
            trace = os.path.join(d, f"t{seed}.trace")
            ids = list(range(1, len(samples) + 1))
            if len(ids) >= 3 and seed % 3 == 0:
                ids[2] = ids[0]  # an id that comes back is a new sample all the same
            write_trace(trace, samples, header, ids)
            addrs = [a for s in samples for _, a in s]
            for across in (False, True):
                opts = ["--across-samples"] if across else []
                what = f"seed {seed}{' (header)' if header else ''}{' --across-samples' if across else ''}"
                p = edan("locality", "--json", "--reuse", "--footprint", "--zoom", *opts, trace)
                check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr}")
                r = json.loads(p.stdout)
                u, fp, z = r["reuse"], r["footprint"], r["zoom"]
                streams = [addrs] if across else [[a for _, a in s] for s in samples]
                dist, rt, cold, dists, windows, f = naive_reuse(streams, len(u["distance_histogram"]))
                check(u["accesses"] == len(addrs) and u["samples"] == len(streams), f"{what}: accesses, samples "
                      f"{u['accesses']} {u['samples']}")
                check(u["distance_histogram"] == dist and u["cold"] == cold,
                      f"{what}: stack distances {u['distance_histogram']} cold {u['cold']}, naive {dist} {cold}")
                check(u["reuse_time_histogram"] == rt, f"{what}: reuse times {u['reuse_time_histogram']}, naive {rt}")
                w = u["footprint_windows"]
                check(w["window"] == windows and all(abs(x - y) <= 1e-9 * y for x, y in zip(w["blocks"], f)),
                      f"{what}: F(W) {w}, naive {windows} {f}")
                check(u["blocks"] == len({a >> 6 for a in addrs}), f"{what}: distinct blocks")
                check(fp["bytes"] == len(set(addrs)) and fp["lines"] == len({a >> 6 for a in addrs}) and
                      fp["accesses"] == len(addrs), f"{what}: footprint {fp['bytes']} bytes {fp['lines']} lines")
                want = naive_zoom([a >> 6 for a in addrs], dists, 512, 0.1, 16384, None)
                got = z["regions"]
                same = len(got) == len(want)
                for g, x in zip(got, want):
                    same = same and all(g[k] == x[k] for k in ("id", "parent", "level", "lo", "hi", "blocks",
                                                               "accesses", "reuses"))
                    same = same and abs(g["distance_mean"] - x["distance_mean"]) <= 1e-9 * max(1, x["distance_mean"])
                check(same, f"{what}: zoom regions {[(g['id'], g['lo'], g['hi'], g['accesses']) for g in got]}, naive "
                      f"{[(x['id'], x['lo'], x['hi'], x['accesses']) for x in want]}")
        # the same trace through edan analyze: the report matches the schema
        p = edan("analyze", "--json", "--reuse", "--zoom", "--footprint", trace)
        check(p.returncode == 0, f"analyze of a MemGaze trace: {p.stderr}")
        validate_schema(json.loads(p.stdout), "analyze of a MemGaze trace")
        p = edan("analyze", "--json", "--zoom", "--memgaze-compat", trace)
        check(p.returncode == 0, f"analyze --memgaze-compat: {p.stderr}")
        validate_schema(json.loads(p.stdout), "--memgaze-compat")


def naive_class_windows(streams, cls_of):
    """F(W) and F_c(W) of the loads' 64-byte blocks (stores left out), each stream cut into windows on its own:
    the mean over all windows of the distinct blocks, of all loads and of each class's."""
    streams = [[(ip, a >> 6) for ip, a in s if cls_of[ip] != 90] for s in streams]
    longest = max(len(s) for s in streams)
    out = {"window": [], "blocks": [], "constant": [], "strided": [], "irregular": []}
    w = 1
    while True:
        count, all_, per = 0, 0, {0: 0, 1: 0, 2: 0}
        for s in streams:
            for i in range(0, len(s), w):
                win = s[i:i + w]
                count += 1
                all_ += len({b for _, b in win})
                for c in per:
                    per[c] += len({b for ip, b in win if cls_of[ip] == c})
        out["window"].append(w)
        out["blocks"].append(all_ / count)
        for c, name in ((0, "constant"), (1, "strided"), (2, "irregular")):
            out[name].append(per[c] / count)
        if w >= longest:
            return out
        w *= 2


def test_classes():
    """--load-classes: every load of a listed instruction takes its class, an unlisted one edan's own rules; the
    footprint by class over windows against a naive count, each sample on its own and --across-samples."""
    with tempfile.TemporaryDirectory() as d:
        for seed in (3, 4, 5):
            samples = random_samples(seed)
            trace, classes = os.path.join(d, "c.trace"), os.path.join(d, "c.binanlys")
            write_trace(trace, samples, seed == 4)
            given = {0x4983f7: 1, 0x498412: 2, 0x498409: 0, 0x4984a0: 90, 0x401000: 1}
            with open(classes, "w") as f:
                for ip, c in given.items():
                    f.write(f"{ip:#x} {c} 0x0 0x8 0x0 kernel\n")
            name = {0: "constant", 1: "strided", 2: "irregular", 90: "store"}
            n = {}
            for s in samples:
                for ip, _ in s:
                    n[ip] = n.get(ip, 0) + 1
            for across in (False, True):
                what = f"seed {seed}{' --across-samples' if across else ''}"
                opts = ["--across-samples"] if across else []
                p = edan("locality", "--json", "--classes", "--load-classes=" + classes, *opts, trace)
                check(p.returncode == 0, f"{what}: --classes --load-classes: {p.stderr}")
                lc = json.loads(p.stdout)["load_classes"]
                rows = {row["pc"]: row for row in lc["loads"]}
                for ip, c in given.items():
                    if ip in n and c != 90:
                        check(ip in rows and rows[ip]["class"] == name[c] and rows[ip]["accesses"] == n[ip],
                              f"{what}: load {ip:#x}: {rows.get(ip)}, given {name[c]}, {n[ip]} loads")
                stores = n.get(0x4984a0, 0)
                check(lc["all"]["store"]["accesses"] == stores and lc["all"]["store"]["static"] == (stores > 0),
                      f"{what}: class 90: stores {lc['all']['store']}, {stores} given")
                check(lc["all"]["load_accesses"] == sum(n.values()) - stores, f"{what}: the loads")
                streams = [[x for s in samples for x in s]] if across else samples
                want = naive_class_windows(streams, given)
                got = lc["footprint_windows"]
                same = got["window"] == want["window"] and got["accesses"] == sum(n.values()) - stores
                for k in ("blocks", "constant", "strided", "irregular"):
                    same = same and all(abs(x - y) <= 1e-9 * max(y, 1) for x, y in zip(got[k], want[k]))
                check(same, f"{what}: F_c(W) {got}, naive {want}")
        # a load the file does not list: edan's own rules
        with open(classes, "w") as f:
            f.write("0x4983f7 1 0x0 0x8 0x0\n")
        p = edan("locality", "--json", "--classes", "--load-classes=" + classes, trace)
        lc = json.loads(p.stdout)["load_classes"]
        check(p.returncode == 0 and {r["pc"] for r in lc["loads"]} == set(n) and lc["all"]["store"]["accesses"] == 0,
              f"unlisted loads are classified all the same: {[r['pc'] for r in lc['loads']]}")
        p = edan("locality", "--classes", "--load-classes=" + os.path.join(d, "none.binanlys"), trace, expect=2)
        check(p.returncode == 2 and "none.binanlys" in p.stderr, f"a missing class file: {p.returncode} {p.stderr!r}")


def parse_rud(path):
    """MemGaze's --outputZoom file: a node a line (see the README beside it)."""
    nodes = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\d+ Level (\d+) ID (\S+) Parent (\S+) - \(\d+,\d+\) MemoryArea ([0-9a-f]+)-([0-9a-f]+) "
                         r"Block size (\d+) (.*)", line)
            check(m is not None, f"{path}: a line of MemGaze's output: {line[:80]!r}")
            rest = m.group(7)
            n = dict(id=m.group(2), parent=None if m.group(3) == "-" else m.group(3), level=int(m.group(1)),
                     lo=int(m.group(4), 16), hi=int(m.group(5), 16) + 1, page_bytes=int(m.group(6)), final=False)
            if "skip this" in rest:
                n["accesses"] = None
            elif (c := re.search(r"blockCount (\d+) Access (\d+)", rest)):
                n.update(pages=int(c.group(1)), accesses=int(c.group(2)), final=True)
            else:  # the level-1 line lists its pages with their ranges, the others "pK:LOADS"
                n["accesses"] = sum(int(x) for x in re.findall(r"p\d+:\s*(?:[0-9a-f]+-[0-9a-f]+ )?(\d+)", rest))
            nodes.append(n)
    return nodes


def compare_tree(what, z, want, min_finals):
    """edan's --memgaze-compat report z against MemGaze's nodes."""
    tree = z["tree"]
    check(len(tree) == len(want), f"{what}: {len(tree)} nodes, MemGaze {len(want)}")
    for g, w in zip(tree, want):
        check(all(g[k] == v for k, v in w.items()), f"{what}: node {g} != MemGaze's {w}")
    finals = [dict(id=w["id"], lo=w["lo"], hi=w["hi"], blocks=w["pages"], accesses=w["accesses"])
              for w in want if w["final"]]
    check(z["regions"] == finals and len(finals) >= min_finals,
          f"{what}: {len(z['regions'])} final regions, MemGaze {len(finals)}")


def test_compat():
    trace = os.path.join(DATA, "minivite-5k.trace")
    with tempfile.TemporaryDirectory() as d:
        # the same loads with MemGaze's later header and DSO column
        headed = os.path.join(d, "headed.trace")
        with open(trace) as f, open(headed, "w") as g:
            g.write("DSO: <name> <id>\n/opt/minivite 0\nTRACE: <IP> <Addrs> <CPU> <time> <sampleID> <DSO_id>\n")
            for line in f:
                g.write(line.rstrip("\n") + " 0\n")
        for heap in ("7f0000000000", "7ff000000000"):
            want = parse_rud(os.path.join(DATA, f"minivite-5k.heap-{heap}.rud.txt"))
            for t in (trace, headed):
                opts = [] if heap == "7f0000000000" and t == trace else ["--heap-end=0x" + heap]
                p = edan("locality", "--json", "--zoom", "--memgaze-compat", *opts, t)
                check(p.returncode == 0, f"--memgaze-compat {opts}: {p.stderr}")
                z = json.loads(p.stdout)["zoom"]
                compare_tree(f"{os.path.basename(t)} heap end {heap}", z, want, 30)
                check(z["accesses"] + z["outside"] == 5155 and not z["stopped"], f"{heap}: loads")
        p = edan("locality", "--memgaze-compat", trace)
        check(p.returncode == 0 and "final" in p.stdout and "A0000000" in p.stdout, "--memgaze-compat: the text")
    # a trace made for MemGaze's quirks: 25 root pages alone (wider than 64 MiB), the 18th named R and its
    # children named by letters again
    want = parse_rud(os.path.join(DATA, "quirks.heap-7f0000000000.rud.txt"))
    p = edan("locality", "--json", "--zoom", "--memgaze-compat", os.path.join(DATA, "quirks.trace"))
    check(p.returncode == 0, f"quirks.trace: {p.stderr}")
    z = json.loads(p.stdout)["zoom"]
    compare_tree("quirks.trace", z, want, 25)
    check(any(n["level"] == 3 and n["parent"] == "R" and n["id"] == "A" for n in z["tree"]),
          "quirks.trace: the children of the root's child named R are named A, B, ...")


def test_bad():
    """Bad MemGaze input: exit status 2, the file and its line named, no report."""
    good = "0x4983f7 0x7fc4a630cce8 3 13964463.803418284 36380\n"
    cases = [
        ("an address that is not a number", good * 2 + "0x4983f7 0x7fc4zz 3 13964463.803418284 36380\n", 3),
        ("a line cut short", good + "0x4983f7 0x7fc4a630cce8 3\n", 2),
        ("a last line without its newline", good * 3 + good.rstrip("\n"), 4),
        ("a header after the first load", good + "TRACE: <IP> <Addrs>\n" + good, 2),
        ("a sample id out of range", good + "0x4983f7 0x7fc4a630cce8 3 13964463.8 99999999999\n", 2),
        ("a DSO id the header does not list", "DSO: <name> <id>\n/app 0\nTRACE: x\n" + good.rstrip("\n") + " 7\n", 4),
    ]
    with tempfile.TemporaryDirectory() as d:
        for what, text, line in cases:
            path = os.path.join(d, "bad.trace")
            with open(path, "w") as f:
                f.write(text)
            for opts in (["--reuse", "--footprint", "--zoom"], ["--zoom", "--memgaze-compat"], []):
                p = edan("locality", *opts, path, expect=2)
                check(p.returncode == 2 and f"{path}:{line}:" in p.stderr and p.stdout == "",
                      f"{what} {opts}: exit {p.returncode}, {p.stderr!r}")


run_category({"streams": test_streams, "classes": test_classes, "compat": test_compat, "bad": test_bad})
