#!/usr/bin/env python3
"""Hostile numbers, options and near-empty inputs (issue 35), through the edan command on real programs and traces:
totals that 64 bits cannot hold are refused (exit 2) and the largest that fits is exact; numbers are plain decimal,
lists have no length limit and no empty element, an option taking one value is given once, standard output is one
output and its write is checked; machine files keep every key in a sane range and name the file, line and key; a
text trace of comments, an analysis out of memory, a mismatched source file or .binanlys are never a silent result.

usage: hostile_numbers_test.py BUILD_DIR CATEGORY (totals, options, machine, empty, annotate, memgaze).
Prints 'N passed, N failed'.
"""
import json
import os
import re
import subprocess
import tempfile
import time

from realrun_lib import EDAN, EX, check, edan, run_category

MACHINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines")
CLASSES = ["int", "mul", "div", "fadd", "fmul", "ffma", "fdiv", "fsqrt", "branch", "hit", "ram"]


def refused(args, needle, what, status=2):
    p = edan(*args, expect=None)
    check(p.returncode == status and needle in p.stderr and p.stderr.count("\n") == 1,
          f"{what}: expected exit {status} and one line with {needle!r}, got {p.returncode}: {p.stderr!r}")
    return p


def test_totals():
    """n instructions that each cost A make T1 = n * A: exact while it fits in 64 bits, refused from A + 1 on."""
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "sum.edt")
        sumbin = os.path.join(EX, "sum")
        check(edan("record", "--filter=kernel", "-o", trace, sumbin, "4200000").returncode == 0, "record 16.8 M")
        p = edan("analyze", "--json", trace)
        n = json.loads(p.stdout)["configurations"][0]["vertices"]
        check(n > 1 << 24, f"past 2^24 instructions, where a cost of 2^40 can wrap: {n}")
        a = (2 ** 64 - 1) // n

        def cost(c):
            return "--cost=" + ",".join(f"{k}={c}" for k in CLASSES)

        p = edan("analyze", "--json", cost(a), trace)
        cfg = json.loads(p.stdout)["configurations"][0] if p.returncode == 0 else {}
        check(p.returncode == 0 and cfg.get("T1") == n * a and cfg.get("alpha") == a,
              f"every vertex {a} cycles: T1 {cfg.get('T1')}, expected {n * a} exactly: {p.stderr}")
        refused(["analyze", cost(a + 1), trace], "cannot be represented", "one cycle more: n x cost > 2^64 - 1")
        # the issue's --alpha=2^40: 4.2 M loads at 2^40 and 12.6 M instructions at 1 fit (the bound counts the
        # loads, not every instruction at alpha), exactly; 16.8 M loads (> 2^24) do not
        p = edan("analyze", "--json", "--alpha=1099511627776", trace)
        cfg = json.loads(p.stdout)["configurations"][0] if p.returncode == 0 else {}
        want = cfg.get("loads", 0) * 2 ** 40 + (n - cfg.get("loads", 0))
        check(p.returncode == 0 and cfg.get("loads") == 4200000 and cfg.get("T1") == want,
              f"alpha 2^40 on 4.2 M loads: T1 {cfg.get('T1')}, expected {want}: {p.stderr}")
        more = os.path.join(d, "more.edt")
        check(edan("record", "--filter=kernel", "-o", more, sumbin, "16800000").returncode == 0, "record 16.8 M loads")
        refused(["analyze", "--alpha=1099511627776", more], "cannot be represented", "alpha 2^40 on 16.8 M loads")
        # annotate runs the critical path without the eDAG tool: the same bound (the options' costs, not a tool's)
        refused(["annotate", "--alpha=1099511627776", more], "cannot be represented", "annotate: the critical path")
        # the same bound in the plugin's online analysis
        p = edan("run", "--filter=kernel", cost(a + 1), sumbin, "4200000", expect=None)
        check(p.returncode == 2 and "cannot be represented" in p.stderr and "T1" not in p.stdout,
              f"run: refused as analyze does: {p.returncode} {p.stderr!r}")


def test_options():
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "sum"), "4").returncode == 0, "record")
        machine = os.path.join(MACHINES, "gem5-validation.ini")
        for opt, needle in (("--cost=,", "empty element"), ("--alpha=1,,2", "empty element"),
                            ("--m=4:", "empty element"), ("--cache=none;;32K", "empty configuration"),
                            ("--alpha=0x10", "not an integer"), ("--cost=int=0x10", "not a number of cycles"),
                            ("--cache=0x8000", "--cache"), ("--clock=1e-300", "from 0.001 to 100"),
                            ("--clock=inf", "--clock"), ("--alpha0=nan", "--alpha0"), ("--tau=1e3", "--tau")):
            refused(["analyze", opt, trace], needle, opt)
        refused(["analyze", "--machine=" + machine, "--mem-latency=1,,2", trace], "empty element", "--mem-latency=1,,2")
        # a list far longer than 500 characters is read (the leading zeros make it one valid value)
        p = edan("analyze", "--json", "--alpha=" + "0" * 2000 + "300,100", trace)
        alphas = [c["alpha"] for c in json.loads(p.stdout)["configurations"]] if p.returncode == 0 else p.stderr
        check(alphas == [300, 100], f"a 2007-character --alpha: {alphas}")
        refused(["analyze", "--alpha=" + ",".join(["1"] * 300), trace], "at most 8 values", "300 alphas: the count")
        # one value each: a second -o or --machine is refused, lists add up
        refused(["record", "-o", os.path.join(d, "a.edt"), "-o", os.path.join(d, "b.edt"), os.path.join(EX, "sum")],
                "given twice", "-o twice")
        refused(["analyze", "--machine=" + machine, "--machine=" + machine, trace], "--machine given twice",
                "--machine twice")
        refused(["analyze", "--output=" + os.path.join(d, "1"), "--output=" + os.path.join(d, "2"), trace],
                "--output given twice", "--output twice")
        check(not os.path.exists(os.path.join(d, "1")) and not os.path.exists(os.path.join(d, "2")), "no output")
        p = edan("analyze", "--json", "--cache=none", "--cache=4K", trace)
        check(p.returncode == 0 and len(json.loads(p.stdout)["configurations"]) == 2, "--cache twice: a list")
        # two outputs on standard output
        refused(["analyze", "--json", "--dot=-", trace], "standard output", "--json --dot=-")
        refused(["analyze", "--dot=-", trace], "standard output", "--dot=- beside the text report")
        p = edan("analyze", "--json", "--dot=-", "--output=" + os.path.join(d, "r.json"), trace)
        check(p.returncode == 0 and p.stdout.startswith("digraph") and
              json.load(open(os.path.join(d, "r.json")))["configurations"], "--dot=- with the report in a file")
        # every command's output to a full device fails
        for args in (["help"], ["--help"], ["--version"], ["run", "--help"], ["help", "annotate"], ["analyze", trace],
                     ["dot", trace], ["locality", "--help"]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([EDAN, *args], stdout=full, stderr=subprocess.PIPE, text=True)
            check(p.returncode != 0 and "write failed" in p.stderr, f"edan {' '.join(args)} > /dev/full: "
                  f"{p.returncode} {p.stderr!r}")


def test_machine():
    with open(os.path.join(MACHINES, "server-ddr5.ini")) as f:
        good = f.read()

    def line_of(needle, after=""):
        start = good.index(after) if after else 0
        return good[:good.index(needle, start)].count("\n") + 1

    cases = [  # (change, what the message names, the line)
        (("clock_ghz = 3.0", "clock_ghz = 1e-300"), "clock_ghz = '1e-300'", line_of("clock_ghz")),
        (("clock_ghz = 3.0", "clock_ghz = 0x3"), "clock_ghz = '0x3'", line_of("clock_ghz")),
        (("clock_ghz = 3.0", "clock_ghz = inf"), "clock_ghz = 'inf'", line_of("clock_ghz")),
        (("clock_ghz = 3.0", "clock_ghz = nan"), "clock_ghz = 'nan'", line_of("clock_ghz")),
        (("rob_entries = 320", "rob_entries = 0x140"), "rob_entries = '0x140'", line_of("rob_entries")),
        (("latency_ns = 95", "latency_ns = 1e-300"), "latency_ns = '1e-300'", line_of("latency_ns")),
        (("bandwidth_gbs = 40", "bandwidth_gbs = 1e-300"), "bandwidth_gbs = '1e-300'", line_of("bandwidth_gbs")),
        (("peak_gflops = 48", "peak_gflops = 1e-300"), "peak_gflops = '1e-300'", line_of("peak_gflops")),
        (("div_weight = 39", "div_weight = 0x27"), "div_weight = '0x27'", line_of("div_weight")),
        (("size = 32M", "size = 512K"), "[l3] size = 512K is smaller than [l2] size = 1M", line_of("size = 32M")),
        (("size = 1M", "size = 16K"), "[l2] size = 16K is smaller than [l1d] size = 32K", line_of("size = 1M")),
        (("size = 1M", "size = 0x100000"), "size = '0x100000'", line_of("size = 1M")),
        (("store_set_bytes = 0", "store_set_bytes = 48"), "store_set_bytes = 48", line_of("store_set_bytes")),
        (("predictor_entries = 16384", "predictor_entries = 1000"), "predictor_entries = 1000",
         line_of("predictor_entries")),
    ]
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "sum"), "4").returncode == 0, "record")
        check(edan("analyze", "--machine=" + os.path.join(MACHINES, "server-ddr5.ini"), trace).returncode == 0,
              "the good file")
        for i, ((old, new), needle, line) in enumerate(cases):
            check(old in good, f"case {i}: {old!r} in the shipped file")
            bad = os.path.join(d, f"bad{i}.ini")
            with open(bad, "w") as f:
                f.write(good.replace(old, new, 1))
            refused(["analyze", "--machine=" + bad, trace], f"{bad}:{line}: {needle}" if "[" in needle else needle,
                    f"machine file case {i} ({new})")
            p = edan("analyze", "--machine=" + bad, trace, expect=None)
            check(f"{bad}:{line}:" in p.stderr, f"case {i} names the file and line {line}: {p.stderr!r}")


def test_empty():
    with tempfile.TemporaryDirectory() as d:
        comments = os.path.join(d, "comments.txt")
        with open(comments, "w") as f:
            f.write("# a trace of comments\n\n   # and blank lines\n")
        refused(["analyze", comments], f"{comments}:3: no instruction", "a text trace of only comments")
        refused(["convert", "--text", comments, os.path.join(d, "out.txt")], "no instruction", "converting it")
        check(not os.path.exists(os.path.join(d, "out.txt")), "no conversion left")
        with open(comments, "w") as f:
            f.write("# edan text trace 1\n# edan end: 0 instructions\n")
        refused(["analyze", comments], f"{comments}:2: no instruction", "an edan text trace of no instruction")
        # out of memory in an analysis: exit 2 and a message saying so (it exited 1), as from the plugin
        trace = os.path.join(d, "t.edt")
        check(edan("record", "--filter=kernel", "-o", trace, os.path.join(EX, "sum"), "4200000").returncode == 0,
              "record")
        probe = subprocess.run(["sh", "-c", 'ulimit -v 150000; exec "$@"', "sh", EDAN, "--version"],
                               capture_output=True, text=True)
        if probe.returncode != 0:  # the sanitizer build reserves terabytes of address space: it cannot run limited
            check("AddressSanitizer" in probe.stderr or "ERROR" in probe.stderr,
                  f"only a sanitizer build fails under ulimit -v: {probe.stderr[:200]!r}")
            return
        for tool in ("--zoom", "--classes"):
            p = subprocess.run(["sh", "-c", 'ulimit -v 100000; exec "$@"', "sh", EDAN, "analyze", tool, trace],
                               capture_output=True, text=True)
            check(p.returncode == 2 and "out of memory" in p.stderr and p.stderr.count("\n") == 1,
                  f"{tool} out of memory: exit {p.returncode}: {p.stderr!r}")


PROGRAM = """#include <stdio.h>
#include <stdlib.h>
/* a comment with a terminal escape: \x1b[31mRED\x1b[0m and a bell \x07 */
__attribute__((noinline)) long kernel(const long *a, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    long *a = calloc(n, sizeof *a);
    printf("%ld\\n", kernel(a, n));
    return 0;
}
"""


def test_annotate():
    with tempfile.TemporaryDirectory() as d:
        src, prog, trace = (os.path.join(d, n) for n in ("k.c", "k", "k.edt"))
        with open(src, "w") as f:
            f.write(PROGRAM)
        os.utime(src, (time.time() - 100, time.time() - 100))
        cc = subprocess.run(["riscv64-linux-gnu-gcc", "-O1", "-g", "-static", "-o", prog, src], capture_output=True,
                            text=True)
        check(cc.returncode == 0, f"compile: {cc.stderr}")
        check(edan("record", "--filter=kernel", "-o", trace, prog, "100").returncode == 0, "record")
        p = edan("annotate", trace)
        check(p.returncode == 0 and "s += a[i];" in p.stdout and "warning" not in p.stdout,
              f"the source as built: annotated, no warning: {p.stderr}")
        check("\x1b" not in p.stdout and "\x07" not in p.stdout and "?[31mRED?[0m and a bell ?" in p.stdout,
              "the source's control characters shown as '?'")
        # edited after the program was built
        with open(src, "a") as f:
            f.write("/* edited */\n")
        p = edan("annotate", trace)
        check(p.returncode == 0 and "warning: the file was modified after the program was built" in p.stdout,
              f"a source newer than the program: {p.stdout[-600:]!r}")
        # shorter than its debug lines
        with open(src, "w") as f:
            f.write("int x;\n")
        os.utime(src, (time.time() - 100, time.time() - 100))
        p = edan("annotate", trace)
        check(p.returncode == 0 and re.search(r"warning: the file has 1 lines, but .* at line \d+", p.stdout),
              f"a source shorter than its debug lines: {p.stdout[-600:]!r}")


def test_memgaze():
    """Load classes whose IPs match few of a trace's loads: a warning with the share matched."""
    with tempfile.TemporaryDirectory() as d:
        trace, good, other = (os.path.join(d, n) for n in ("m.trace", "good.binanlys", "other.binanlys"))
        with open(trace, "w") as f:
            for i in range(2000):
                f.write(f"0x{0x400000 + 4 * (i % 8):x} 0x{0x10000000 + 64 * i:x} 0 {1000.5 + i} {i // 500}\n")
        for path, base, listed in ((good, 0x400000, 8), (other, 0x500000, 8)):
            with open(path, "w") as f:
                for k in range(listed):
                    f.write(f"0x{base + 4 * k:x} 1 0x0 0x4 0x0\n")
        mg = ["locality", "--memgaze-table", "--period=100", trace]
        p = edan(*mg, "--load-classes=" + good)
        check(p.returncode == 0 and p.stderr == "", f"matching classes: no warning: {p.stderr!r}")
        p = edan(*mg, "--load-classes=" + other)
        check(p.returncode == 0 and "warning" in p.stderr and "0.0% of the trace's 2000 loads" in p.stderr,
              f"classes of another binary: a warning with the share: {p.stderr!r}")
        with open(other, "a") as f:  # three of the eight IPs: 750 of 2000 loads
            for k in range(3):
                f.write(f"0x{0x400000 + 4 * k:x} 1 0x0 0x4 0x0\n")
        p = edan(*mg, "--load-classes=" + other)
        check(p.returncode == 0 and "37.5% of the trace's 2000 loads" in p.stderr, f"a few matched: {p.stderr!r}")
        escaped = os.path.join(d, "x\x1b[31mred.binanlys")
        os.rename(other, escaped)
        p = edan(*mg, "--load-classes=" + escaped)
        check(p.returncode == 0 and "?[31mred.binanlys" in p.stderr and "\x1b" not in p.stderr,
              f"the warning keeps a file name's escapes out of the terminal: {p.stderr!r}")
        refused([*mg, "--load-classes=" + good, "--load-classes=" + good], "--load-classes given twice",
                "--load-classes twice")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
