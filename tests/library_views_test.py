#!/usr/bin/env python3
"""The views that name functions while the stream runs name a shared library's code (issue 39): a dynamically
linked x86-64 program (the host's gcc) whose hot loops are in a shared library built here, under the real
qemu-x86_64 and plugin.

  views   --footprint, --classes, the sampled tool (--sample-period), locality --reuse and --zoom, and rank:
          each names the library's lib_sum and lib_chase (their exact loads, bytes and lines; the loops and
          static loads with lib.c's lines) and libc's memset (its symbol from libc6-dbg's debug file,
          its lines from that file's DWARF when installed), the load classes' windows of lib_sum's loads as
          --filter=lib_sum has them and the sampled tool's windows of each library function, online (edan run, locality PROGRAM, rank
          PROGRAM:FUNCTION) and offline (edan record, then analyze, locality TRACE, rank TRACE) alike
  lines   the library's lines from its own DWARF (-g), in the timing model's lines and the critical path, and a
          row per function, ?? (lib_sum), without it; --functions breaks down the library's functions online
          and offline as --filter measures them (--per-function chooses them as LIB:NAME), and a trace that names
          its objects only at its end says so

Run as library_views_test.py BUILD_DIR CATEGORY; prints 'N passed, N failed'.
"""
import json
import os
import re
import subprocess
import tempfile

from realrun_lib import check, edan, run_category

LIB = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "native", "shared_lib.c")).read()
MAIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct node { struct node *next; long pad[7]; };
double lib_sum(const double *a, long n);
long lib_chase(struct node *p, long n);
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100;
    double *a = malloc((size_t)n * sizeof *a);
    struct node *v = malloc((size_t)n * sizeof *v);
    memset(a, 0, (size_t)n * sizeof *a);
    for (long i = 0; i < n; i++) {
        a[i] += (double)i;
        v[i].next = &v[(i + 1) % n];
    }
    printf("%g %ld\n", lib_sum(a, n), lib_chase(v, n));
    return 0;
}
"""
N = 4000
MEMSET = re.compile(r"(__)?memset\w*")


def build(d, debug=True):
    for name, text in (("lib.c", LIB), ("main.c", MAIN)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    g = ["-g"] if debug else []
    p = subprocess.run(["gcc", "-O2", *g, "-shared", "-fPIC", "-o", os.path.join(d, "libedviews.so"),
                        os.path.join(d, "lib.c")], capture_output=True, text=True)
    check(p.returncode == 0, f"gcc -shared: {p.stderr}")
    prog = os.path.join(d, "useviews")
    p = subprocess.run(["gcc", "-O2", "-g", "-o", prog, os.path.join(d, "main.c"), "-L", d, "-ledviews",
                        "-Wl,-rpath," + d], capture_output=True, text=True)
    check(p.returncode == 0, f"gcc: {p.stderr}")
    return prog


def report(*args):
    """edan's JSON report (the last line of standard output, after the program's own)."""
    p = edan(*args)
    check(p.returncode == 0, f"edan {' '.join(args)}: exit {p.returncode}: {p.stderr[-600:]}")
    lines = p.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1]) if p.returncode == 0 and lines else {}
    except json.JSONDecodeError:
        check(False, f"edan {' '.join(args)}: not JSON: {lines[-1][:300]}")
        return {}


def by_name(rows, key="name"):
    return {r.get(key): r for r in rows or []}


def libc_has_dwarf():
    """Whether the host's libc has its debug file with DWARF (libc6-dbg): then memset has lines."""
    p = subprocess.run(["readelf", "-n", "/lib/x86_64-linux-gnu/libc.so.6"], capture_output=True, text=True)
    m = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", p.stdout)
    return bool(m) and os.path.exists(f"/usr/lib/debug/.build-id/{m.group(1)}/{m.group(2)}.debug")


def memory_views(where, r):
    """What the footprint, load classes and sampled tools say of the library's functions and memset."""
    seen = {}
    fp = by_name(r.get("footprint", {}).get("functions"))
    fp.pop(None, None)
    s, c = fp.get("lib_sum", {}), fp.get("lib_chase", {})
    # the array's 8N bytes (and one scalar's), the chase's N nodes (and a load besides)
    check(8 * N <= s.get("bytes", 0) <= 8 * N + 8 and N // 8 <= s.get("lines", 0) <= N // 8 + 2 and
          s.get("accesses") in (N, N + 1), f"{where} footprint: lib_sum {s}")
    check(c.get("lines") in (N, N + 1) and c.get("accesses") in (N, N + 1), f"{where} footprint: lib_chase {c}")
    ms = [x for x in fp.values() if MEMSET.fullmatch(x["name"] or "") and x["bytes"] >= 8 * N]
    check(len(ms) == 1, f"{where} footprint: a memset of {8 * N} bytes, among {sorted(fp)[:40]}")
    loops = [x for x in r.get("footprint", {}).get("loops", []) if x.get("function") == "lib_sum"]
    check(len(loops) == 1 and (loops[0].get("file") or "").endswith("lib.c") and loops[0].get("accesses") == N,
          f"{where} footprint: lib_sum's loop {loops}")
    seen["footprint"] = (s, c, ms, loops)
    lc = by_name(r.get("load_classes", {}).get("functions"))
    s = lc.get("lib_sum", {}).get("classes", {})
    check(s.get("strided", {}).get("accesses") == N and s.get("strided", {}).get("blocks") in (N // 8, N // 8 + 1),
          f"{where} classes: lib_sum {s}")
    c = lc.get("lib_chase", {}).get("classes", {})
    check(c.get("irregular", {}).get("accesses", 0) >= N - 2, f"{where} classes: lib_chase {c}")
    loads = [x for x in r.get("load_classes", {}).get("loads", []) if x.get("function") in ("lib_sum", "lib_chase")]
    check(sorted((x["function"], x["class"], os.path.basename(x.get("file") or "")) for x in loads) ==
          [("lib_chase", "irregular", "lib.c"), ("lib_sum", "strided", "lib.c")], f"{where} classes: loads {loads}")
    # the library's function has the windows of its own loads (its object named before its code ran)
    w = lc.get("lib_sum", {}).get("footprint_windows") or {}
    check(w.get("accesses") in (N, N + 1) and len(w.get("blocks", [])) >= 10, f"{where} classes: lib_sum windows {w}")
    seen["classes"] = (s, c, loads, w)
    sm = by_name(r.get("sampled", {}).get("functions"))
    s = sm.get("lib_sum", {}).get("counts", {})
    check(s.get("loads") in (N, N + 1) and N // 8 <= s.get("blocks", 0) <= N // 8 + 2,
          f"{where} sampled: lib_sum {s}")
    # one row for all of a library function's loads: its windows are known (MemGaze's code windows)
    c = sm.get("lib_chase", {}).get("counts", {})
    check(s.get("window_blocks") is not None and c.get("window_blocks") is not None and
          c.get("sampled_windows", 0) >= 3, f"{where} sampled: windows lib_sum {s} lib_chase {c}")
    seen["sampled"] = (s, sm.get("lib_chase"))
    return seen


def test_views():
    with tempfile.TemporaryDirectory() as d:
        prog = build(d)
        trace = os.path.join(d, "views.edt")
        p = edan("record", "-o", trace, prog, str(N))
        check(p.returncode == 0, f"record: {p.stderr[-400:]}")
        tools = ("--footprint", "--classes", "--sample-period=1024", "--sample-window=256")
        on = memory_views("run", report("run", "--json", *tools, prog, str(N)))
        off = memory_views("analyze", report("analyze", "--json", *tools, trace))
        for k in on:
            check(on[k] == off[k], f"{k}: online {on[k]} offline {off[k]}")
        # a filter on the library's function: its rows exact, the windows of its loads too
        r = report("run", "--json", "--classes", "--sample-period=1024", "--sample-window=256", "--filter=lib_sum",
                   prog, str(N))
        f = by_name(r.get("load_classes", {}).get("functions")).get("lib_sum", {})
        check(f.get("footprint_windows") is not None and f.get("footprint_windows") == on["classes"][3],
              f"--filter=lib_sum: classes' windows {f.get('footprint_windows')}, the whole run's row {on['classes'][3]}")
        f = by_name(r.get("sampled", {}).get("functions")).get("lib_sum", {}).get("counts", {})
        check(f.get("sampled_windows", 0) >= 3 and f.get("window_blocks") is not None,
              f"--filter=lib_sum: sampled windows {f}")
        # locality of the program (traced, then analysed) and of the trace: reuse and zoom
        dwarf = libc_has_dwarf()
        seen = []
        for what, args in (("locality PROGRAM", (prog, str(N))), ("locality TRACE", (trace,))):
            r = report("locality", "--json", "--reuse", "--zoom", *args)
            fr = by_name(r.get("reuse", {}).get("functions"))
            s = fr.get("lib_sum", {})
            check(s.get("accesses") in (N, N + 1) and fr.get("lib_chase", {}).get("accesses", 0) >= N,
                  f"{what} reuse: {sorted(fr)[:30]}")
            acc = r.get("reuse", {}).get("accesses_by_instruction", [])
            mine = sorted((x["function"], os.path.basename(x.get("file") or ""), x["accesses"]) for x in acc
                          if x.get("function") in ("lib_sum", "lib_chase"))
            check(len(mine) == 2 and all(x[1] == "lib.c" for x in mine), f"{what} reuse: accesses {mine}")
            ms = [x for x in acc if MEMSET.fullmatch(x.get("function") or "") and x["accesses"] >= N // 8]
            check(ms and (not dwarf or all((x.get("file") or "").endswith(".S") for x in ms)),
                  f"{what} reuse: memset's stores {ms[:3]} (libc's DWARF: {dwarf})")
            zoom = {f["name"] or "" for z in r.get("zoom", {}).get("regions", []) for f in z.get("functions", [])}
            check({"lib_sum", "lib_chase"} <= zoom, f"{what} zoom: functions {sorted(zoom)[:30]}")
            seen.append((s, mine, [x["function"] for x in ms], sorted(zoom)))
        check(seen[0] == seen[1], f"locality: program {seen[0]} trace {seen[1]}")
        # rank a library's function: by the name the program imports, by LIB:NAME, and its trace
        chase = os.path.join(d, "chase.edt")
        p = edan("record", "--filter=lib_chase", "-o", chase, prog, str(N))
        check(p.returncode == 0, f"record --filter=lib_chase: {p.stderr[-400:]}")
        with open(os.path.join(d, "list"), "w") as f:
            f.write(f"{prog}:lib_chase {N}\n{prog}:libedviews.so:lib_chase {N}\n")
        r = report("rank", "--json", f"--list={os.path.join(d, 'list')}", chase)
        rows = {x["program"]: (x["W"], x["D"], x["lambda"]) for x in r.get("by_lambda", [])}
        want = {"useviews:lib_chase", "useviews:libedviews.so:lib_chase", "chase.edt"}
        check(set(rows) == want and len(set(rows.values())) == 1 and all(v[1] == N for v in rows.values()),
              f"rank: {rows}")


def lines_of(prog):
    r = report("run", "--json", "--machine=server-ddr5", "--mem-latency=100", "--filter=lib_sum", prog, str(N))
    return [(os.path.basename(x["file"]) if x.get("file") else None, x.get("line"), x.get("function"))
            for x in r.get("prediction", {}).get("lines", [])]


def test_lines():
    with tempfile.TemporaryDirectory() as d:
        prog = build(d)
        rows = lines_of(prog)
        check(rows and all(f == "lib.c" and ln > 0 and fn == "lib_sum" for f, ln, fn in rows),
              f"lib_sum's lines from the library's DWARF: {rows}")
        # the critical path's memory chain: the chase's N loads at lib.c's line
        p = edan("run", "--critical-path", "--filter=lib_chase", prog, str(N))
        check(p.returncode == 0 and re.search(rf"{N} dependent memory accesses.*\n.*\n\s+{N}\s+{N}\s+\w+\s+\S*lib\.c:\d+ "
                                              r"\(lib_chase\)", p.stdout), f"critical path: {p.stdout[-700:]}")
        # --functions breaks down a library's functions too, by name or LIB:NAME, online and offline: each row's
        # inclusive numbers are --filter's of the same function, the chase's D is its N loads
        def functions(*args):
            rows = report(*args).get("functions") or []
            return {x["name"]: tuple(x["inclusive"][k] for k in ("instructions", "W", "D")) for x in rows}

        def filtered(name):
            c = report("run", "--json", f"--filter={name}", prog, str(N)).get("configurations") or [{}]
            return (c[0].get("vertices"), c[0].get("W"), c[0].get("D"))

        want = {"lib_sum": filtered("lib_sum"), "libedviews.so:lib_chase": filtered("lib_chase")}
        check(want["libedviews.so:lib_chase"][2] == N and want["lib_sum"][0] > 4 * N, f"--filter: {want}")
        names = "--functions=main,lib_sum,libedviews.so:lib_chase"
        online = functions("run", "--json", names, prog, str(N))
        check({k: online.get(k) for k in want} == want and online.get("main", (0,))[0] > sum(v[0] for v in want.values()),
              f"--functions online: {online}, --filter: {want}")
        trace = os.path.join(d, "all.edt")
        p = edan("record", "-o", trace, prog, str(N))
        check(p.returncode == 0, f"record: {p.stderr[-400:]}")
        offline = functions("analyze", "--json", names, trace)
        check(offline == online, f"--functions offline {offline}, online {online}")
        # a trace whose objects are named only at its end (an earlier edan's: the header flag cleared) cannot
        # break down a library's function: it says so, exit status 2; the program's own functions still can
        old = os.path.join(d, "old.edt")
        with open(trace, "rb") as f:
            data = bytearray(f.read())
        check(data[20] & 2, f"the trace's header flags {data[20]}: objects ahead")
        data[20] &= ~2 & 0xff
        with open(old, "wb") as f:
            f.write(data)
        p = edan("analyze", "--functions=main,lib_sum", old)
        check(p.returncode == 2 and "names the program's shared objects only at its end" in p.stderr and
              "record it again" in p.stderr, f"old trace: exit {p.returncode}: {p.stderr[-400:]}")
        check(functions("analyze", "--json", "--functions=main", old) == {"main": online["main"]}, "old trace: main")
        # a library's function found in no object: after the run (a library may be opened late), exit status 2
        p = edan("run", "--functions=main,libedviews.so:nosuch", prog, str(N))
        check(p.returncode == 2 and "no function named 'libedviews.so:nosuch'" in p.stderr,
              f"--functions=libedviews.so:nosuch: exit {p.returncode}: {p.stderr[-400:]}")
        # a name neither the program's nor one it imports: refused once, before QEMU starts
        p = edan("run", "--functions=main,nosuch", prog, str(N))
        check(p.returncode == 2 and p.stderr.count("no function named 'nosuch'") == 1 and "plugin" not in p.stderr,
              f"--functions=nosuch: exit {p.returncode}: {p.stderr[-400:]}")
        # --per-function chooses a library's functions as LIB:NAME (the hottest of the whole run, the loader's and
        # libc's among them), online and offline alike; a region that is a library's function alone has its row
        chosen = functions("run", "--json", "--per-function", prog, str(N))
        check(chosen.get("libedviews.so:lib_chase") == want["libedviews.so:lib_chase"] and
              chosen.get("libedviews.so:lib_sum") == want["lib_sum"] and chosen.get("main") == online["main"] and
              any(k.startswith("ld-linux") for k in chosen), f"--per-function: {chosen}")
        check(functions("analyze", "--json", "--per-function", trace) == chosen, "--per-function offline")
        check(functions("run", "--json", "--per-function", "--filter=lib_sum", prog, str(N)) ==
              {"libedviews.so:lib_sum": want["lib_sum"]}, "--per-function --filter=lib_sum")
    with tempfile.TemporaryDirectory() as d:
        rows = lines_of(build(d, debug=False))
        check(rows == [(None, 0, "lib_sum")], f"lib_sum without DWARF: one row ?? (lib_sum): {rows}")


run_category({"views": test_views, "lines": test_lines})
