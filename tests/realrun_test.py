#!/usr/bin/env python3
"""Real runs: build/examples programs traced by the real plugin under the real
qemu-riscv64, analysed online, from binary traces and from text traces.

usage: realrun_test.py BUILD_DIR CATEGORY
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile

from realrun_lib import BUILD, EDAN, EX, check, edan, metrics, online, run_category, validate_schema  # noqa: E402


def test_sum():
    r = online("sum", 4)
    c = r["configurations"][0]
    check(c["W"] == 4, f"sum n=4: W = {c['W']}, expected 4")
    check(c["D"] == 1, f"sum n=4: D = {c['D']}, expected 1")
    check(c["layers"] == [4], f"sum n=4: layers {c['layers']}")
    check(c["vertices"] == 22, f"sum n=4: {c['vertices']} vertices, expected 22")
    # the paper's cache keeps D = 1 and W = 1 line for 4 ints in one line (cold, as the paper's tool: warm, main
    # has just written them)
    r = online("sum", 4, "--cache=32K", "--cold")
    c = r["configurations"][0]
    check(c["D"] == 1 and c["W"] >= 1 and c["W"] <= 2, f"sum with cache: W={c['W']} D={c['D']}")


def test_pointer_chase():
    for n in (10, 50, 200):
        c = online("pointer_chase", n)["configurations"][0]
        check(c["D"] == n, f"pointer chase n={n}: D = {c['D']}, expected {n}")
        check(c["W"] == n, f"pointer chase n={n}: W = {c['W']}, expected {n}")
    for n in (10, 50):
        c = online("linked_list", n)["configurations"][0]
        check(c["D"] == n, f"linked list n={n}: D = {c['D']}, expected {n}")


def test_oblivious():
    for prog, sizes in (("stream", (16, 64, 256)), ("matmul", (4, 8, 16)), ("sum", (4, 32, 256))):
        ds, ws = [], []
        for n in sizes:
            c = online(prog, n)["configurations"][0]
            ds.append(c["D"])
            ws.append(c["W"])
        check(len(set(ds)) == 1, f"{prog}: D should stay constant as n grows, got {ds}")
        check(ws[0] < ws[1] < ws[2], f"{prog}: W should grow with n, got {ws}")
    # trmm spills B[i][j] to memory every step: its depth grows (section 5.1)
    ds = [online("trmm", n)["configurations"][0]["D"] for n in (4, 8, 16)]
    check(ds[0] < ds[1] < ds[2], f"trmm: D should grow with n (register spilling), got {ds}")


def test_all_examples():
    progs = sorted(os.listdir(EX))
    check(len(progs) >= 7, f"expected at least 7 examples, found {progs}")
    for prog in progs:
        r = online(prog, 8, "--cache=none;32K", "--m=1,4,8")
        for c in r["configurations"]:
            check(c["vertices"] > 0, f"{prog}: no instructions traced")
            check(c["W"] >= c["D"] >= (1 if c["W"] else 0), f"{prog}: W={c['W']} D={c['D']}")
            check(sum(c["layers"]) == c["W"], f"{prog}: layers do not sum to W")
            check(c["T1"] >= c["Tinf"], f"{prog}: T1 < Tinf")
            for pm in c["per_m"]:
                mc = pm["memory_cost"]
                check(mc["lower"] <= mc["layered"] + 1e-9 <= mc["upper"] + 2e-9,
                      f"{prog}: bounds out of order {mc}")


def test_record_analyze():
    with tempfile.TemporaryDirectory() as d:
        for prog, n in (("spmv", 40), ("linked_list", 30), ("matmul", 6)):
            opts = ["--cache=none;32K;1K,ways=4,write=back,alloc=yes", "--m=2,4", "--tau=0,50"]
            on = online(prog, n, *opts)
            trace = os.path.join(d, prog + ".edt")
            p = edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, prog), str(n))
            check(p.returncode == 0, f"record {prog}: {p.stderr}")
            p = edan("analyze", "--json", *opts, trace)
            check(p.returncode == 0, f"analyze {prog}: {p.stderr}")
            off = json.loads(p.stdout)
            check(metrics(on) == metrics(off), f"{prog}: online and offline results differ")


def test_sweep_grouping():
    """A configuration's results do not depend on the others analysed in the same pass, on their order, nor on
    how many threads share them."""
    caches = ["none", "32K", "1K,ways=4,write=back,alloc=yes", "2K,line=32+16K,ways=8,write=back,alloc=yes"]
    alphas = ["100", "200"]
    with tempfile.TemporaryDirectory() as d:
        for prog, n in (("spmv", 40), ("linked_list", 30), ("trmm", 6)):
            trace = os.path.join(d, prog + ".edt")
            p = edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, prog), str(n))
            check(p.returncode == 0, f"record {prog}: {p.stderr}")

            def run(cache_list, alpha_list, *extra):
                p = edan("analyze", "--json", "--cache=" + ";".join(cache_list), "--alpha=" + ",".join(alpha_list),
                         "--tau=0,64", *extra, trace)
                check(p.returncode == 0, f"analyze {prog}: {p.stderr}")
                out = {}
                for c in json.loads(p.stdout)["configurations"]:
                    c = dict(c)
                    # Lambda is relative to the no-cache configuration, when the list has one
                    for m in c["per_m"]:
                        m.pop("Lambda", None)
                    out[(c["cache"], c["alpha"])] = c
                return out

            together = run(caches + ["32K"], alphas, "--threads=1")  # the repeated cache shares one simulation
            for threads in ("0", "2", "3", "5"):
                # configurations split among threads (the two 32K ones stay together)
                check(run(caches + ["32K"], alphas, "--threads=" + threads) == together,
                      f"{prog}: --threads={threads} changes the results")
            reverse = run(list(reversed(caches)), list(reversed(alphas)))
            alone = {}
            for cache in caches:
                for alpha in alphas:
                    alone.update(run([cache], [alpha]))
            check(len(alone) == len(caches) * len(alphas), f"{prog}: {len(alone)} configurations analysed alone")
            for key, result in alone.items():
                check(together.get(key) == result, f"{prog} {key}: alone and in a sweep differ")
                check(reverse.get(key) == result, f"{prog} {key}: a sweep in another order differs")


def test_text_compat():
    with tempfile.TemporaryDirectory() as d:
        for prog, n in (("sum", 16), ("spmv", 20), ("stream", 32)):
            opts = ["--cache=none;4K", "--m=4"]
            binary = os.path.join(d, prog + ".edt")
            text = os.path.join(d, prog + ".txt")
            text2 = os.path.join(d, prog + ".plugin.txt")
            check(edan("record", "--filter=kernel", "-o", binary, os.path.join(EX, prog), str(n)).returncode == 0,
                  f"record {prog}")
            check(edan("convert", binary, text).returncode == 0, f"convert {prog}")
            check(edan("record", "--text", "--filter=kernel", "-o", text2, os.path.join(EX, prog),
                       str(n)).returncode == 0, f"record --text {prog}")
            with open(text) as f:
                lines = f.read().splitlines()
            check(lines[0] == "# edan text trace 1" and lines[-1].startswith("# edan end: "),
                  f"{prog}: edan's header and end line: {lines[0]!r} ... {lines[-1]!r}")
            check(";" in lines[1], f"{prog}: text trace line '{lines[1]}' is not ';' separated")
            results = []
            for t in (binary, text, text2):
                # a text trace holds the region alone: the binary trace's warm records left out (--cold)
                p = edan("analyze", "--json", *opts, *(["--cold"] if t == binary else []), t)
                check(p.returncode == 0, f"analyze {t}: {p.stderr}")
                results.append(metrics(json.loads(p.stdout))["configurations"])
            check(results[0] == results[1], f"{prog}: text trace (converted) gives different metrics")
            check(results[0] == results[2], f"{prog}: text trace (from the plugin) gives different metrics")


def expect_error(args, needle, what):
    p = edan(*args, expect=None)
    check(p.returncode == 2, f"{what}: exit status {p.returncode}, expected 2 (stderr: {p.stderr.strip()})")
    check(needle in p.stderr, f"{what}: message '{p.stderr.strip()}' does not mention '{needle}'")
    check("Traceback" not in p.stderr and "Segmentation" not in p.stderr, f"{what}: crashed")


def test_bad_input():
    with tempfile.TemporaryDirectory() as d:
        sumbin = os.path.join(EX, "sum")
        expect_error(["run", os.path.join(d, "missing")], "missing", "missing binary")
        # a program for an ISA edan does not trace (x86-64 and AArch64 ones it does: tests/native_test.py)
        other = os.path.join(d, "arm_program")
        with open("/bin/true", "rb") as g:
            elf = bytearray(g.read())
        elf[18:20] = (40).to_bytes(2, "little")  # e_machine: EM_ARM
        with open(other, "wb") as g:
            g.write(elf)
        os.chmod(other, 0o755)
        expect_error(["run", other], "expected a 64-bit little-endian RISC-V", "a program of an unsupported ISA")
        junk = os.path.join(d, "junk")
        with open(junk, "w") as f:
            f.write("not an elf\n")
        expect_error(["run", junk], "not an ELF", "non-ELF file")
        expect_error(["run", "--filter=kernal", sumbin], "kernel", "unknown function lists similar names")
        expect_error(["run", "--cache=1000", sumbin], "power-of-two number of sets", "cache size not a power-of-two number of sets")
        expect_error(["run", "--m=0", sumbin], "--m", "m = 0")
        expect_error(["run", "--alpha=-5", sumbin], "--alpha", "negative latency")
        expect_error(["analyze", "--alpha0=-1", junk], "--alpha0", "negative alpha0")
        expect_error(["run", "--bogus", sumbin], "unknown option", "unknown option")
        expect_error(["analyze", os.path.join(d, "none.edt")], "none.edt", "missing trace")
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "spmv"), "200").returncode == 0,
              "record spmv")
        data = open(trace, "rb").read()
        cut = os.path.join(d, "cut.edt")
        with open(cut, "wb") as f:
            f.write(data[: len(data) // 2])
        expect_error(["analyze", cut], "byte", "truncated trace names a byte offset")
        bad = bytearray(data)
        bad[len(bad) // 2] ^= 0x55
        corrupt = os.path.join(d, "corrupt.edt")
        with open(corrupt, "wb") as f:
            f.write(bad)
        expect_error(["analyze", corrupt], "byte", "corrupted trace names a byte offset")
        text = os.path.join(d, "bad.txt")
        with open(text, "w") as f:
            f.write("addi a0,a0,1\nlw a4,0(a5);0x1000\nfrobnicate a0,a1\n")
        expect_error(["analyze", text], ":3", "bad text trace names the line")
        expect_error(["record", "-o", "/nonexistent-dir/x.edt", sumbin], "nonexistent", "unwritable trace path")
        expect_error(["record", "--filter=kernel", "-o", "/dev/full", os.path.join(EX, "spmv"), "200"],
                     "No space left", "trace to a full device")
        for fmt in ([], ["--text"]):
            disk_full_partway(d, fmt)


def disk_full_partway(d, fmt):
    """A write that fails after part of the trace is out (the file-size limit standing in for a disk that fills
    up): a clear error naming the file and the byte, exit status 2, and no trace left at all (a file of that name
    before the run would be as it was: tests/hostile_files_test.py). The limit's signal is ignored, so that
    write() returns EFBIG; that signal once reached QEMU's handler on one of edan's threads (util/thread.h),
    which crashed the emulator."""
    import resource
    import signal
    part = os.path.join(d, "part" + ("".join(fmt) or "binary"))
    limit = 8192  # the whole trace of spmv 2000 takes about 28 KB in binary and 2 MB as text

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    what = f"record {' '.join(fmt) or '(binary)'} past a file-size limit of {limit} bytes"
    p = subprocess.run([EDAN, "record", *fmt, "--filter=kernel", "-o", part, os.path.join(EX, "spmv"), "2000"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit_file_size)
    check(p.returncode == 2, f"{what}: exit status {p.returncode}, expected 2 (stderr: {p.stderr.strip()})")
    check(part in p.stderr and "write failed at byte" in p.stderr and "File too large" in p.stderr,
          f"{what}: message '{p.stderr.strip()}' does not name the file, the byte and the cause")
    check("signal" not in p.stderr, f"{what}: QEMU crashed: {p.stderr.strip()}")
    # neither format leaves what it could not finish (issue 35): the binary one, though it would read as truncated
    check(not os.path.exists(part) and "removed" in p.stderr,
          f"{what}: the incomplete trace is still there (stderr: {p.stderr.strip()})")
    check(not [n for n in os.listdir(d) if n.startswith(os.path.basename(part) + ".")],
          f"{what}: a temporary is left: {os.listdir(d)}")


def test_filter():
    # main calls kernel: excluding callees must leave out kernel's instructions
    prog = os.path.join(EX, "sum")
    inc = json.loads(edan("run", "--json", "--filter=main", prog, "64").stdout.splitlines()[-1])
    exc = json.loads(edan("run", "--json", "--filter=main", "--exclude-callees", prog, "64").stdout.splitlines()[-1])
    ker = json.loads(edan("run", "--json", "--filter=kernel", prog, "64").stdout.splitlines()[-1])
    vi, ve, vk = (x["configurations"][0]["vertices"] for x in (inc, exc, ker))
    check(vi > ve > 0, f"--exclude-callees should trace fewer instructions: {vi} vs {ve}")
    check(vi >= ve + vk, f"including callees should include kernel's {vk} instructions: {vi} vs {ve}")
    whole = json.loads(edan("run", "--json", prog, "64").stdout.splitlines()[-1])
    check(whole["configurations"][0]["vertices"] > vi, "the whole program has more instructions than main")


def test_blocks():
    """The plugin appends most blocks' records at once (tb_plan): the same events, byte for byte, as one callback
    per instruction (blocks=off), with and without a filter, with callees included and excluded."""
    plugin = os.path.join(BUILD, "libedan_plugin.so")

    def events(path):
        with open(path, "rb") as f:
            data = f.read()
        return data[int.from_bytes(data[12:16], "little"):]

    with tempfile.TemporaryDirectory() as d:
        # a function entered and one left by falling through: blocks whose filter state changes inside them
        fall = os.path.join(d, "fallthrough")
        p = subprocess.run(["riscv64-linux-gnu-gcc", "-nostdlib", "-static", "-o", fall,
                            os.path.join(os.path.dirname(os.path.abspath(__file__)), "fallthrough.S")],
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, f"building fallthrough.S: {p.stderr}")
        runs = [(fall, extra) for extra in ("", ",filter=kernel", ",filter=kernel,callees=exclude")]
        for prog in sorted(os.listdir(EX)):
            for extra in ("", ",filter=kernel", ",filter=main", ",filter=main,callees=exclude"):
                runs.append((os.path.join(EX, prog), extra))
        for path, extra in runs:
            prog = os.path.basename(path)
            traces = []
            for blocks in ("on", "off"):
                out = os.path.join(d, f"{prog}-{blocks}.edt")
                p = subprocess.run(["qemu-riscv64", "-plugin", f"{plugin},mode=record,out={out}{extra},blocks={blocks}", path,
                                    "12"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                check(p.returncode == 0, f"{prog}{extra} blocks={blocks}: {p.stderr}")
                traces.append(events(out))
            check(len(traces[0]) > 100 and traces[0] == traces[1],
                  f"{prog}{extra}: blocks=on and blocks=off traces differ ({len(traces[0])}, {len(traces[1])} bytes)")
        p = subprocess.run(["qemu-riscv64", "-plugin", f"{plugin},mode=record,out={d}/x.edt,blocks=maybe",
                            os.path.join(EX, "sum"), "4"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        check(p.returncode != 0 and "blocks='maybe' must be on or off" in p.stderr, f"blocks=maybe: {p.stderr}")


def test_qemu_disas():
    """edan's disassembly equals QEMU's own on every instruction QEMU translates (libc included)."""
    plugin = os.path.join(BUILD, "libqemu_disas_check.so")
    for prog in ("sum", "spmv", "matmul", "linked_list"):
        p = subprocess.run(["qemu-riscv64", "-plugin", plugin, os.path.join(EX, prog), "8"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        line = [l for l in p.stdout.splitlines() if l.startswith("edan disas check:")]
        check(len(line) == 1, f"{prog}: no summary from the disassembly check: {p.stdout[-500:]}")
        if line:
            check(" 0 text mismatches, 0 parse mismatches" in line[0], f"{prog}: {line[0]}")


def test_json_csv():
    """JSON validates against docs/schema/edan.analysis.1.json; CSV series sum to the totals they break down."""
    import csv
    with tempfile.TemporaryDirectory() as d:
        for prog, n, opts in (("spmv", 50, ["--cache=none;32K", "--m=1,4", "--tau=0,10"]),
                              ("pointer_chase", 40, ["--false-deps", "--bytes=line", "--cache=1K,ways=4,write=back,alloc=yes"]),
                              ("sum", 4, ["--alpha=1,200", "--C=7"])):
            csvp = os.path.join(d, prog + ".csv")
            p = edan("run", "--json", "--filter=kernel", "--series-csv=" + csvp, *opts, os.path.join(EX, prog), str(n))
            check(p.returncode == 0, f"{prog}: {p.stderr}")
            report = json.loads(p.stdout.strip().splitlines()[-1])
            validate_schema(report, prog)
            rows = list(csv.DictReader(open(csvp)))
            for k, c in enumerate(report["configurations"], 1):
                check(sum(c["layers"]) == c["W"], f"{prog}: layers sum to W")
                for s in c["series"]:
                    check(sum(s["started"]) == c["bytes"], f"{prog}: started sums to bytes")
                    mine = [r for r in rows if int(r["configuration"]) == k and int(r["tau"]) == s["tau"]]
                    check(len(mine) == s["phases"], f"{prog}: CSV has {len(mine)} rows for tau {s['tau']}")
                    check(sum(int(r["started"]) for r in mine) == c["bytes"], f"{prog}: CSV started sums to bytes")
                    check([int(r["U"]) for r in mine] == s["U"], f"{prog}: CSV U equals JSON U")


def test_plots():
    """Plots made by the project's own commands are non-empty PNG and SVG images."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "plots")
        p = edan("run", "--filter=kernel", "--cache=none;32K", "--m=1,4", "--plot-dir=" + out,
                 os.path.join(EX, "spmv"), "200")
        check(p.returncode == 0, f"run --plot-dir: {p.stderr}")
        trace = os.path.join(d, "chase.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "pointer_chase"), "100").returncode == 0,
              "record")
        p = edan("analyze", "--plot-dir=" + out, "--tau=10", trace)
        check(p.returncode == 0, f"analyze --plot-dir: {p.stderr}")
        for name in ("spmv-kernel-movement", "spmv-kernel-latency", "chase-movement", "chase-latency"):
            png = os.path.join(out, name + ".png")
            svg = os.path.join(out, name + ".svg")
            check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
                  and os.path.getsize(png) > 2000, f"{name}.png is not a non-empty PNG")
            check(os.path.exists(svg) and b"<svg" in open(svg, "rb").read(2000), f"{name}.svg is not an SVG")
        expect_error(["analyze", "--plot-dir=/proc/nonexistent/x", trace], "plot", "unwritable plot directory")
        # the eDAG of the summation kernel (n = 4) as DOT and SVG: Figure 7
        sumtrace = os.path.join(d, "sum.edt")
        check(edan("record", "--filter=kernel", "-o", sumtrace, os.path.join(EX, "sum"), "4").returncode == 0, "record")
        dotf, svg = os.path.join(d, "sum.dot"), os.path.join(d, "sum.svg")
        p = edan("dot", "-o", dotf, "--image=" + svg, sumtrace)
        check(p.returncode == 0, f"edan dot: {p.stderr}")
        text = open(dotf).read()
        check(text.count('fillcolor="#e34a33"') == 4, "4 memory-access vertices in the summation eDAG")
        red_bold = [l for l in text.splitlines() if "#e34a33" in l and "penwidth=3" in l]
        check(len(red_bold) == 1, f"one memory-access vertex on the critical path, found {len(red_bold)}")
        check(os.path.getsize(svg) > 1000 and b"<svg" in open(svg, "rb").read(4000), "rendered SVG")
        expect_error(["dot", "--max-vertices=10", sumtrace], "--max-vertices", "vertex limit")


def test_critical_path():
    """Critical path length = Tinf and memory chain = D on real runs, online and offline; the chain of a
    pointer chase is attributed to the source line of its load."""
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as d:
        for prog, n in (("pointer_chase", 60), ("spmv", 30), ("trmm", 6), ("linked_list", 20)):
            for cache in ("none", "32K"):
                r = online(prog, n, "--critical-path", "--cache=" + cache)
                c = r["configurations"][0]
                check(r["critical_path"]["Tinf"] == c["Tinf"], f"{prog}: critical path {r['critical_path']['Tinf']} != Tinf")
                check(r["memory_chain"]["D"] == c["D"] == r["memory_chain"]["memory_accesses"],
                      f"{prog}: memory chain has {r['memory_chain']['memory_accesses']} accesses, D = {c['D']}")
                validate_schema(r, prog)
            trace = os.path.join(d, prog + ".edt")
            check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, prog), str(n)).returncode == 0, "record")
            p = edan("analyze", "--json", "--critical-path", trace)
            off = json.loads(p.stdout)
            check(off["critical_path"] == r_nocache_cp(prog, n), f"{prog}: offline critical path differs from online")
        # issue 19: with --false-deps the path and the chain are those of the eDAG with false edges (the
        # critical-path consumer once ignored them: a path of 205 cycles next to a span of 806); the path's
        # length is the sum of its lines' cycles, all of them listed when they hold all its instructions
        for opts in (("--false-deps",), (), ("--cache=32K",), ("--false-deps", "--cache=32K")):
            r = online("sum", 4, "--critical-path", *opts)
            c, cp, mc = r["configurations"][0], r["critical_path"], r["memory_chain"]
            what = f"sum 4 {' '.join(opts)}"
            check(sum(l["instructions"] for l in cp["lines"]) == cp["instructions"], f"{what}: every line listed")
            length = sum(l["cycles"] for l in cp["lines"])
            check(length == cp["Tinf"] == c["Tinf"], f"{what}: critical path of {length} cycles, span {c['Tinf']}")
            check(mc["memory_accesses"] == mc["D"] == c["D"] == sum(l["memory_accesses"] for l in mc["lines"]),
                  f"{what}: memory chain of {mc['memory_accesses']} accesses, D = {c['D']}")
            validate_schema(r, what)
        src = open(os.path.join(here, "..", "examples", "pointer_chase.c")).read().splitlines()
        load_lines = [i + 1 for i, l in enumerate(src) if "idx = next[idx]" in l and not l.strip().startswith("*")]
        r = online("pointer_chase", 60, "--critical-path")
        top = r["memory_chain"]["lines"][0]
        check(top["file"] and top["file"].endswith("pointer_chase.c") and top["line"] in load_lines
              and top["function"] == "kernel" and top["memory_accesses"] == 60,
              f"pointer chase chain attributed to {top}, expected kernel at one of lines {load_lines}")


def r_nocache_cp(prog, n):
    return online(prog, n, "--critical-path")["critical_path"]


def test_rank_table():
    """edan rank orders programs by lambda and Lambda exactly as their individual analyses say; --table
    gives the paper's Table 1/2 form with reductions against no cache."""
    with tempfile.TemporaryDirectory() as d:
        traces, expect = [], {}
        for prog in ("pointer_chase", "stream", "spmv", "matmul"):
            t = os.path.join(d, prog + ".edt")
            check(edan("record", "--filter=kernel", "-o", t, os.path.join(EX, prog), "32").returncode == 0, "record")
            traces.append(t)
            c = json.loads(edan("analyze", "--json", "--cache=32K", "--m=4", t).stdout)["configurations"][0]
            expect[prog + ".edt"] = (c["per_m"][0]["lambda"], c["per_m"][0]["Lambda"])
        p = edan("rank", "--cache=32K", "--m=4", "--plot-dir=" + os.path.join(d, "plots"), *traces)
        check(p.returncode == 0, f"rank: {p.stderr}")
        blocks = p.stdout.split("\n\n")[1:]
        check(len(blocks) == 2, f"two rankings expected: {p.stdout}")
        for b, col in zip(blocks, (0, 1)):
            rows = [l.split() for l in b.strip().splitlines()[1:]]
            names = [r[1] for r in rows]
            check(sorted(names) == sorted(expect), f"rank lists every program: {names}")
            want = sorted(expect, key=lambda k: (-expect[k][col], k))
            check(names == want, f"ranking {col}: {names}, expected {want}")
        for name in ("rank-lambda.png", "rank-Lambda.png"):
            f = os.path.join(d, "plots", name)
            check(os.path.exists(f) and os.path.getsize(f) > 2000, f"{name} missing")
        p = edan("run", "--filter=kernel", "--table", "--cache=none;32K", os.path.join(EX, "spmv"), "500")
        lines = p.stdout.strip().splitlines()
        check(p.returncode == 0 and any(l.startswith("No cache") for l in lines), f"table: {p.stdout}")
        check(any("%)" in l and l.startswith("32K") for l in lines), f"table shows reductions: {p.stdout}")


def test_per_function():
    """Per-function W, D, lambda: a leaf kernel's inclusive numbers equal its exclusive ones and a --filter run;
    the caller's inclusive numbers contain the kernel's; the JSON validates."""
    for prog, n in (("pointer_chase", 80), ("spmv", 40)):
        p = edan("run", "--json", "--functions=kernel,main", os.path.join(EX, prog), str(n))
        check(p.returncode == 0, f"{prog}: {p.stderr}")
        r = json.loads(p.stdout.strip().splitlines()[-1])
        validate_schema(r, prog)
        fns = {f["name"]: f for f in r["functions"]}
        k, m = fns["kernel"], fns["main"]
        check(k["inclusive"] == k["exclusive"], f"{prog}: a leaf kernel's inclusive numbers equal its exclusive ones")
        filt = online(prog, n)["configurations"][0]
        check((k["exclusive"]["instructions"], k["exclusive"]["W"], k["exclusive"]["D"]) ==
              (filt["vertices"], filt["W"], filt["D"]), f"{prog}: kernel {k['exclusive']} vs --filter=kernel {filt['W']}")
        check(m["inclusive"]["instructions"] >= m["exclusive"]["instructions"] + k["exclusive"]["instructions"],
              f"{prog}: main's inclusive count contains kernel's")
        check(m["inclusive"]["W"] >= m["exclusive"]["W"] + k["exclusive"]["W"], f"{prog}: inclusive W")
        check(m["inclusive"]["D"] >= k["exclusive"]["D"], f"{prog}: inclusive D")
    c = online("pointer_chase", 80)["configurations"][0]
    check(c["D"] == 80, "pointer chase")
    p = edan("run", "--per-function", os.path.join(EX, "sum"), "100")
    check(p.returncode == 0 and "per function" in p.stdout and "kernel" in p.stdout, f"--per-function: {p.stdout[-500:]}")
    # edan run --per-function counts in a profile run (no trace) what edan analyze --per-function counts in the
    # trace: the same functions, the same numbers; the program's own output appears once
    with tempfile.TemporaryDirectory() as d:
        for prog, n, extra in (("spmv", 300, []), ("sum", 100, ["--filter=main"]),
                               ("spmv", 300, ["--filter=main", "--exclude-callees"])):
            trace = os.path.join(d, prog + ".edt")
            check(edan("record", *extra, "-o", trace, os.path.join(EX, prog), str(n)).returncode == 0, "record")
            a = edan("analyze", "--json", "--per-function", trace)
            o = edan("run", "--json", "--per-function", *extra, os.path.join(EX, prog), str(n))
            check(a.returncode == 0 and o.returncode == 0, f"{prog} {extra}: {a.stderr} {o.stderr}")
            fa = json.loads(a.stdout)["functions"]
            fo = json.loads(o.stdout.strip().splitlines()[-1])["functions"]
            check(fa == fo and len(fo) >= (1 if extra else 2), f"{prog} {extra}: --per-function online {[f['name'] for f in fo]} vs "
                                            f"from the trace {[f['name'] for f in fa]}")
        # both runs read the same standard input: from a pipe (copied first) and from a file
        prog = os.path.join(d, "stdin_sum")
        p = subprocess.run(["riscv64-linux-gnu-gcc", "-std=c17", "-O2", "-static", "-o", prog,
                            os.path.join(os.path.dirname(os.path.abspath(__file__)), "stdin_sum.c")],
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, f"building stdin_sum.c: {p.stderr}")
        numbers = " ".join(str(i) for i in range(1, 3001)) + "\n"
        with open(os.path.join(d, "numbers.txt"), "w") as f:
            f.write(numbers)
        for how in ("pipe", "file"):
            stdin = open(os.path.join(d, "numbers.txt")) if how == "file" else None
            p = subprocess.run([EDAN, "run", "--json", "--per-function", prog], input=None if stdin else numbers,
                               stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            got = json.loads(p.stdout.strip().splitlines()[-1])["functions"] if p.returncode == 0 else []
            # the same functions named, in one run with the input: the same numbers
            q = subprocess.run([EDAN, "run", "--json", "--functions=" + ",".join(f["name"] for f in got), prog],
                               input=numbers, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            want = json.loads(q.stdout.strip().splitlines()[-1])["functions"] if q.returncode == 0 else None
            check(p.returncode == 0 and p.stderr.count("stdin_sum n=3000 checksum=4501500") == 1 and got == want,
                  f"--per-function, standard input from a {how}: {p.stderr[-300:]}")
        p = edan("run", "--per-function", os.path.join(EX, "sum"), "100")
        plain = edan("run", os.path.join(EX, "sum"), "100")
        first = plain.stdout.splitlines()[0]
        check(p.stdout.count(first) == 1 and p.stdout.startswith(first), f"the program's output once: {p.stdout[:300]}")
        # the profile counts the main thread's instructions only, as the analysis does: a second thread
        # that runs 50 times longer than the main one's kernel is not chosen
        prog = os.path.join(d, "two_threads")
        p = subprocess.run(["riscv64-linux-gnu-gcc", "-std=c17", "-O2", "-static", "-pthread", "-o", prog,
                            os.path.join(os.path.dirname(os.path.abspath(__file__)), "two_threads.c")],
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0, f"building two_threads.c: {p.stderr}")
        p = edan("run", "--json", "--per-function", prog, "20000")
        names = [f["name"] for f in json.loads(p.stdout.strip().splitlines()[-1])["functions"]] if p.returncode == 0 else []
        check(p.returncode == 0 and "spin" not in names and names[:2] in (["main", "kernel"], ["kernel", "main"]),
              f"--per-function of a program with a second thread: {names} {p.stderr[-300:]}")


def test_tools():
    """Several analysis tools in one online pass: each tool's section equals the one it gives alone, the eDAG's
    numbers are those of a plain run, the footprint of the summation kernel is its array, and a --per-function
    breakdown of named functions needs no trace."""
    sum_prog = os.path.join(EX, "sum")
    plain = online("sum", 100)
    every = online("sum", 100, "--footprint", "--critical-path", "--functions=kernel,main")
    validate_schema(every, "sum with every tool")
    check(every["configurations"] == plain["configurations"], "the eDAG tool's numbers beside every other tool")
    alone = {"footprint": online("sum", 100, "--footprint")["footprint"],
             "critical_path": online("sum", 100, "--critical-path")["critical_path"],
             "functions": online("sum", 100, "--functions=kernel,main")["functions"]}
    for key, section in alone.items():
        check(every[key] == section, f"the {key} section beside every other tool equals the one it gives alone")
    fp = every["footprint"]
    # kernel loads 100 ints: 400 bytes, 7 lines if the array starts on a line, 8 if it does not
    check(fp["bytes"] == 400 and fp["lines"] in (7, 8), f"footprint of sum 100: {fp['bytes']} bytes, {fp['lines']} lines")
    check([f["name"] for f in fp["functions"]] == ["kernel"] and fp["functions"][0]["bytes"] == 400,
          f"footprint per function: {fp['functions']}")
    k = {f["name"]: f for f in every["functions"]}["kernel"]["exclusive"]
    c = plain["configurations"][0]
    check((k["instructions"], k["W"], k["D"]) == (c["vertices"], c["W"], c["D"]), f"kernel in one pass: {k}")
    check(every["source"]["kind"] == "online", "--functions runs online, in the same pass")
    p = edan("run", "--footprint=yes", sum_prog, "4", expect=2)
    check(p.returncode == 2 and "--footprint takes no value" in p.stderr, f"a tool's flag with a value: {p.stderr}")
    p = edan("run", "--help")
    check(p.returncode == 0 and "--footprint" in p.stdout and "--critical-path" in p.stdout, "tools' options in --help")
    with tempfile.TemporaryDirectory() as d:
        t = os.path.join(d, "sum.edt")
        check(edan("record", "--filter=kernel", "-o", t, sum_prog, "100").returncode == 0, "record sum")
        p = edan("analyze", "--json", "--footprint", t)
        r = json.loads(p.stdout)
        check(r["footprint"] == fp, "the footprint of a recorded trace equals the online one")
        p = edan("analyze", "--per-function", "-", expect=2)
        check(p.returncode == 2 and "--functions" in p.stderr, f"--per-function on a pipe: {p.stderr}")


def test_hostile_plots():
    """File names that would be gnuplot commands if pasted into a script run nothing (issue 20, item 1): the
    plot directory, a trace's name and a program's name reach gnuplot as arguments, and the plots are drawn."""
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "sum"), "8").returncode == 0, "record")
        evil_trace = os.path.join(d, 't\nsystem "touch X"\nx.edt')
        os.link(trace, evil_trace)
        evil_prog = os.path.join(d, "p\nsystem 'touch X'\n")
        os.link(os.path.join(EX, "sum"), evil_prog)
        cases = [
            ["rank", "--plot-dir=p'; system 'touch X'; x='", trace],
            ["rank", "--plot-dir=q\nsystem 'touch X'\n", trace],
            ["analyze", "--plot-dir=p2'; system 'touch X'; x='", trace],
            ["analyze", "--plot-dir=plots", evil_trace],
            ["run", "--filter=kernel", "--plot-dir=plots2", evil_prog, "8"],
        ]
        for args in cases:
            p = edan(*args, cwd=d)
            check(p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr.strip()}")
            check(not os.path.exists(os.path.join(d, "X")), f"{args}: a file name ran a gnuplot command")
        pngs = [f for _, _, fs in os.walk(d) for f in fs if f.endswith(".png")]
        check(len(pngs) == 2 + 2 + 2 + 2 + 2, f"every plot drawn: {sorted(pngs)}")


def test_hostile_options():
    """Numeric options out of their bounds are refused with exit 2 before anything runs (issue 20, item 2): alpha
    values that overflowed a buffer, aborted or silently gave a wrong T1."""
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "sum"), "4").returncode == 0, "record")
        for opt in ("--alpha=18446744073709551615", "--alpha=9223372036854775807", "--alpha=288230376151711744",
                    "--alpha=1099511627777", "--cost=ram=1099511627777", "--m=0", "--m=4294967297",
                    "--tau=4611686018427387905"):
            key = opt.split("=")[0]
            for cmd in (["analyze", opt, trace], ["run", opt, os.path.join(EX, "sum"), "4"]):
                expect_error(cmd, key.lstrip("-") if key != "--cost" else "cost", f"{' '.join(cmd[:2])}")
        # values reach the plugin as they were given (issue 20, item 8): a newline cannot add an option, '#'
        # cannot cut a path, trailing blanks stay
        for name in ("s\nfalse-deps", "a#b.csv", "c.csv  ", "%41\x01.csv"):
            p = edan("run", "--json", "--filter=kernel", "--series-csv=" + name, os.path.join(EX, "sum"), "4", cwd=d)
            r = json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else {}
            check(p.returncode == 0 and r["model"]["false_deps"] is False, f"--series-csv={name!r}: {p.stderr}")
            check(os.path.exists(os.path.join(d, name)), f"--series-csv={name!r}: written under its own name")
        r = json.loads(edan("analyze", "--json", "--alpha=1099511627776", trace).stdout)
        c = r["configurations"][0]
        check(c["T1"] == 4 * 2 ** 40 + c["C"], f"the largest alpha: T1 {c['T1']} = 4 * 2^40 + C")


def test_hostile_files():
    """No command destroys its input (issue 20, item 3) and a file-size limit gives a message, not a silent
    death (item 9): an output option naming an input, through another spelling or a symbolic link, exits 2 and
    leaves the input as it was; a report cut by the limit is not left behind."""
    import hashlib
    digest = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
    with tempfile.TemporaryDirectory() as d:
        t, txt, prog = os.path.join(d, "t.edt"), os.path.join(d, "t.txt"), os.path.join(d, "prog")
        check(edan("record", "--filter=kernel", "-o", t, os.path.join(EX, "sum"), "4").returncode == 0, "record")
        check(edan("convert", t, txt).returncode == 0, "convert")
        subprocess.run(["cp", os.path.join(EX, "sum"), prog], check=True)
        os.symlink(t, os.path.join(d, "link.edt"))
        before = {p: digest(p) for p in (t, txt, prog)}
        cases = [["convert", t, t], ["convert", txt, os.path.join(d, ".", "t.txt")], ["convert", t, "link.edt"],
                 ["analyze", "--output=" + t, t], ["analyze", "--output=link.edt", t], ["analyze", "--series-csv=t.edt", t],
                 ["analyze", "--dot=t.txt", txt], ["dot", "-o", t, t], ["record", "-o", prog, prog, "4"],
                 ["run", "--output=prog", prog, "4"], ["rank", "--output=t.edt", t]]
        for args in cases:
            p = edan(*args, expect=None, cwd=d)
            check(p.returncode == 2 and "destroyed" in p.stderr, f"{args}: exit {p.returncode}: {p.stderr.strip()}")
        check({p: digest(p) for p in before} == before, "every input as it was")
        limited = lambda *args: subprocess.run(["sh", "-c", 'ulimit -f 0; exec "$@"', "sh", EDAN, *args], cwd=d,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        p = limited("analyze", "--output=cut.txt", t)
        check(p.returncode == 1 and "cut.txt" in p.stderr and "File too large" in p.stderr,
              f"report past the file-size limit: {p.returncode} {p.stderr.strip()}")
        check(sorted(os.listdir(d)) == ["link.edt", "prog", "t.edt", "t.txt"], f"nothing left behind: {os.listdir(d)}")
        # the plugin's files live in edan's own temporary directory, for every mode (record once used "/opts")
        spy = os.path.join(d, "spy-qemu")
        with open(spy, "w") as f:
            f.write('#!/bin/sh\necho "$2" > "$SPY_OUT"\nexec qemu-riscv64 "$@"\n')
        os.chmod(spy, 0o755)
        tmp = os.path.join(d, "tmp")
        os.mkdir(tmp)
        for mode in (["record", "-o", os.path.join(d, "s.edt")], ["run"]):
            out = os.path.join(d, "spy.txt")
            subprocess.run([EDAN, mode[0], "--qemu=" + spy, *mode[1:], os.path.join(EX, "sum"), "4"],
                           env={**os.environ, "TMPDIR": tmp, "SPY_OUT": out}, stdout=subprocess.DEVNULL)
            args = dict(kv.split("=", 1) for kv in open(out).read().strip().split(",")[1:])
            check(args["opts"].startswith(tmp + "/edan.") and args["status"].startswith(tmp + "/edan."),
                  f"{mode[0]}: the plugin's files outside edan's temporary directory: {args}")
            check(os.listdir(tmp) == [], f"{mode[0]}: temporary directory left: {os.listdir(tmp)}")
            os.unlink(out)
        os.rmdir(tmp)
        for f in ("s.edt", "spy-qemu"):
            os.unlink(os.path.join(d, f))
        # a trace is written beside its name and renamed when whole: a run that fails leaves the old file, a
        # symbolic link is replaced rather than followed, and no temporary file stays behind
        dead = os.path.join(d, "dead-qemu")
        with open(dead, "w") as f:
            f.write("#!/bin/sh\nexit 1\n")
        os.chmod(dead, 0o755)
        old_digest = digest(t)
        p = edan("record", "--qemu=" + dead, "-o", t, os.path.join(EX, "sum"), "4", expect=None)
        check(p.returncode != 0 and digest(t) == old_digest, f"a failed record left the old trace: {p.returncode}")
        target = os.path.join(d, "target.txt")
        with open(target, "w") as f:
            f.write("keep\n")
        os.symlink(target, os.path.join(d, "lnk.edt"))
        check(edan("record", "-o", os.path.join(d, "lnk.edt"), os.path.join(EX, "sum"), "4").returncode == 0, "record")
        check(open(target).read() == "keep\n" and not os.path.islink(os.path.join(d, "lnk.edt")),
              "recording to a symbolic link replaces the link, not its target")
        check(edan("convert", os.path.join(d, "lnk.edt"), txt).returncode == 0, "convert over an existing file")
        import re
        left = [f for f in os.listdir(d) if re.fullmatch(r".*\.(edt|txt)\.[A-Za-z0-9]{6}", f)]
        check(left == [], f"no temporary file left: {left}")
        for f in ("dead-qemu", "target.txt", "lnk.edt"):
            os.unlink(os.path.join(d, f))
        p = limited("convert", t, "cut.txt")
        check(p.returncode == 2 and "cut.txt" in p.stderr, f"convert past the limit: {p.returncode} {p.stderr.strip()}")


def test_hostile_processes():
    """No hang and no orphan (issue 20, item 4): a program that forks is traced to its end with a warning, and
    SIGTERM, SIGINT or SIGKILL to edan stops QEMU, with edan's temporary directory removed."""
    import signal
    import time
    p = subprocess.run([EDAN, "run", "--json", "--filter=kernel", os.path.join(EX, "fork"), "100"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    check(p.returncode == 0 and "forked 1 time" in p.stderr, f"a forking program: {p.returncode} {p.stderr}")
    r = json.loads(p.stdout.strip().splitlines()[-1])
    check(r["configurations"][0]["W"] == 100, f"the parent's kernel traced: W = {r['configurations'][0]['W']}")
    long_run = os.path.join(BUILD, "bench", "cg")
    if not os.path.exists(long_run):
        check(False, "the cg workload is built")
        return
    with tempfile.TemporaryDirectory() as d:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
            trace = os.path.join(d, "t.edt")
            proc = subprocess.Popen([EDAN, "record", "-o", trace, long_run, "24", "100000"], env={**os.environ,
                                    "TMPDIR": d}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            time.sleep(1.5)
            proc.send_signal(sig)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                check(False, f"edan did not stop on signal {sig}")
            deadline = time.time() + 10
            while time.time() < deadline and subprocess.run(["pgrep", "-f", d], stdout=subprocess.DEVNULL).returncode == 0:
                time.sleep(0.1)
            left = subprocess.run(["pgrep", "-af", d], stdout=subprocess.PIPE, text=True).stdout
            check(not left, f"signal {sig}: QEMU left running: {left}")
            subprocess.run(["pkill", "-9", "-f", d])
            if sig != signal.SIGKILL:
                check(proc.returncode == 128 + sig, f"signal {sig}: exit {proc.returncode}")
                check([f for f in os.listdir(d) if f.startswith("edan.")] == [], f"temporary directory left: {os.listdir(d)}")
            for f in os.listdir(d):
                subprocess.run(["rm", "-rf", os.path.join(d, f)])


def test_hostile_inputs():
    """Empty and failed runs never pass as results (issue 20, item 6, and the issue's list of smaller cases):
    exit 2 with one line naming the file, and valid JSON whatever bytes a file name holds."""
    sumbin = os.path.join(EX, "sum")
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, sumbin, "4").returncode == 0, "record")
        empty = os.path.join(d, "empty.edt")
        open(empty, "w").close()
        expect_error(["analyze", empty], "empty.edt", "an empty file")
        expect_error(["analyze", "/dev/null"], "/dev/null", "a character device")
        expect_error(["analyze", d], "directory", "a directory")
        expect_error(["convert", empty, os.path.join(d, "x.txt")], "empty", "convert of an empty file")
        # a trace through a pipe, a FIFO or standard input is read once, from its start (item 5)
        big, big_txt = os.path.join(d, "big.edt"), os.path.join(d, "big.txt")
        check(edan("record", "-o", big, os.path.join(EX, "spmv"), "200").returncode == 0, "record spmv")
        check(edan("convert", big, big_txt).returncode == 0, "convert spmv")
        want = json.loads(edan("analyze", "--json", big).stdout)["configurations"]
        for src in (big, big_txt):
            for how in ("pipe", "fifo", "stdin"):
                if how == "stdin":
                    p = subprocess.run([EDAN, "analyze", "--json", "-"], stdin=open(src, "rb"), stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)
                else:
                    path = os.path.join(d, "fifo")
                    if how == "fifo":
                        os.mkfifo(path)
                        feeder = subprocess.Popen(["sh", "-c", 'cat "$1" > "$2"', "sh", src, path])
                    else:
                        feeder = subprocess.Popen(["cat", src], stdout=subprocess.PIPE)
                        path = f"/dev/fd/{feeder.stdout.fileno()}"
                    p = subprocess.run([EDAN, "analyze", "--json", path], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, pass_fds=(() if how == "fifo" else
                                                                                  (feeder.stdout.fileno(),)))
                    feeder.wait()
                    if how == "fifo":
                        os.unlink(path)
                got = json.loads(p.stdout)["configurations"] if p.returncode == 0 else p.stderr
                check(got == want, f"{os.path.basename(src)} through a {how}: {str(got)[:200]}")
        # a rebuilt program is noticed, a FIFO in its place does not hang (item 10)
        prog2, st = os.path.join(d, "prog2"), os.path.join(d, "st.edt")
        subprocess.run(["cp", sumbin, prog2], check=True)
        check(edan("record", "--filter=kernel", "-o", st, prog2, "4").returncode == 0, "record a copy")
        check(edan("analyze", "--critical-path", st).returncode == 0, "the program as traced")
        subprocess.run(["cp", os.path.join(EX, "spmv"), prog2], check=True)
        for opt in ("--critical-path", "--per-function", "--functions=kernel", "--footprint"):
            expect_error(["analyze", opt, st], "has changed since it was traced", f"a rebuilt program with {opt}")
        check(edan("analyze", st).returncode == 0, "no tool reads the program: the trace alone is analysed")
        os.unlink(prog2)
        os.mkfifo(prog2)
        try:
            p = subprocess.run([EDAN, "analyze", "--critical-path", st], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=30)
            check(p.returncode == 2 and "not a regular file" in p.stderr, f"a FIFO as the program: {p.stderr}")
        except subprocess.TimeoutExpired:
            check(False, "a FIFO as the program hung the command")
        os.unlink(prog2)
        txt, back = os.path.join(d, "t.txt"), os.path.join(d, "back.edt")
        check(edan("convert", trace, txt).returncode == 0, "binary to text")
        expect_error(["convert", txt, back], "text trace", "text to binary, which the format cannot hold (item 11)")
        check(not os.path.exists(back), "no output of a refused conversion")
        src = os.path.join(d, "d.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        dyn = os.path.join(d, "dyn")
        if subprocess.run(["riscv64-linux-gnu-gcc", "-o", dyn, src]).returncode == 0:
            expect_error(["run", dyn], "dynamically linked", "a dynamically linked program")
        # QEMU under a low address-space limit cannot start the program (the limit on QEMU alone: edan's own
        # sanitizer build could not run under it)
        low = os.path.join(d, "low-qemu")
        with open(low, "w") as f:
            f.write('#!/bin/sh\nulimit -v 200000\nexec qemu-riscv64 "$@"\n')
        os.chmod(low, 0o755)
        for cmd in (["record", "--qemu=" + low, "-o", os.path.join(d, "r.edt"), sumbin, "4"],
                    ["run", "--qemu=" + low, sumbin, "4"]):
            p = subprocess.run([EDAN, *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            check(p.returncode == 2 and "did not run" in p.stderr, f"{cmd[0]} under a low ulimit -v: {p.returncode} "
                  f"{p.stderr.strip()}")
        check(not os.path.exists(os.path.join(d, "r.edt")), "no empty trace left by a run that did not start")
        p = edan("analyze", os.path.join(d, "x\x1b[31mred\nline"), expect=None)
        check(p.returncode == 2 and "\x1b" not in p.stderr and p.stderr.count("\n") == 1,
              f"a file name's escapes stay out of the terminal: {p.stderr!r}")
        odd = os.path.join(d.encode(), b"b\xff\xc0\xc3\xa9.edt")
        os.link(trace, odd)
        p = subprocess.run([EDAN.encode(), b"analyze", b"--json", odd], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            path = json.loads(p.stdout.decode("utf-8"))["source"]["path"]
            check(path.endswith("b\ufffd\ufffd\u00e9.edt"), f"invalid UTF-8 replaced: {path!r}")
        except (UnicodeDecodeError, ValueError) as e:
            check(False, f"a file name that is not UTF-8 made the JSON invalid: {e}")
        for opt in ("--cache=", "--output=", "--alpha=", "--functions="):
            expect_error(["analyze", opt, trace], opt.split("=")[0].lstrip("-"), f"{opt}")
        expect_error(["analyze", "--cost-file=" + d, trace], "directory", "--cost-file naming a directory")
        expect_error(["record", "-o", "-", sumbin, "4"], "-o -", "record to standard output")
        check(not os.path.exists("-"), "no file named '-'")
        p = edan("analyze", "--output=-", trace)
        check(p.returncode == 0 and p.stdout.startswith("edan: eDAG analysis"), "--output=- is standard output")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
