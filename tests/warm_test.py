#!/usr/bin/env python3
"""Warm state (docs/model.md, issue 37 part 2): a filtered region's caches and branch predictor follow the whole
program, and --cold gives the cold start of the EDAN paper's tool. On examples/evict, whose kernel is called in a
loop with a pass between calls that evicts its array:

- the warm region's eDAG W equals the kernel's row of a whole-program --functions run, and a naive LRU cache
  simulated in Python over the whole program's text trace; --cold's W equals the same simulation of the kernel's
  accesses alone;
- the timing model's misses at each level equal the kernel's W in whole-program runs with that level's caches, and
  its cycles are within 1 % of the kernel's row of the whole-program prediction (the rows are not exactly
  comparable: at each entry the whole program's window holds the caller's instructions, the region's the last
  call's), where --cold's are off by far more;
- a recorded trace keeps the warm records (format version 5) and analyses as the online run; --cold, text traces
  and traces recorded with --cold are the cold start.

usage: warm_test.py BUILD_DIR CATEGORY   (categories: evict, traces)
"""
import json
import os
import subprocess
import tempfile

from realrun_lib import EX, check, edan, run_category, validate_schema

EVICT = os.path.join(EX, "evict")
ARGS = ["6", "512"]  # 6 calls, a 512 KiB buffer: larger than every cache below
CACHE = "32K,ways=8,write=back,alloc=yes"
MODEL = ["--machine=gem5-validation", "--mem-latency=50,300"]
MACHINE = MODEL + ["--exact"]  # compared with whole runs' rows: the full schedule (sampled rows are estimates)


def run(*opts):
    p = edan("run", "--json", *opts, EVICT, *ARGS)
    check(p.returncode == 0, f"edan run {opts}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def kernel_row(report):
    rows = [f for f in report["functions"] if f["name"] == "kernel"]
    return rows[0] if rows else None


def size_of(mnemonic):
    """Bytes a RISC-V load, store or AMO accesses, from its mnemonic (the text format has no sizes)."""
    m = mnemonic.split(".")
    base = m[0]
    if base in ("lr", "sc") or base.startswith("amo"):
        return 8 if m[1] == "d" else 4
    for size, names in ((8, ("ld", "sd", "fld", "fsd")), (4, ("lw", "lwu", "sw", "flw", "fsw")),
                        (2, ("lh", "lhu", "sh")), (1, ("lb", "lbu", "sb"))):
        if base in names:
            return size
    raise ValueError(f"not a memory instruction: {mnemonic}")


def naive_misses(trace, lo, hi, warm, size=32768, ways=8, line=64):
    """A naive LRU cache (lists of lines per set) over every access of a text trace in order, or (warm False) over
    the loads of [lo, hi) alone: the misses of the loads of [lo, hi), the kernel's array, which only the kernel
    loads. Write-back and write-allocate: a store fills its line as a load does."""
    sets = [[] for _ in range(size // (line * ways))]
    misses = 0
    with open(trace) as f:
        for text in f:
            if text.startswith("#"):
                continue
            fields = text.rstrip("\n").split(";")
            if len(fields) < 3 or not fields[-1].startswith("0x"):
                continue
            mnemonic = fields[-2].split()[0]
            addr = int(fields[-1], 16)
            kernel = lo <= addr < hi and not mnemonic.startswith(("s", "fs"))
            if not warm and not kernel:
                continue
            n = size_of(mnemonic)
            missed = False
            for ln in range(addr // line, (addr + n - 1) // line + 1):
                s = sets[ln % len(sets)]
                if ln in s:
                    s.remove(ln)
                else:
                    missed = True
                    if len(s) == ways:
                        s.pop()
                s.insert(0, ln)
            misses += kernel and missed
    return misses


def array_range():
    """[lo, hi) of evict.c's array a (a local symbol: nm's 'b')."""
    p = subprocess.run(["riscv64-linux-gnu-nm", "-S", EVICT], capture_output=True, text=True)
    for ln in p.stdout.splitlines():
        parts = ln.split()
        if len(parts) == 4 and parts[3] == "a" and parts[2] in "bB":
            return int(parts[0], 16), int(parts[0], 16) + int(parts[1], 16)
    check(False, f"no symbol a in {EVICT}: {p.stdout[:200]}")
    return 0, 0


def test_evict():
    warm = run("--filter=kernel", "--cache=" + CACHE, *MACHINE)
    cold = run("--filter=kernel", "--cold", "--cache=" + CACHE, *MACHINE)
    whole = run("--functions=kernel", "--cache=" + CACHE, *MACHINE)
    validate_schema(warm, "warm region")
    validate_schema(cold, "cold region")
    check(warm["source"]["start"] == "warm" and cold["source"]["start"] == "cold" and "start" not in whole["source"],
          f"the start state in the header: {warm['source']} {cold['source']} {whole['source']}")
    w_warm, w_cold = warm["configurations"][0]["W"], cold["configurations"][0]["W"]
    row = kernel_row(whole)
    check(row is not None and row["inclusive"]["W"] == w_warm and row["exclusive"]["W"] == w_warm and
          row["inclusive"]["instructions"] == warm["configurations"][0]["vertices"],
          f"warm W {w_warm} = the kernel's row of the whole program {row}")
    # every call but the first finds its array evicted: cold, the array stays cached after the first call
    check(w_cold * 4 < w_warm, f"cold W {w_cold} far below warm {w_warm}")

    # a naive reference: an LRU cache in Python over the whole program's text trace
    lo, hi = array_range()
    with tempfile.TemporaryDirectory() as d:
        txt = os.path.join(d, "whole.txt")
        p = edan("record", "--text", "-o", txt, EVICT, *ARGS)
        check(p.returncode == 0, f"record --text: {p.stderr}")
        ref_warm, ref_cold = naive_misses(txt, lo, hi, True), naive_misses(txt, lo, hi, False)
    check(w_warm == ref_warm, f"warm W {w_warm} = the naive whole-program LRU's {ref_warm}")
    check(w_cold == ref_cold, f"--cold W {w_cold} = the naive LRU of the kernel's accesses alone {ref_cold}")

    # a level's hits and misses are its demand accesses: with write-back, write-allocate levels (the machine's), each
    # first-level miss is one access of the second, whatever dirty lines the warm part left for write-backs to hit
    two = "--cache=32K,ways=8,write=back,alloc=yes+1M,ways=8,write=back,alloc=yes"
    matmul = [os.path.join(EX, "matmul"), "100"]  # its stores leave dirty lines, whose write-backs hit the L2
    runs = [("evict warm", run("--filter=kernel", "--cache=machine", *MACHINE)), ("evict cold", cold),
            ("evict whole", whole)]
    for opts in (["--filter=kernel", two], ["--filter=kernel", "--cold", two], [two]):
        p = edan("run", "--json", *opts, *matmul)
        check(p.returncode == 0, f"matmul {opts}: {p.stderr}")
        runs.append(("matmul " + " ".join(opts[:-1]), json.loads(p.stdout.strip().splitlines()[-1])))
    for name, r in runs:
        for c in r["configurations"]:
            lv = c["cache_levels"]
            check(len(lv) < 2 or lv[1]["hits"] + lv[1]["misses"] == lv[0]["misses"],
                  f"{name} {c['cache']}: L2 accesses {lv[1:2]} = L1 misses {lv[0]['misses']}")
    # the timing model: misses per level equal the kernel's W with that level's caches over the whole program
    levels = warm["prediction"]["counts"]["levels"]
    for i, cache in enumerate(("64K,ways=2,write=back,alloc=yes", "machine")):
        r = kernel_row(run("--functions=kernel", "--cache=" + cache, *MACHINE))
        check(r is not None and levels[i]["misses"] == r["inclusive"]["W"],
              f"level {i + 1}: warm misses {levels[i]['misses']} = the kernel's W over the whole program {r}")
    pred_row = [f for f in whole["prediction"]["functions"] if f["name"] == "kernel"][0]
    for k, ns in enumerate(warm["prediction"]["mem_latency_ns"]):
        got, want, c = warm["prediction"]["cycles"][k], pred_row["cycles"][k], cold["prediction"]["cycles"][k]
        check(abs(got - want) <= 0.01 * want, f"{ns} ns: warm {got} cycles within 1 % of the kernel's row {want}")
        check(abs(c - want) > 0.1 * want, f"{ns} ns: cold {c} cycles far from the kernel's row {want}")
    check(warm["prediction"]["counts"]["instructions"] == pred_row["instructions"], "the region is the kernel's row")
    # sampled: the caches see every record, warm ones too, so the counts are the exact model's
    s = run("--filter=kernel", "--sampled", "--sample-timing=100,200,1000,0", *MODEL)
    check(s["prediction"]["counts"] == warm["prediction"]["counts"], "sampled counts = exact counts, warm")

    # the text header says it; a run without a filter says nothing
    for opts, line in ((["--filter=kernel"], "  start       warm "), (["--filter=kernel", "--cold"], "  start       cold ")):
        p = edan("run", *opts, EVICT, *ARGS)
        check(line in p.stdout, f"text header with {opts}: {p.stdout[:400]}")
    p = edan("run", EVICT, "1", "8")
    check("  start " not in p.stdout, "no start line without a filter")


def test_traces():
    opts = ["--cache=none;" + CACHE, *MACHINE, "--critical-path"]
    online = run("--filter=kernel", *opts)
    online_cold = run("--filter=kernel", "--cold", *opts)

    def analyze(path, *extra):
        p = edan("analyze", "--json", *opts, *extra, path)
        check(p.returncode == 0, f"analyze {path} {extra}: {p.stderr}")
        r = json.loads(p.stdout)
        r["prediction"]["machine"]["file"] = online["prediction"]["machine"]["file"]
        return r

    def same(a, b):
        return {k: v for k, v in a.items() if k != "source"} == {k: v for k, v in b.items() if k != "source"}

    with tempfile.TemporaryDirectory() as d:
        t, tc, txt, t2 = (os.path.join(d, n) for n in ("w.edt", "c.edt", "w.txt", "w2.edt"))
        check(edan("record", "--filter=kernel", "-o", t, EVICT, *ARGS).returncode == 0, "record")
        check(edan("record", "--filter=kernel", "--cold", "-o", tc, EVICT, *ARGS).returncode == 0, "record --cold")
        versions = []
        for path in (t, tc):
            with open(path, "rb") as f:
                versions.append(int.from_bytes(f.read(12)[8:12], "little"))
        check(versions == [5, 3], f"format versions: warm records 5, none 3: {versions}")
        a = analyze(t)
        check(same(a, online) and a["source"]["start"] == "warm", "a trace with warm records analyses as online")
        check(same(analyze(t, "--cold"), online_cold), "analyze --cold leaves its warm records out")
        check(same(analyze(tc), online_cold) and analyze(tc)["source"]["start"] == "cold",
              "a trace recorded with --cold is the cold start")
        check(edan("convert", "--binary", t, t2).returncode == 0 and same(analyze(t2), online),
              "convert --binary keeps the warm records")
        # the original text format holds the region alone: a cold trace
        check(edan("convert", t, txt).returncode == 0, "convert to text")
        p = edan("analyze", "--json", "--cache=none;" + CACHE, txt)
        x = json.loads(p.stdout) if p.returncode == 0 else {}
        check(x.get("configurations") == run("--filter=kernel", "--cold", "--cache=none;" + CACHE)["configurations"],
              "a text trace is the cold start")
        # --per-function reads a trace twice: its count leaves the warm records out, as the region's run does
        p = edan("analyze", "--json", "--per-function", t)
        r = json.loads(p.stdout) if p.returncode == 0 else {}
        names = [f["name"] for f in r.get("functions", [])]
        check(names == ["kernel"], f"--per-function of a warm trace: the region's functions alone: {names}")


run_category({"evict": test_evict, "traces": test_traces})
