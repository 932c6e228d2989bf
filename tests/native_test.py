#!/usr/bin/env python3
"""Native programs (issue 39): x86-64 (and AArch64) binaries under the real qemu-x86_64 (qemu-aarch64)
with the real plugin.

  x86_deps     hand-written x86-64 (tests/native/x86_deps.S): edan dot's edges are exactly the expected
               list (partial registers, flags, div, push/pop, rep movsb), online and from a trace
  x86_wide     hand-written x86-64 (tests/native/x86_wide.S) that the one-lane analysis takes on its short paths
               (16-byte SSE accesses, three-source loads and stores, add r, [m], bytes rep stosb wrote): its
               results equal the multi-lane path's, online and offline, and W and D a naive longest path
  x86_stores   hand-written x86-64 (tests/native/x86_stores.S): SSE, AVX, x87 stores whose destination Capstone
               4.0.2 calls read only are stores (the load after each depends on it), test is a load, cmpxchg
               reads and writes: the counts of loads, stores and read-modify-writes exactly
  x86_kernels  examples/pointer_chase.c and stream.c built with the host's gcc -O2, statically and
               dynamically linked: D = n and D <= 3, W and D against a naive longest path over the
               eDAG edan dot draws, source lines of a position-independent program
  x86_libraries a function of a shared library the program loads (built here, -shared): --filter by its
               name and by LIB:NAME (D = n of its pointer chase), online and from a trace (version 6, which
               carries the objects); the whole program's model names it, main and the loader, online and
               offline; names found nowhere: exit status 2 naming LIB:NAME
  a64_libraries the same with aarch64-linux-gnu-gcc
  a64_deps     hand-written AArch64 (tests/native/a64_deps.S): ldp/stp, flags, writeback, cmp/cmn/tst
  a64_kernels  the same kernels built with aarch64-linux-gnu-gcc, static and dynamic (Debian's sysroot)
  uops         hand-written x86-64 (tests/native/x86_uops.S): the timing model's micro-operations of
               add [rbx], rax and add rax, [rbx+8] against the same work as separate instructions, exactly
  dividers     sqrt loops built with the host's gcc: a divider busy [issue_interval] cycles per operation,
               independent square roots one every interval, dependent ones one every latency, exactly
  machines     machines/{zen4,spr,neoverse-v1}{,-cxl}.ini: listed, and a cold pointer chase under each (the
               CXL variant slower by its added latency per line from memory)
  errors       an unsupported ISA, a missing emulator, the text format refused for native programs, a
               library's function (--functions=LIB:NAME) of a statically linked program refused once
  validation   validation/thirdparty/kernel_timer.h on tests/native/timed_kernel.c (host gcc): the timer and
               its flush add no instruction to the region --filter traces (the same count as the bare call)
               and run outside it (the whole program longer by at least the flush's loop); validation/
               native.py's list reader, measure_rounds() and predict() on it with arguments and an exit status
               other than 0, and its refusals (no suite, a directory that is not a checkout: exit status 2)

Run as native_test.py BUILD_DIR CATEGORY; prints 'N passed, N failed'.
"""
import csv
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from realrun_lib import BUILD, EDAN, check, edan, run_category

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
NATIVE = os.path.join(SRC, "tests", "native")


def build(cc, out, *srcs_and_flags):
    p = subprocess.run([cc, *srcs_and_flags, "-o", out], capture_output=True, text=True)
    check(p.returncode == 0, f"{cc} {' '.join(srcs_and_flags)}: {p.stderr}")
    return out


def dot_graph(trace, *more):
    """The eDAG edan dot draws: {vertex: label}, {vertex: set of predecessors}, set of memory vertices."""
    p = edan("dot", *more, trace)
    check(p.returncode == 0, f"edan dot {trace}: {p.stderr}")
    labels, preds, mem = {}, {}, set()
    for line in p.stdout.splitlines():
        m = re.match(r'\s*v(\d+) \[label="\d+: (.*?)"(.*)\];', line)
        if m:
            v = int(m.group(1))
            labels[v] = m.group(2)
            preds.setdefault(v, set())
            if "#e34a33" in m.group(3):
                mem.add(v)
        m = re.match(r"\s*v(\d+) -> v(\d+)", line)
        if m:
            preds.setdefault(int(m.group(2)), set()).add(int(m.group(1)))
    return labels, preds, mem


def naive_w_d(preds, mem):
    """W and D by the definition: memory vertices, and the most of them on any path (vertices in trace order)."""
    depth = {}
    for v in sorted(preds):
        depth[v] = max((depth[u] for u in preds[v]), default=0) + (v in mem)
    return len(mem), max(depth.values(), default=0)


def analyze(*args):
    p = edan(*args)
    check(p.returncode == 0, f"edan {' '.join(args)}: {p.stderr}")
    lines = p.stdout.strip().splitlines()
    return json.loads(lines[-1])["configurations"][0] if lines else {}


# ---- x86-64 --------------------------------------------------------------------------------------------

# kernel's vertices (tests/native/x86_deps.S) and the predecessors each must have, no more, no fewer
X86_EXPECTED = {
    0: set(), 1: set(), 2: {0}, 3: {1, 2}, 4: {3}, 5: {4}, 6: set(), 7: set(), 8: set(), 9: {6, 7, 8},
    10: {9}, 11: {10}, 12: {11}, 13: {12}, 14: {13}, 15: set(), 16: set(), 17: {15}, 18: set(),
}
# rep movsb, rcx = 8: QEMU executes it once per byte and once more to find rcx = 0, each execution a load
# vertex and a store vertex (the last pair accessing nothing)
# (the direction flag is no status flag: no edge from div's flags; rep's updates of rdi, rsi and rcx are address
# updates, as if instructions of their own: each load reads them as 17, 16 and 18 left them)
for k in range(9):
    load, store = 19 + 2 * k, 20 + 2 * k
    X86_EXPECTED[load] = {16, 17, 18} | ({14} if k < 8 else set())  # and the byte 14 stored
    X86_EXPECTED[store] = {load}                                     # what the load read and passes on
X86_EXPECTED[37] = {17, 20, 22, 24, 26, 28, 30, 32, 34}  # rdi (17, moved by rep) and the 8 bytes the stores wrote
X86_EXPECTED[38] = set()  # ret: rsp, which push and pop only moved (address updates), as before the kernel


def check_edges(what, labels, preds, expected):
    check(len(labels) == len(expected), f"{what}: {len(labels)} vertices, expected {len(expected)}")
    for v, want in sorted(expected.items()):
        got = preds.get(v, set())
        check(got == want, f"{what}: vertex {v} ({labels.get(v)}) has predecessors {sorted(got)}, "
                           f"expected {sorted(want)}")


def test_x86_deps():
    with tempfile.TemporaryDirectory() as d:
        prog = build("gcc", os.path.join(d, "x86_deps"), "-nostdlib", "-static", "-g",
                     os.path.join(NATIVE, "x86_deps.S"))
        trace = os.path.join(d, "t.edt")
        p = edan("record", "--filter=kernel", "-o", trace, prog)
        check(p.returncode == 0 and "warning" not in p.stderr, f"record: {p.returncode} {p.stderr}")
        labels, preds, mem = dot_graph(trace)
        check_edges("x86_deps", labels, preds, X86_EXPECTED)
        check(labels.get(2) == "mov ah, al" and labels.get(9) == "div rcx" and
              labels.get(20, "").endswith("(2nd access)"), f"x86_deps: labels {labels.get(2)!r} {labels.get(9)!r}")
        # memory vertices: push, pop, the store, 8 loads and 8 stores, the load back, ret (the last pair accesses none)
        check(mem == {11, 12, 14, *range(19, 35), 37, 38}, f"x86_deps: memory vertices {sorted(mem)}")
        w, dd = naive_w_d(preds, mem)
        off = analyze("analyze", "--json", trace)
        on = {}
        p = edan("run", "--json", "--filter=kernel", prog)
        if p.returncode == 0:
            on = json.loads(p.stdout.strip().splitlines()[-1])["configurations"][0]
        # D: push, pop, the store, a load and a store of rep movsb, the load back
        check((off.get("W"), off.get("D")) == (w, dd) == (on.get("W"), on.get("D")) and dd == 6,
              f"x86_deps: W, D trace {off.get('W')}, {off.get('D')}; online {on.get('W')}, {on.get('D')}; "
              f"naive {w}, {dd} (expected D = 6)")
        # the trace names its ISA (a trace that may hold warm records: version 5), and the text format refuses it
        with open(trace, "rb") as f:
            head = f.read(64)
        check(int.from_bytes(head[8:12], "little") == 5 and int.from_bytes(head[16:20], "little") == 2,
              f"x86_deps: header version and ISA {head[8:12].hex()} {head[16:20].hex()}")
        p = edan("convert", trace, os.path.join(d, "t.txt"), expect=2)
        check(p.returncode == 2 and "x86-64" in p.stderr and "holds RISC-V only" in p.stderr and
              not os.path.exists(os.path.join(d, "t.txt")), f"convert to text: {p.returncode} {p.stderr}")
        p = edan("convert", "--binary", trace, os.path.join(d, "u.edt"))
        check(p.returncode == 0 and analyze("analyze", "--json", os.path.join(d, "u.edt")).get("D") == 6,
              f"convert binary to binary keeps the ISA: {p.stderr}")


def test_x86_wide():
    with tempfile.TemporaryDirectory() as d:
        prog = build("gcc", os.path.join(d, "x86_wide"), "-nostdlib", "-static", "-g",
                     os.path.join(NATIVE, "x86_wide.S"))
        trace = os.path.join(d, "t.edt")
        p = edan("record", "-o", trace, prog)
        check(p.returncode == 0 and "warning" not in p.stderr, f"x86_wide record: {p.returncode} {p.stderr}")
        for cache in ("none", "32K", "4K,ways=2,write=through,alloc=no", "32K,ways=8,write=back,alloc=yes+2M"):
            one = analyze("analyze", "--json", "--cache=" + cache, trace)
            # two lanes take the multi-lane path (edag_sweep.c), which has none of the one-lane short paths
            p = edan("analyze", "--json", f"--cache={cache};{cache}", trace)
            check(p.returncode == 0, f"x86_wide two lanes: {p.stderr}")
            lanes = json.loads(p.stdout.strip().splitlines()[-1])["configurations"] if p.returncode == 0 else []
            for k, lane in enumerate(lanes):
                bad = sorted(x for x in one if x != "cache" and lane.get(x) != one[x])
                check(not bad, f"x86_wide --cache={cache}: one lane and lane {k} of two differ in {bad}")
            p = edan("run", "--json", "--cache=" + cache, prog)
            on = json.loads(p.stdout.strip().splitlines()[-1])["configurations"][0] if p.returncode == 0 else {}
            bad = sorted(x for x in one if on.get(x) != one[x])
            check(not bad and one.get("W", 0) > 0, f"x86_wide --cache={cache}: online and offline differ in {bad}")
        labels, preds, mem = dot_graph(trace, "--max-vertices=100000")
        w, dd = naive_w_d(preds, mem)
        r = analyze("analyze", "--json", trace)
        check((r.get("W"), r.get("D")) == (w, dd) and dd > 1,
              f"x86_wide: W, D {r.get('W')}, {r.get('D')}; naive {w}, {dd}")


def test_x86_stores():
    with tempfile.TemporaryDirectory() as d:
        prog = build("gcc", os.path.join(d, "x86_stores"), "-nostdlib", "-static", "-g",
                     os.path.join(NATIVE, "x86_stores.S"))
        trace = os.path.join(d, "t.edt")
        p = edan("record", "--filter=kernel", "-o", trace, prog)
        check(p.returncode == 0 and "warning" not in p.stderr, f"x86_stores record: {p.returncode} {p.stderr}")
        labels, preds, mem = dot_graph(trace)
        order = sorted(labels)
        backs = [v for v in order if labels[v].startswith("movzx eax, byte ptr [rbx")]
        check(len(backs) == 25, f"x86_stores: {len(backs)} loads back, expected 25")
        for v in backs:  # the store just before it is its byte's last writer
            check(v - 1 in mem and v - 1 in preds[v], f"x86_stores: {labels[v]} has predecessors {sorted(preds[v])}, "
                                                       f"not the store {labels.get(v - 1)!r}")
        at = {labels[v].split(" ")[0]: v for v in order}
        test = at.get("test", -9)  # mov [m], rdx; test [m], 1; mov rcx, [m]
        after = preds.get(test + 1, set())
        check(test not in after and test - 1 in after and test - 1 in mem and test in mem,
              f"x86_stores: the load after test has predecessors {sorted(after)}")
        cas = at.get("cmpxchg")
        check(cas is not None and cas in preds.get(cas + 1, set()), "x86_stores: the load after cmpxchg misses it")
        for how in (["run", "--json", "--filter=kernel", prog], ["analyze", "--json", trace]):
            c = analyze(*how)
            # loads: the 25 back, test, the two after the mov and the cmpxchg, ret; stores: 25 and the mov
            check((c.get("loads"), c.get("stores"), c.get("atomics")) == (29, 26, 1),
                  f"x86_stores {how[0]}: loads, stores, read-modify-writes {c.get('loads')}, {c.get('stores')}, "
                  f"{c.get('atomics')}; expected 29, 26, 1")


def test_kernels(cc, isa, static_ok=True, extra=()):
    with tempfile.TemporaryDirectory() as d:
        for link in (["-static"] if static_ok else []) + [[]]:
            link = link if isinstance(link, list) else [link]
            kind = "static" if link else "dynamic"
            chase = build(cc, os.path.join(d, f"chase_{kind}"), "-O2", "-g", *link, *extra,
                          os.path.join(SRC, "examples", "pointer_chase.c"))
            stream = build(cc, os.path.join(d, f"stream_{kind}"), "-O2", "-g", *link, *extra,
                           os.path.join(SRC, "examples", "stream.c"))
            for n in (50, 400):
                r = analyze("run", "--json", "--filter=kernel", chase, str(n))
                # n dependent loads; a call's return address is one more load where the ISA keeps it in memory
                check(r.get("D") == n, f"{isa} {kind} pointer chase n={n}: D = {r.get('D')}, expected {n}")
                check(r.get("loads") in (n, n + 1) and r.get("stores") == 0,
                      f"{isa} {kind} pointer chase n={n}: loads {r.get('loads')} stores {r.get('stores')}")
                r = analyze("run", "--json", "--filter=kernel", stream, str(n))
                check(0 < r.get("D", 0) <= 3 and r.get("stores") == n and r.get("loads", 0) >= 2 * n,
                      f"{isa} {kind} stream n={n}: D {r.get('D')}, loads {r.get('loads')}, stores {r.get('stores')}")
            # every instruction the whole program runs is decoded (AArch64: no SVE or MTE memcpy on QEMU's CPU)
            p = edan("run", chase, "100")
            check(p.returncode == 0 and "unknown to the decoder" not in p.stderr,
                  f"{isa} {kind} pointer chase, whole program: {p.stderr[-400:]}")
            # the triad's flops (one add and one multiply, or one fused multiply-add, per element), and its loop
            p = edan("run", "--projection", "--machine=server-ddr5", "--filter=kernel", stream, "400")
            check(p.returncode == 0 and re.search(r"flops / weighted\s+800 / 800", p.stdout) and
                  re.search(r"#0 stream\.c:\d+ \(kernel\)", p.stdout),
                  f"{isa} {kind} stream: flops and loop: {p.stdout[-900:]} {p.stderr}")
            # a dynamic program's loader and libraries are named in every report (their symbols, else the
            # object's file): the model's functions and lines (the loader's source lines from its debug file's
            # DWARF, libc6-dbg's; else a row per function), annotate's rows without source; no code is unknown
            if kind == "dynamic":
                p = edan("run", "--machine=server-ddr5", "--mem-latency=100,300", stream, "100")
                a = edan("annotate", stream, "100")
                loader = r"(\(ld-linux[-\w.]*\)|_dl_\w+)"
                check(p.returncode == 0 and "(outside known functions)" not in p.stdout and
                      re.search(r"\n  " + loader + " ", p.stdout) and
                      re.search(r"\n  (\?\? (\(ld-linux[-\w.]*\)|\(_dl_\w+\))|(dl-[\w.-]+|rtld\.c):\d+ \(\w+\)) ",
                                p.stdout) and a.returncode == 0 and
                      "(outside known functions)" not in a.stdout and re.search(r"\s" + loader + "\n", a.stdout),
                      f"{isa} dynamic stream: the loader's rows: {p.stdout[-1500:]} {a.stdout[:1200]}")
            # the streaming numbers against the naive longest path over the explicit graph
            for prog, n in ((chase, 30), (stream, 30)):
                trace = os.path.join(d, os.path.basename(prog) + ".edt")
                p = edan("record", "--filter=kernel", "-o", trace, prog, str(n))
                check(p.returncode == 0, f"{isa} {kind} record {prog}: {p.stderr}")
                labels, preds, mem = dot_graph(trace)
                w, dd = naive_w_d(preds, mem)
                r = analyze("analyze", "--json", trace)
                check((r.get("W"), r.get("D")) == (w, dd), f"{isa} {kind} {os.path.basename(prog)}: W, D "
                                                           f"{r.get('W')}, {r.get('D')}; naive {w}, {dd}")
            # source lines of the kernel, also where the program is position-independent and loaded at a bias
            p = edan("run", "--critical-path", "--filter=kernel", chase, "100")
            # the chain's line with the register that carries each link (via): rax, x0, ...
            check(p.returncode == 0 and re.search(r"100 dependent memory accesses.*\n.*\n\s+100\s+\d+\s+[a-z]\w*\s+"
                                                  r"\S*pointer_chase\.c:17 \(kernel\)", p.stdout),
                  f"{isa} {kind} critical path names pointer_chase.c:17: {p.stdout[-600:]} {p.stderr}")


def test_x86_kernels():
    test_kernels("gcc", "x86-64")


LIB_SRC = open(os.path.join(SRC, "tests", "native", "shared_lib.c")).read()  # lib_chase: n dependent loads
LIB_MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
struct node { struct node *next; long pad[7]; };
long lib_chase(struct node *p, long n);
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    struct node *v = calloc((size_t)n, sizeof *v);
    for (long i = 0; i < n; i++)
        v[i].next = &v[(i * 7 + 1) % n];
    printf("%ld\n", lib_chase(v, n));
    return 0;
}
"""


def test_libraries(cc, isa):
    """A function of a shared library the program loads: filtered by name or LIB:NAME, named in the reports,
    online and from a trace (which carries the objects: format version 6)."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("lib.c", LIB_SRC), ("main.c", LIB_MAIN)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        build(cc, os.path.join(d, "libedtest.so"), "-O2", "-g", "-shared", "-fPIC", os.path.join(d, "lib.c"))
        prog = build(cc, os.path.join(d, "uselib"), "-O2", "-g", os.path.join(d, "main.c"), "-L", d, "-ledtest",
                     "-Wl,-rpath," + d)
        n = 300
        for flt in ("lib_chase", "libedtest.so:lib_chase", "libedtest.so:lib_chase,main"):
            r = analyze("run", "--json", f"--filter={flt}", prog, str(n))
            # n dependent loads in the library, and calloc's and printf's work when main is filtered too
            want_d = n if "main" not in flt else None
            check(r.get("D") == want_d if want_d else r.get("D", 0) >= n,
                  f"{isa} --filter={flt}: D = {r.get('D')}, expected {want_d or f'at least {n}'}")
            if not want_d:
                continue
            check(r.get("loads") in (n, n + 1) and r.get("stores") == 0,
                  f"{isa} --filter={flt}: loads {r.get('loads')} stores {r.get('stores')}")
        # from a trace: the filter's records, and the objects named at the end
        trace = os.path.join(d, "lib.edt")
        p = edan("record", "--filter=lib_chase", "-o", trace, prog, str(n))
        check(p.returncode == 0, f"{isa} record --filter=lib_chase: {p.stderr}")
        with open(trace, "rb") as f:
            head = f.read(64)
        check(int.from_bytes(head[8:12], "little") == 6, f"{isa}: trace version {head[8:12].hex()}, expected 6")
        r = analyze("analyze", "--json", trace)
        check(r.get("D") == n, f"{isa} analyze of the filtered trace: D = {r.get('D')}, expected {n}")
        # the whole program: the library's function and the loader by name, online and offline
        whole = os.path.join(d, "whole.edt")
        p = edan("record", "-o", whole, prog, str(n))
        check(p.returncode == 0, f"{isa} record: {p.stderr}")
        for args in (("run", "--machine=server-ddr5", "--mem-latency=100", prog, str(n)),
                     ("analyze", "--machine=server-ddr5", "--mem-latency=100", whole)):
            p = edan(args[0], "--json", *args[1:])
            out = p.stdout.strip().splitlines()  # after the program's own output
            rows = [f["name"] for f in json.loads(out[-1])["prediction"]["functions"]] if p.returncode == 0 else []
            check("lib_chase" in rows and "main" in rows and "(outside known functions)" not in rows and
                  any(re.fullmatch(r"\(ld-linux[-\w.]*\)|_dl_\w+", x) for x in rows),
                  f"{isa} edan {args[0]}: the function rows {rows[:14]} {p.stderr[-300:]}")
        # names the program does not define: a library's by LIB:NAME is looked for as libraries load
        p = edan("run", "--filter=no_such_fn", prog, "10")
        check(p.returncode == 2 and "no function named 'no_such_fn'" in p.stderr and "LIB:NAME" in p.stderr,
              f"{isa} --filter=no_such_fn: exit {p.returncode}, {p.stderr!r}")
        p = edan("run", "--filter=libedtest.so:no_such_fn", prog, "10")
        check(p.returncode == 2 and "no function named 'libedtest.so:no_such_fn' in the program or in the" in p.stderr,
              f"{isa} --filter=libedtest.so:no_such_fn: exit {p.returncode}, {p.stderr!r}")


def test_x86_libraries():
    test_libraries("gcc", "x86-64")


def test_a64_libraries():
    test_libraries(A64_CC, "aarch64")


# ---- AArch64 -------------------------------------------------------------------------------------------

A64_CC = "aarch64-linux-gnu-gcc"


def test_a64_kernels():
    test_kernels(A64_CC, "aarch64")


# kernel's vertices (tests/native/a64_deps.S) and their predecessors
A64_EXPECTED = {
    0: set(), 1: set(), 2: {0, 1}, 3: {2}, 4: {3}, 5: {2, 4}, 6: {5}, 7: {6}, 8: {7}, 9: {8, 2}, 10: set(),
    11: {9}, 12: {10, 5}, 13: {12}, 14: {11, 12, 13}, 15: {12, 14}, 16: {14}, 17: set(), 18: {5, 10, 17},
    19: {10, 17, 18}, 20: {19}, 21: {10, 19, 20}, 22: {10, 19, 21}, 23: set(),
}  # 10: x0 as the writebacks of 7 and 8 (address updates) left it, as before the kernel; 13, 15 and 16 (cmp, tst,
#    cmn) write the flags alone


def test_a64_deps():
    with tempfile.TemporaryDirectory() as d:
        prog = build(A64_CC, os.path.join(d, "a64_deps"), "-nostdlib", "-static", "-g",
                     os.path.join(NATIVE, "a64_deps.S"))
        trace = os.path.join(d, "t.edt")
        p = edan("record", "--filter=kernel", "-o", trace, prog)
        check(p.returncode == 0 and "warning" not in p.stderr, f"record: {p.returncode} {p.stderr}")
        labels, preds, mem = dot_graph(trace)
        check_edges("a64_deps", labels, preds, A64_EXPECTED)
        check(mem == {5, 6, 7, 8, 12, 18, 19, 21, 22}, f"a64_deps: memory vertices {sorted(mem)}")
        w, dd = naive_w_d(preds, mem)
        r = analyze("analyze", "--json", trace)
        check((r.get("W"), r.get("D")) == (w, dd) == (9, 5), f"a64_deps: W, D {r.get('W')}, {r.get('D')}; "
                                                            f"naive {w}, {dd} (expected 9, 5: stp, ldp, str, ldr; "
                                                            f"stp, ldadd, casal, stset, swpal)")
        check(r.get("atomics") == 4, f"a64_deps: {r.get('atomics')} atomics, expected 4 (the LSE ones)")
        p = edan("dot", trace)
        check(all(f": {t}\"" in p.stdout for t in ("ldadd x13, x14, [x0]", "casal x14, x13, [x0]",
                                                    "stset x15, [x0]", "swpal x14, x16, [x0]")),
              f"a64_deps: the LSE atomics' labels: {p.stdout[:3000]}")
        with open(trace, "rb") as f:
            head = f.read(64)
        check(int.from_bytes(head[16:20], "little") == 3, f"a64_deps: header ISA {head[16:20].hex()}")


# ---- errors --------------------------------------------------------------------------------------------

def test_errors():
    with tempfile.TemporaryDirectory() as d:
        prog = build("gcc", os.path.join(d, "chase"), "-O2", os.path.join(SRC, "examples", "pointer_chase.c"))
        # an emulator that is not installed: named, with what to install
        env = dict(os.environ, PATH=d)
        p = subprocess.run([EDAN, "run", prog, "4"], capture_output=True, text=True, env=env)
        check(p.returncode == 2 and "qemu-x86_64" in p.stderr and "apt-get install qemu-user" in p.stderr,
              f"missing emulator: {p.returncode} {p.stderr}")
        # an ISA edan does not trace
        other = os.path.join(d, "ppc")
        with open(prog, "rb") as f:
            elf = bytearray(f.read())
        elf[18:20] = (21).to_bytes(2, "little")  # EM_PPC64
        with open(other, "wb") as f:
            f.write(elf)
        os.chmod(other, 0o755)
        p = edan("run", other, expect=2)
        check(p.returncode == 2 and "machine 21" in p.stderr and "x86-64" in p.stderr,
              f"unsupported ISA: {p.returncode} {p.stderr}")
        # the text format is RISC-V's
        p = edan("record", "--text", "-o", os.path.join(d, "t.txt"), prog, "4", expect=2)
        check(p.returncode == 2 and "RISC-V instructions only" in p.stderr and
              not os.path.exists(os.path.join(d, "t.txt")), f"record --text: {p.returncode} {p.stderr}")
        # --sysroot must be a directory
        p = edan("run", "--sysroot=" + os.path.join(d, "none"), prog, "4", expect=2)
        check(p.returncode == 2 and "--sysroot" in p.stderr, f"--sysroot missing: {p.returncode} {p.stderr}")
        # a library's function of a statically linked program: its libraries' functions are its own
        static = build("gcc", os.path.join(d, "chase_static"), "-O2", "-static",
                       os.path.join(SRC, "examples", "pointer_chase.c"))
        p = edan("run", "--functions=main,libc.so:malloc", static, "4", expect=2)
        check(p.returncode == 2 and p.stderr.count("is statically linked") == 1 and "name the function alone" in p.stderr,
              f"--functions=libc.so:malloc of a static program: {p.returncode} {p.stderr}")
        p = edan("run", "--json", "--functions=main,malloc", static, "4")
        rows = [x["name"] for x in json.loads(p.stdout.strip().splitlines()[-1]).get("functions", [])] \
            if p.returncode == 0 else []
        check(rows == ["main", "malloc"], f"--functions=main,malloc of a static program: {p.returncode} {rows}")


# ---- the timing model's micro-operations --------------------------------------------------------------


def machine_values(path):
    """The [section] key values of a machine file (docs/machines.md's INI), comments dropped."""
    import configparser
    cp = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
    cp.read(path)
    return cp


def predicted(prog, func, machine, *more, env=None, args=()):
    """The timing model's prediction (JSON) for the function func of prog run with args."""
    p = subprocess.run([EDAN, "run", "--json", f"--filter={func}", f"--machine={machine}", *more, prog, *args],
                       capture_output=True, text=True, env=env)
    check(p.returncode == 0, f"edan run {func} {machine}: {p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])["prediction"] if p.returncode == 0 else {}


def analyze_prediction(trace, machine):
    p = edan("analyze", "--json", f"--machine={machine}", trace)
    check(p.returncode == 0, f"edan analyze {trace}: {p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])["prediction"] if p.returncode == 0 else {}


def test_uops():
    """tests/native/x86_uops.S: add [rbx], rax and add rax, [rbx+8] against the same work as separate
    instructions, on server-ddr5 and on copies of it with a 3- and a 5-entry reorder buffer."""
    with tempfile.TemporaryDirectory() as d:
        progs = {n: build("gcc", os.path.join(d, f"uops{n}"), "-nostdlib", "-static", "-g", f"-DN={n}",
                          os.path.join(NATIVE, "x86_uops.S")) for n in (1000, 2000)}
        server = os.path.join(SRC, "machines", "server-ddr5.ini")
        m = machine_values(server)
        l1, lat_int = int(m["l1d"]["hit_latency"]), int(m["latency"]["int"])

        def per_turn(func, machine, *more, env=None):
            """cycles of N = 2000 less those of N = 1000 (per lane) over 1000 turns, and the N = 2000 counts"""
            a = predicted(progs[1000], func, machine, *more, env=env)
            b = predicted(progs[2000], func, machine, *more, env=env)
            return [(y - x) / 1000 for x, y in zip(a.get("cycles", []), b.get("cycles", []))], b.get("counts", {})

        # read-modify-write: each turn's load waits for the last turn's store (its data, a cycle after the add):
        # the load's L1 hit and the cycle it writes its value back, the add, the store
        want = l1 + 1 + lat_int + 1
        rmw, rmw_n = per_turn("rmw", server)
        rmw3, rmw3_n = per_turn("rmw3", server)
        check(rmw == rmw3 == [want], f"add [rbx], rax: {rmw} cycles a turn, mov/add/mov {rmw3}; expected {want}")
        # as many loads, stores and L1d accesses (rmw runs first: its first access and fetch miss)
        l1d = [sum(c.get("levels", [{}])[0].values()) for c in (rmw_n, rmw3_n)]
        for key in ("loads", "stores"):
            check(rmw_n.get(key) == rmw3_n.get(key), f"{key}: add [rbx], rax {rmw_n.get(key)}, "
                                                     f"mov/add/mov {rmw3_n.get(key)}")
        check(l1d[0] == l1d[1] == 4001, f"L1d accesses: add [rbx], rax {l1d[0]}, mov/add/mov {l1d[1]}")
        check(rmw_n.get("loads") == 2001 and rmw_n.get("stores") == 2000, f"rmw counts {rmw_n}")
        # load-operation: the sum's chain is the add (int latency a turn), the loads go ahead of it; a fetch cycle
        # a turn (the loop's taken branch ends it) is the other bound; whole, the load would wait for the sum
        want = max(lat_int, 1)
        ldop, _ = per_turn("ldop", server)
        ldop2, _ = per_turn("ldop2", server)
        check(ldop == ldop2 == [want], f"add rax, [rbx+8]: {ldop} cycles a turn, mov/add {ldop2}; expected {want}")
        # micro-operations fill the reorder buffer: with 3 and 5 entries a turn of either form holds the same
        # four of them (load, add, dec, jnz), so both take the same time, longer than with 320
        for rob in (3, 5):
            small = os.path.join(d, f"rob{rob}.ini")
            with open(server) as f, open(small, "w") as g:
                g.write(re.sub(r"(?m)^rob_entries = \d+", f"rob_entries = {rob}", f.read()))
            a, _ = per_turn("ldop", small)
            b, _ = per_turn("ldop2", small)
            check(a == b and a[0] > want, f"rob {rob}: add rax, [rbx+8] {a} cycles a turn, mov/add {b}")
            a, _ = per_turn("rmw", small)
            b, _ = per_turn("rmw3", small)
            check(a == b, f"rob {rob}: add [rbx], rax {a} cycles a turn, mov/add/mov {b}")
        # the step four lanes at a time (AVX2) and one at a time give the same times
        lats = "--mem-latency=50,95,200,300,400"
        wide = predicted(progs[1000], "rmw", server, lats)
        one = predicted(progs[1000], "rmw", server, lats, env={**os.environ, "EDAN_NO_AVX2": "1"})
        check(wide.get("cycles") == one.get("cycles") and len(one.get("cycles", [])) == 5,
              f"lanes: {wide.get('cycles')} against one at a time {one.get('cycles')}")
        # a recorded trace decodes its instructions again: the same split, the same times
        trace = os.path.join(d, "rmw.edt")
        p = edan("record", "--filter=rmw", "-o", trace, progs[2000])
        off = analyze_prediction(trace, server) if p.returncode == 0 else {}
        full = predicted(progs[2000], "rmw", server)
        check(off.get("cycles") == full.get("cycles"), f"trace {off.get('cycles')} against online {full.get('cycles')}")
        # sampled: the counts follow every instruction, the split ones too
        smp = predicted(progs[2000], "rmw", server, "--sampled", "--sample-timing=50,50,400,0")
        check(smp.get("counts") == rmw_n, f"sampled counts {smp.get('counts')} against {rmw_n}")
        # the schedule dump of split instructions: a row each, its stages in order, the last commit the cycles
        for func in ("rmw", "ldop"):
            dump = os.path.join(d, f"{func}.csv")
            got = predicted(progs[1000], func, server, "--schedule-dump=" + dump, "--schedule-window=1000000")
            with open(dump, newline="") as f:
                rows = list(csv.DictReader(f))
            stages = [[float(r[k]) for k in ("fetch", "dispatch", "issue", "complete", "commit")] for r in rows]
            check(len(rows) == got.get("counts", {}).get("instructions") and
                  all(a <= b for t in stages for a, b in zip(t, t[1:])) and
                  all(x[4] <= y[4] for x, y in zip(stages, stages[1:])) and
                  stages[-1][4] == got.get("cycles", [None])[0] and
                  all(r["mem_level"] for r in rows if r["class"] in ("load", "store")),
                  f"{func}: the dump of split instructions keeps its stages in order and ends at the cycles")


# ---- dividers busy for part of their latency ([issue_interval]) -------------------------------------------

SQRT_SRC = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
/* n independent square roots */
__attribute__((noinline)) void indep(int n, const double *v, double *r)
{
    for (int i = 0; i < n; i++)
        r[i] = sqrt(v[i]);
}
/* n square roots, each of the one before */
__attribute__((noinline)) double chain(int n, double x)
{
    for (int i = 0; i < n; i++)
        x = sqrt(x);
    return x;
}
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    double *v = malloc(n * sizeof *v), *r = malloc(n * sizeof *r);
    for (int i = 0; i < n; i++)
        v[i] = i + 1.5;
    indep(n, v, r);
    printf("%g %g\n", r[n - 1], chain(n, 1e300));
    return 0;
}
"""


def test_dividers():
    """Square roots (sqrtsd, gcc -O2 -fno-math-errno) on server-ddr5 with one FP divider of 40 cycles: n
    independent ones take n k cycles when [issue_interval] fsqrt = k keeps the divider busy k cycles (every turn
    exactly k, sampled and exact), n dependent ones n 40 whatever k; an interval equal to the latency is the
    file without the section. The shipped zen4's sqrtsd: one every [issue_interval] fsqrt cycles, a chain
    [latency] fsqrt a turn."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "sqrt.c")
        with open(src, "w") as f:
            f.write(SQRT_SRC)
        prog = build("gcc", os.path.join(d, "sqrt"), "-O2", "-g", "-fno-math-errno", "-fno-tree-vectorize", src, "-lm")
        with open(os.path.join(SRC, "machines", "server-ddr5.ini")) as f:
            base = re.sub(r"(?m)^fsqrt = \d+", "fsqrt = 40", re.sub(r"(?m)^fp_div_units = \d+", "fp_div_units = 1",
                                                                   f.read()))

        def machine(name, section):
            path = os.path.join(d, name + ".ini")
            with open(path, "w") as f:
                f.write(base + section)
            return path

        def per_turn(func, m, *more):
            """cycles of n = 2000 less those of n = 1000, over 1000 turns"""
            a = predicted(prog, func, m, "--program-output=/dev/null", *more, args=["1000"]).get("cycles", [0])
            b = predicted(prog, func, m, "--program-output=/dev/null", *more, args=["2000"]).get("cycles", [0])
            return (b[0] - a[0]) / 1000

        plain = machine("plain", "")
        same = machine("same", "[issue_interval]\nfsqrt = 40\n")
        for func in ("indep", "chain"):
            x = predicted(prog, func, plain, "--program-output=/dev/null", args=["1000"])
            y = predicted(prog, func, same, "--program-output=/dev/null", args=["1000"])
            x.get("machine", {}).pop("file", None)
            y.get("machine", {}).pop("file", None)
            check(x == y and x, f"{func}: fsqrt = 40 given is the file without [issue_interval]")
        for k in (40, 20, 10):  # below 10 the loads from memory bind (the window holds too few lines)
            m = machine(f"k{k}", f"[issue_interval]\nfsqrt = {k}\n")
            for more in ((), ("--exact",)):
                got = per_turn("indep", m, *more)
                check(got == k, f"independent sqrtsd, divider busy {k} of 40 {more}: {got} cycles a turn, expected {k}")
                got = per_turn("chain", m, *more)
                check(got == 40, f"a chain of sqrtsd, divider busy {k} of 40 {more}: {got} cycles a turn, expected 40")
        # a value out of range: the file, the line and the key, exit 2
        bad = machine("bad", "[issue_interval]\nfsqrt = 41\n")
        p = edan("run", "--machine=" + bad, "--filter=indep", prog, "10", expect=2)
        line = (base + "[issue_interval]\n").count("\n") + 1
        check(p.returncode == 2 and f"{bad}:{line}:" in p.stderr and "fsqrt = 41" in p.stderr,
              f"fsqrt = 41 above its latency: {p.returncode} {p.stderr!r}")
        zen4 = os.path.join(SRC, "machines", "zen4.ini")
        z = machine_values(zen4)
        k, lat = int(z["issue_interval"]["fsqrt"]), int(z["latency"]["fsqrt"])
        check(k < lat, f"zen4: sqrtsd busy {k} of {lat} cycles")
        got, chained = per_turn("indep", zen4), per_turn("chain", zen4)
        check(got == k and chained == lat, f"zen4: independent sqrtsd {got} cycles a turn (expected {k}), "
                                           f"a chain {chained} ({lat})")


# ---- the machine files of recognisable cores ----------------------------------------------------------

CORES = ("zen4", "zen5", "spr", "neoverse-v1")


def test_machines():
    """Each core's file and its CXL variant parse, are listed, and run a cold pointer chase (every line's first
    access a dependent miss): the CXL variant is slower by its added latency per line from memory (within 5 %,
    the line transfers at the two bandwidths being the rest). x86-64 under every file; the AArch64 build too
    where Debian's cross compiler is installed."""
    p = edan("machines")
    listed = set(re.findall(r"(?m)^(\S+)\s", p.stdout))
    with tempfile.TemporaryDirectory() as d:
        progs = [build("gcc", os.path.join(d, "chase"), "-O2", "-g", os.path.join(SRC, "examples", "pointer_chase.c"))]
        if subprocess.run(["sh", "-c", f"command -v {A64_CC}"], capture_output=True).returncode == 0:
            progs.append(build(A64_CC, os.path.join(d, "chase-a64"), "-O2", "-g", "-static",
                               os.path.join(SRC, "examples", "pointer_chase.c")))
        for core in CORES:
            for name in (core, core + "-cxl"):
                check(name in listed, f"edan machines lists {name}: {sorted(listed)}")
            m = machine_values(os.path.join(SRC, "machines", core + ".ini"))
            c = machine_values(os.path.join(SRC, "machines", core + "-cxl.ini"))
            added_ns = float(c["memory"]["latency_ns"]) - float(m["memory"]["latency_ns"])
            check(added_ns > 0 and float(c["memory"]["bandwidth_gbs"]) < float(m["memory"]["bandwidth_gbs"]),
                  f"{core}-cxl: farther and narrower memory than {core}")
            for prog in progs:
                local = predicted(prog, "kernel", core, "--cold", "--program-output=/dev/null", args=["3000"])
                far = predicted(prog, "kernel", core + "-cxl", "--cold", "--program-output=/dev/null", args=["3000"])
                lines = local.get("counts", {}).get("memory_lines", 0)
                got = (far.get("seconds", [0])[0] - local.get("seconds", [0])[0]) * 1e9
                check(lines > 300 and far.get("counts") == local.get("counts") and
                      abs(got - lines * added_ns) <= 0.05 * lines * added_ns,
                      f"{core} {os.path.basename(prog)}: CXL adds {got:.0f} ns over {lines} lines from memory, "
                      f"expected about {lines * added_ns:.0f}")


def test_validation():
    """validation/thirdparty/kernel_timer.h and validation/native.py (make validate-native) on a bundled kernel."""
    import importlib.util
    val = os.path.join(SRC, "validation")
    spec = importlib.util.spec_from_file_location("native_validation", os.path.join(val, "native.py"))
    nv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(nv)
    src = os.path.join(NATIVE, "timed_kernel.c")
    with tempfile.TemporaryDirectory() as d:
        timed = build("gcc", os.path.join(d, "timed"), "-O2", "-static", "-DTIMED",
                      "-DEDAN_KERNEL_CLOCK=CLOCK_THREAD_CPUTIME_ID", "-I", os.path.join(val, "thirdparty"), src,
                      os.path.join(val, "thirdparty", "flush.c"))
        bare = build("gcc", os.path.join(d, "bare"), "-O2", "-static", src)
        counts = {}
        for prog in (timed, bare):
            for flt in ("--filter=kernel", None):
                p = edan("run", "--json", "--threads=1", "--program-output=/dev/null",
                         *([flt] if flt else []), prog)
                check(p.returncode == 0, f"edan run {flt} {prog}: {p.stderr}")
                rep = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None
                counts[prog, flt] = rep["configurations"][0]["vertices"] if rep else None
        region = counts[timed, "--filter=kernel"]
        check(region is not None and region == counts[bare, "--filter=kernel"] and region > 4096,
              f"the kernel's instructions behind the timer {region}, bare {counts[bare, '--filter=kernel']}")
        whole_t, whole_b = counts[timed, None], counts[bare, None]
        flush_iterations = (1 << 20) // 8
        check(whole_t is not None and whole_b is not None and whole_t - whole_b >= 3 * flush_iterations,
              f"whole programs {whole_t} (timer, flush) and {whole_b}: the flush's loop not outside the region")
        tsv = os.path.join(d, "list.tsv")
        with open(tsv, "w", encoding="utf-8") as f:
            f.write("# a list in sweep.py's format\nfits.timed\t%s\t3\tkernel\ttime=output\texit=3\n" % timed)
        progs = nv.read_list(tsv)
        check(len(progs) == 1 and progs[0]["args"] == ["3"] and progs[0]["exit"] == 3, f"read_list: {progs}")
        cpu = min(os.sched_getaffinity(0))
        seconds = statistics.median(nv.measure_rounds(progs, cpu, 3, d)["fits.timed"])
        check(0 < seconds < 0.1, f"measure: {seconds} s for a kernel of {region} instructions")
        machine = os.path.join(SRC, "machines", "zen4.ini")
        predicted, pc = nv.predict(EDAN, machine, progs[0], d)
        check(0 < predicted < 0.1 and pc["instructions"] == region,
              f"predict: {predicted} s, {pc['instructions']} instructions (the region has {region})")
        wrong = dict(progs[0], exit=0)
        for what, call in (("measure", lambda: nv.measure_once(wrong, cpu, d)),
                           ("predict", lambda: nv.predict(EDAN, machine, wrong, d))):
            try:
                call()
                check(False, f"{what}: a program exiting 3 where the list says 0 was accepted")
            except SystemExit as e:
                check(e.code == 2, f"{what}: exit status {e.code} for the wrong exit status, expected 2")
        # --also: each machine file's row on the same measured times (errors 10 % and 50 %, 20 % and 100 %)
        res = {"machine": "a", "also": ["b"], "kernels": [
            {"suite": "PolyBench", "measured_s": 1.0, "predicted_s": 1.1, "also": {"b": 1.2}},
            {"suite": "PolyBench", "measured_s": 2.0, "predicted_s": 3.0, "also": {"b": 4.0}}]}
        rows = [r for r in nv.machines_table(res) if r.startswith("| `")]
        check(rows == ["| `a` | – | 30.0 % | 50 % | 1.30 | 30.0 % |", "| `b` | – | 60.0 % | 100 % | 1.60 | 60.0 % |"],
              f"machines_table: {rows}")
        check(nv.machines_table(dict(res, also=[])) == [], "machines_table without --also: nothing")
        # rounds: every program once a round, a list of times each; the spread in the tables
        two = [progs[0], dict(progs[0], name="fits.again")]
        rounds = nv.measure_rounds(two, cpu, 2, d)
        check(sorted(rounds) == ["fits.again", "fits.timed"] and all(len(t) == 2 and min(t) > 0 for t in rounds.values()),
              f"measure_rounds: {rounds}")
        check(abs(nv.spread_pct([1.0, 1.5, 2.0]) - 66.66666) < 1e-3, f"spread_pct: {nv.spread_pct([1.0, 1.5, 2.0])}")
        kern = {"name": "fits.timed", "kernel": "kernel", "instructions": 1, "l1d_misses": 0, "memory_lines": 0,
                "error_pct": 10.0}
        res = {"host": "h", "runs": 3, "cpu": cpu, "ghz": 3.0, "machine": "a", "kernels": [
            dict(kern, suite="PolyBench", measured_s=1.0, times_s=[1.0, 0.9, 1.5], predicted_s=1.1),
            dict(kern, suite="PolyBench", name="spills.old", measured_s=2.0, predicted_s=2.2)]}
        text = "\n".join(nv.tables(res))
        check("median 60.0 %; over 20 %: fits.timed 60 %." in text and "| 1000000.00 | 900000.00 | 1100000.00 | +10.0 % | 60 % |" in text
              and "| 2000000.00 | – | 2200000.00 | +10.0 % | – |" in text, f"tables' spread: {text}")
        # against the fastest runs: 0.9 s measured, 1.1 predicted (+22.2 %), the kernel without times left out
        fast = [r for r in nv.machines_table(res, fastest=True) if r.startswith("| `")]
        check(fast == ["| `a` | – | 22.2 % | 22 % | 1.22 | 22.2 % |"], f"machines_table(fastest): {fast}")
        # --measured: an earlier run's times, clock and fault time; a program it lacks is an error naming it
        old = os.path.join(d, "old.json")
        with open(old, "w", encoding="utf-8") as f:
            json.dump(dict(res, page_fault_ns=1500.0), f)
        prev = nv.previous_times(old, [dict(progs[0])])
        check(prev["times"]["fits.timed"] == [1.0, 0.9, 1.5] and prev["times"]["spills.old"] == [2.0]
              and prev["ghz"] == 3.0 and prev["page_fault_ns"] == 1500.0, f"previous_times: {prev}")
        try:
            nv.previous_times(old, [dict(progs[0], name="fits.missing")])
            check(False, "previous_times: a program without times was accepted")
        except SystemExit as e:
            check(e.code == 2, f"previous_times: exit status {e.code} for a missing program, expected 2")
        # native_chase.c (docs/accuracy.md's host latencies): builds warning-free, a positive time, bad arguments exit 2
        chase = build("gcc", os.path.join(d, "chase"), "-O2", "-std=c17", "-Wall", "-Wextra", "-Werror",
                      os.path.join(val, "native_chase.c"))
        p = subprocess.run(["taskset", "-c", str(cpu), chase, "512", "64", "100000"], capture_output=True, text=True)
        check(p.returncode == 0 and 0 < float(p.stdout or "0") < 1000, f"native_chase 512 64: {p.returncode} {p.stdout!r}")
        p = subprocess.run([chase, "1", "64"], capture_output=True, text=True)
        check(p.returncode == 2 and "usage" in p.stderr, f"native_chase 1 64: exit {p.returncode}, {p.stderr!r}")
        # the host's page fault time, measured, in the host's file (which edan reads), only where it zeroes pages
        fault = nv.host_fault(d, cpu, 3)
        check(0 < fault < 1e6, f"host_fault: {fault} ns")
        host = nv.host_machine("zen4", d, 3.0, 1234.4)
        with open(host, encoding="utf-8") as f:
            text = f.read()
        check("clock_ghz = 3.000" in text and "\npage_fault_ns = 1234 " in text, f"host_machine: {text[:1200]}")
        p = edan("run", "--json", "--threads=1", "--program-output=/dev/null", "--filter=kernel", "--machine=" + host,
                 "--ignore-exit", timed, "3")
        rep = json.loads(p.stdout.strip().splitlines()[-1]) if p.stdout.strip() else None
        check(rep is not None and rep["prediction"]["machine"]["page_fault_ns"] == 1234,
              f"the host's file in edan: {rep and rep['prediction']['machine']}")
        gem5 = nv.host_machine("gem5-validation", d, 3.0, 1234.4)
        with open(gem5, encoding="utf-8") as f:
            check("page_fault_ns" not in f.read(), "host_machine: page_fault_ns in a file that zeroes no page")
        script = os.path.join(val, "native.py")
        for argv, needle in (([], "no suite"), (["--olden", d], "not a Olden checkout")):
            p = subprocess.run([sys.executable, script, "--edan", EDAN, "--out", os.path.join(d, "out"), *argv],
                               capture_output=True, text=True)
            check(p.returncode == 2 and needle in p.stderr, f"native.py {argv}: exit {p.returncode}, {p.stderr!r}")


run_category({"machines": test_machines, "uops": test_uops, "dividers": test_dividers, "x86_deps": test_x86_deps, "x86_wide": test_x86_wide, "x86_stores": test_x86_stores, "x86_kernels": test_x86_kernels, "a64_deps": test_a64_deps, "x86_libraries": test_x86_libraries,
              "a64_libraries": test_a64_libraries,
              "a64_kernels": test_a64_kernels, "errors": test_errors, "validation": test_validation})
