#!/usr/bin/env python3
"""The traced program's surroundings on real runs: the same numbers from any environment, directory,
program path and $TMPDIR; --env, --pass-env and --real-path; the program's standard output kept out of a
machine-readable report (--program-output); C++ functions named as users write them, demangled in
every report; an option given twice, as the option table says (repeated).

usage: cli_test.py BUILD_DIR CATEGORY   (categories: reproducible, program_output, cxx_names, cache_presets, rank,
       annotate, repeated)
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

from realrun_lib import EDAN, EX, SANITIZED, check, metrics, run_category, share


def report(*args, env_extra=None, cwd=None, drop=(), cache=("--cache=32K",)):
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra or {})
    p = subprocess.run([EDAN, "run", "--json", *cache, *args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    check(p.returncode == 0, f"edan run {args}: {p.stderr}")
    return json.loads(p.stdout) if p.returncode == 0 else {}


def test_reproducible():
    spmv = os.path.join(EX, "spmv")
    base = metrics(report(spmv, "50"))
    big = {"EDAN_TEST_BIG": "x" * 3000}
    with tempfile.TemporaryDirectory() as d:
        same = [
            ("a 3000-byte variable in the caller's environment", metrics(report(spmv, "50", env_extra=big))),
            ("another working directory", metrics(report(spmv, "50", cwd=d))),
            ("a relative program path", metrics(report(os.path.relpath(spmv, d), "50", cwd=d))),
            ("another $TMPDIR", metrics(report(spmv, "50", env_extra={"TMPDIR": d}))),
            ("no $HOME and no $PATH entries beyond /usr/bin:/bin",
             metrics(report(spmv, "50", drop=("HOME",), env_extra={"PATH": "/usr/bin:/bin"}))),
        ]
        # the program's own path: the C library keeps its directory (/proc/self/exe) on the heap
        far = os.path.join(d, "a-directory-with-a-long-name-that-would-move-the-heap-" + "x" * 40)
        os.mkdir(far)
        shutil.copy(spmv, far)
        same.append(("a copy of the program under a long path", metrics(report(os.path.join(far, "spmv"), "50"))))
        kernel = metrics(report("--filter=kernel", spmv, "200"))
        check(kernel == metrics(report("--filter=kernel", os.path.join(far, "spmv"), "200")),
              "spmv 200's kernel: the same from a long path")
    for what, m in same:
        check(m == base, f"whole-program spmv 50: {what} changes the report")
    # the caller's environment, when asked for, reaches the program (and moves its stack)
    passed = metrics(report("--pass-env", spmv, "50", env_extra=big))
    passed_small = metrics(report("--pass-env", spmv, "50"))
    check(passed != passed_small, "--pass-env: the caller's environment reaches the program")
    with_env = metrics(report("--env=EDAN_TEST_BIG=" + "y" * 3000, spmv, "50"))
    check(with_env != base, "--env: the variable reaches the program")
    check(with_env == metrics(report("--env=EDAN_TEST_BIG=" + "y" * 3000, spmv, "50", env_extra=big)),
          "--env: and nothing else of the caller's")
    # --real-path: the program runs by the path given (gem5's way, validation/sweep.py), so its heap moves
    # with the path's directory; by default it does not
    with tempfile.TemporaryDirectory() as d:
        far = os.path.join(d, "a-directory-with-a-long-name-that-would-move-the-heap-" + "x" * 40)
        os.mkdir(far)
        shutil.copy(spmv, far)
        out = os.path.join(d, "trace.txt")

        def heap_trace(*args):
            p = subprocess.run([EDAN, "record", "--text", "--filter=kernel", "--no-progress", "-o", out, *args],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            check(p.returncode == 0, f"edan record {args}: {p.stderr}")
            return open(out).read() if p.returncode == 0 else None

        # edan's own directory: QEMU's LD_PRELOAD names it, and never reaches the program's environment
        far_edan = os.path.join(d, "an-install-directory-with-a-long-name-" + "y" * 60)
        os.mkdir(far_edan)
        for f in ("edan", "libedan_plugin.so", "libedan_preload.so"):
            shutil.copy2(os.path.join(os.path.dirname(os.path.abspath(EDAN)), f), far_edan)

        def whole_trace(edan):
            p = subprocess.run([edan, "record", "--text", "--no-progress", "-o", out, os.path.join(EX, "sum")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            check(p.returncode == 0, f"{edan} record sum: {p.stderr}")
            return open(out).read() if p.returncode == 0 else None

        here, there = whole_trace(EDAN), whole_trace(os.path.join(far_edan, "edan"))
        check(here and here == there, "a copy of edan under a long path records another trace of sum")
        near_real, far_real = heap_trace("--real-path", spmv, "50"), heap_trace("--real-path", far + "/spmv", "50")
        check(near_real and far_real and near_real != far_real, "--real-path: a longer path moves the heap")
        check(len(near_real.splitlines()) == len(far_real.splitlines()), "--real-path: the same instructions")
        check(heap_trace(spmv, "50") == heap_trace(far + "/spmv", "50"), "without --real-path the heap stays")

        # the time the program reads is edan's clock (src/plugin/plugin_clock.c): a program whose kernel's length
        # and output depend on it runs the same each time, its clock going forward 1 ms a reading
        def clock_run(*args):
            p = subprocess.run([EDAN, "record", "--text", "--filter=kernel", "--no-progress", "-o", out, *args,
                                os.path.join(EX, "clock"), "40"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            check(p.returncode == 0, f"edan record clock {args}: {p.stderr}")
            return p.stdout, open(out).read() if p.returncode == 0 else None

        runs = [clock_run(), clock_run(), clock_run("--real-path"), clock_run("--real-path")]
        check(runs[0][1] and runs[0] == runs[1], f"clock: the same output and trace in two runs: {runs[0][0]!r}, "
              f"{runs[1][0]!r}")
        check(runs[2][1] and runs[2] == runs[3], f"clock: and with --real-path: {runs[2][0]!r}, {runs[3][0]!r}")
        check(runs[0][0] == runs[2][0], "clock: the same output with --real-path")
        check(runs[0][0].startswith("monotonic 1000000000.001000000 gettimeofday 1000000000.002000 "
                                    "realtime 1000000000.003000000\n"), f"clock: edan's clock: {runs[0][0]!r}")
    for bad, needle in (("--env=NOEQUALS", "NAME=VALUE"), ("--env==x", "NAME=VALUE"), ("--env=A B=1", "NAME=VALUE"),
                        ("--pass-env=1", "takes no value"), ("--real-path=1", "takes no value")):
        p = subprocess.run([EDAN, "run", bad, spmv, "5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and needle in p.stderr, f"{bad}: exit {p.returncode}, {p.stderr!r}")


def test_program_output():
    spmv = os.path.join(EX, "spmv")
    p = subprocess.run([EDAN, "run", "--json", "--filter=kernel", spmv, "100"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    try:
        json.loads(p.stdout)
        ok = True
    except ValueError:
        ok = False
    check(p.returncode == 0 and ok, f"--json on stdout is the whole of stdout: {p.stdout[:200]!r}")
    check("spmv" in p.stderr or "checksum" in p.stderr, f"the program's output on stderr: {p.stderr[:200]!r}")
    t = subprocess.run([EDAN, "run", "--table", "--filter=kernel", spmv, "100"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(t.returncode == 0 and "checksum" not in t.stdout, "--table: the program's output is not in the table")
    text = subprocess.run([EDAN, "run", "--filter=kernel", spmv, "100"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    prog_line = [line for line in text.stdout.splitlines() if "checksum" in line]
    check(text.returncode == 0 and prog_line, "a text report keeps the program's output on stdout")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "prog.out")
        f = subprocess.run([EDAN, "run", "--json", "--program-output=" + out, "--filter=kernel", spmv, "100"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(f.returncode == 0 and open(out).read().strip() == prog_line[0].strip() and json.loads(f.stdout),
              f"--program-output=FILE: {open(out).read()!r}")
        s = subprocess.run([EDAN, "run", "--json", "--program-output=stdout", "--filter=kernel", spmv, "100"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(s.returncode == 0 and s.stdout.startswith(prog_line[0]), "--program-output=stdout: as asked")
        bad = subprocess.run([EDAN, "run", "--program-output=" + os.path.join(d, "no", "such"), spmv, "5"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(bad.returncode == 2 and "--program-output" in bad.stderr, f"an unwritable file: {bad.stderr!r}")


def w_of(*args):
    p = subprocess.run([EDAN, "run", "--json", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, f"edan run {args}: {p.stderr}")
    return json.loads(p.stdout)["configurations"][0]["W"] if p.returncode == 0 else None


def test_cxx_names():
    prog = os.path.join(EX, "cxx_stencil")
    args = [prog, "300", "3"]
    # the outer overload holds the inner one: every way of naming smooth traces the same region
    outer = w_of("--filter=grid::smooth(grid::Field&, int)", *args)
    for name in ("smooth", "grid::smooth", "grid::smooth(grid::Field&,int)", "_ZN4grid6smoothERNS_5FieldEi",
                 "grid::smooth(grid::Field&),smooth"):
        check(w_of("--filter=" + name, *args) == outer and outer, f"--filter={name} traces grid::smooth")
    inner = w_of("--filter=_ZN4grid6smoothERNS_5FieldE", *args)
    check(inner == w_of("--filter=grid::smooth(grid::Field&)", *args) and 0 < inner <= outer, "the inner overload")
    # a template by its plain name: every instance
    both = w_of("--filter=total", *args)
    check(both == w_of("--filter=grid::total<int>", *args) + w_of("--filter=grid::total<double>", *args)
          and both == w_of("--filter=grid::total", *args), f"--filter=total: both instances ({both})")
    # a misspelling: the suggestion is the demangled function, not unrelated short names
    p = subprocess.run([EDAN, "run", "--filter=smoth", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    check(p.returncode == 2 and "similar names: grid::smooth(grid::Field&)" in p.stderr and "stat" not in p.stderr,
          f"a misspelt name: {p.stderr.strip()}")
    # reports: demangled names everywhere
    p = subprocess.run([EDAN, "run", "--json", "--functions=grid::smooth(grid::Field&, int),total", "--footprint",
                        "--critical-path", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, f"--functions with a signature: {p.stderr}")
    r = json.loads(p.stdout)
    names = [f["name"] for f in r["functions"]]
    check(names == ["grid::smooth(grid::Field&, int)", "total"], f"--functions: two names, commas in a signature kept: {names}")
    fp = [f["name"] for f in r["footprint"]["functions"]]
    check("grid::smooth(grid::Field&)" in fp and not any(n.startswith("_Z") for n in fp), f"footprint names: {fp}")
    text = json.dumps(r)
    check("_ZN" not in text, "no mangled name in the report")
    t = subprocess.run([EDAN, "run", "--per-function", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    check(t.returncode == 0 and "grid::smooth(grid::Field&)" in t.stdout and "_ZN" not in t.stdout,
          "--per-function: demangled names")


def test_cache_presets():
    spmv = os.path.join(EX, "spmv")
    paper = report("--filter=kernel", spmv, "200", cache=("--cache=paper",))
    k32 = report("--filter=kernel", spmv, "200", cache=("--cache=32K",))
    k64 = report("--filter=kernel", spmv, "200", cache=("--cache=64K",))
    check(metrics(paper) == metrics(k32) and metrics(paper) != metrics(k64), "--cache=paper is the paper's 32K cache")
    server = report("--filter=kernel", spmv, "200", cache=("--cache=server",))["configurations"][0]
    check(server["cache"].count("write=back,alloc=yes") == 3 and len(server["cache_levels"]) == 3,
          f"--cache=server: three write-back levels: {server['cache']}")
    # --table keeps every configuration's whole label, alpha included
    long = "64K,ways=4,write=back,alloc=yes+1M,ways=16,write=back,alloc=yes"
    p = subprocess.run([EDAN, "run", "--table", f"--cache=none;{long}", "--alpha=100,300", "--filter=kernel", spmv,
                        "200"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0 and "64K,line=64,ways=4,write=back,alloc=yes+1M,line=64,ways=16,write=back,alloc=yes a=300"
          in p.stdout, f"--table: whole labels: {p.stdout}")
    h = subprocess.run([EDAN, "run", "--help"], stdout=subprocess.PIPE, text=True).stdout
    check("'server'" in h and "write-through without allocation" in h, "--help: presets and what '+' means")
    # 'edan help CMD' is 'edan CMD --help' for every command; an unknown one is an error
    for cmd in ("run", "record", "analyze", "convert", "dot", "rank", "annotate", "locality"):
        a = subprocess.run([EDAN, "help", cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        b = subprocess.run([EDAN, cmd, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(a.returncode == 0 and a.stdout == b.stdout and a.stdout.startswith(f"usage: edan {cmd}"),
              f"edan help {cmd}: {a.stdout[:60]!r}")
    a = subprocess.run([EDAN, "help", "bogus"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(a.returncode == 2 and "bogus" in a.stderr, f"edan help bogus: {a.returncode} {a.stderr}")


def test_rank():
    spmv, cxx, chase = (os.path.join(EX, p) for p in ("spmv", "cxx_stencil", "pointer_chase"))
    # three programs, three kernel names, one command
    p = subprocess.run([EDAN, "rank", "--cache=32K", spmv + ":kernel", cxx + ":grid::smooth", chase + ":kernel"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0 and "ranking of 3 programs" in p.stdout and "cxx_stencil:grid::smooth" in p.stdout,
          f"rank over three kernels: {p.stdout} {p.stderr}")
    # each ranked as a run with --filter would give
    lines = {l.split()[1]: float(l.split()[2]) for l in p.stdout.split("\n\n")[1].splitlines()[1:] if l.strip()}
    for prog, fn, shown in ((spmv, "kernel", "spmv:kernel"), (cxx, "grid::smooth", "cxx_stencil:grid::smooth")):
        r = subprocess.run([EDAN, "run", "--json", "--cache=32K", "--filter=" + fn, prog], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        lam = json.loads(r.stdout)["configurations"][0]["per_m"][0]["lambda"]
        check(abs(lines.get(shown, -1) - lam) <= 1e-6 * max(1, lam), f"{shown}: lambda {lines.get(shown)} vs {lam}")
    # a list with arguments and comments
    with tempfile.TemporaryDirectory() as d:
        lst = os.path.join(d, "programs.txt")
        with open(lst, "w") as f:
            f.write(f"# kernels of three programs\n{spmv}:kernel 100\n\n{cxx}:smooth 500 2   # two steps\n"
                    f"{chase}:kernel 300\n")
        p = subprocess.run([EDAN, "rank", "--list=" + lst], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 0 and "ranking of 3 programs" in p.stdout, f"rank --list: {p.stderr}")
        r = subprocess.run([EDAN, "run", "--json", "--filter=kernel", spmv, "100"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        lam = json.loads(r.stdout)["configurations"][0]["per_m"][0]["lambda"]
        lines = {l.split()[1]: float(l.split()[2]) for l in p.stdout.split("\n\n")[1].splitlines()[1:] if l.strip()}
        check(abs(lines.get("spmv:kernel", -1) - lam) <= 1e-6 * max(1, lam), "rank --list: the arguments are given")
        with open(lst, "a") as f:
            f.write("/no/such/program 1\n")
        p = subprocess.run([EDAN, "rank", "--list=" + lst], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and f"{lst}:6:" in p.stderr, f"a bad line: {p.stderr}")
    p = subprocess.run([EDAN, "rank", spmv + ":nosuch"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 2 and "no function named 'nosuch'" in p.stderr, f"a missing function: {p.stderr}")
    p = subprocess.run([EDAN, "run", "--list=x", spmv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 2 and "edan rank" in p.stderr, "--list is rank's")


GOLDEN_ANNOTATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "annotate", "spmv.txt")


def annotate_text(*args):
    p = subprocess.run([EDAN, "annotate", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, f"edan annotate {args}: {p.stderr}")
    # the source's directory differs between checkouts
    src = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
    return p.stdout.replace(src, "<EXAMPLES>")


def test_annotate():
    spmv = os.path.join(EX, "spmv")
    # cold: the golden is the region's own (warm, spmv 200's data is in the caches already)
    args = ["--cache=32K", "--cold", "--filter=kernel", spmv, "200"]
    text = annotate_text(*args)
    if os.environ.get("EDAN_UPDATE_GOLDEN"):
        os.makedirs(os.path.dirname(GOLDEN_ANNOTATE), exist_ok=True)
        with open(GOLDEN_ANNOTATE, "w") as f:
            f.write(text)
    with open(GOLDEN_ANNOTATE) as f:
        golden = f.read()
    check(text == golden, "edan annotate spmv: differs from tests/golden/annotate/spmv.txt "
          "(EDAN_UPDATE_GOLDEN=1 rewrites it)")
    # the columns sum to the eDAG's numbers: instructions, W, T_inf, D; cold and warm (the default)
    for opts in (args, [a for a in args if a != "--cold"]):
        p = subprocess.run([EDAN, "annotate", "--json", *opts], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        a = json.loads(p.stdout)["annotate"]
        r = subprocess.run([EDAN, "run", "--json", *opts], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        c = json.loads(r.stdout)["configurations"][0]
        sums = {k: sum(l[k] for l in a["lines"]) for k in ("instructions", "mem", "span_cycles", "chain_accesses")}
        check(sums == {"instructions": c["vertices"], "mem": c["W"], "span_cycles": c["Tinf"], "chain_accesses": c["D"]}
              and a["totals"] == sums and a["critical_path"],
              f"annotate {opts}: the columns sum to the eDAG's {sums} vs {c}")
    kernel_lines = [l for l in a["lines"] if l["file"] and l["file"].endswith("spmv.c")]
    check(kernel_lines and all(l["function"] == "kernel" for l in kernel_lines), "annotate: the kernel's lines")
    # a recorded trace gives the same annotation
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "spmv.edt")
        subprocess.run([EDAN, "record", "--filter=kernel", "-o", trace, spmv, "200"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
        check(annotate_text("--cache=32K", "--cold", trace) == text, "annotate: from a trace as from the program")
    p = subprocess.run([EDAN, "annotate", "/no/such/file"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 2, f"annotate: a missing input: {p.stderr}")
    # with --machine, the timing model's memory stall cycles per line, at its highest latency: they sum to its total
    machine = ["--machine=" + os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines", "gem5-validation.ini"),
               "--mem-latency=300,50"]
    p = subprocess.run([EDAN, "annotate", "--json", *machine, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    a = json.loads(p.stdout)["annotate"]
    r = subprocess.run([EDAN, "run", "--json", *machine, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    pred = json.loads(r.stdout)["prediction"]
    total = sum(f["mem_stall_cycles"][0] for f in pred["functions"])
    lines = sum(l["mem_stall_cycles"] for l in a["lines"])
    check(a["stall_latency_ns"] == 300 and total > 0 and abs(lines - total) < 1e-6 * total
          and abs(a["totals"]["mem_stall_cycles"] - total) < 1e-6 * total,
          f"annotate --machine: stall per line sums to the model's {total} at 300 ns: {lines}")
    text = annotate_text(*machine, *args)
    check(" Stall" in text and "at 300 ns" in text, "annotate --machine: the Stall column")


def edan_p(*args, cwd=None):
    return subprocess.run([EDAN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)


def option_table():
    p = edan_p("help", "--option-table")
    check(p.returncode == 0, f"edan help --option-table: {p.stderr}")
    return [r for r in (json.loads(ln) for ln in p.stdout.splitlines()) if "option" in r]


ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MG = os.path.join(ROOT, "tests", "data", "memgaze", "ubench-O3-n500k-buf8k-p100000-s0-90",
                  "ubench-O3-n500k-buf8k-p100000-s0-90")


def refused_twice(p, what, message):
    """Exit 2 and one line on stderr naming the option."""
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and message in lines[0], f"{what}: exit {p.returncode}, {p.stderr!r}")


def test_repeated():
    """What a second one of an option does, as the option table ('repeat') and the README say: a value option is
    given once (exit 2 naming it), a list's values add up, a flag again is the same as once (of --text and
    --binary the last counts)."""
    spmv = os.path.join(EX, "spmv")
    rows = option_table()
    # the README's list of options that add up is the table's
    adds = sorted({r["option"] for r in rows if r["repeat"] == "adds"})
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = " ".join(f.read().split())
    said = readme.split("An option that takes a value is given once, except the lists that add up (", 1)
    listed = sorted(re.findall(r"`--([\w-]+)`", said[1].split(")", 1)[0])) if len(said) == 2 else []
    check(adds and listed == adds, f"README's options that add up {listed} are the table's {adds}")
    check({r["repeat"] for r in rows if r["kind"] == "flag"} == {"again"}, "a flag again is as once")
    check(all(r["repeat"] in ("once", "adds") for r in rows if r["kind"] != "flag"), "a value option: once or adds")
    # every option of every command, twice, at the parse (--help stops the command after it): a value that the
    # option takes once, then again
    with tempfile.TemporaryDirectory() as d:
        os.mkdir(os.path.join(d, "dir"))
        machine, costs = os.path.join(ROOT, "machines", "gem5-validation.ini"), os.path.join(d, "costs.txt")
        with open(costs, "w") as f:
            f.write("int 2\n")
        candidates = {"input": [machine, spmv, costs],
                      "output": [os.path.join(d, "out.txt")], "output-dir": [os.path.join(d, "dir")],
                      "value": ["1", "32K", "kernel", "gem5-validation", "stdout", "A=1", "50,300", "1:2", "fdiv=20",
                                "line", "2000,1000,64000", "fuse", "lru", "data", "2"]}
        tried, untried = 0, []
        for r in share(rows, 3):  # a third of the options in the sanitizer build
            cmds = [c for c in r["commands"] if c not in ("memgaze-table", "machines")]
            if not cmds or r["option"] == "memgaze-table":
                continue
            cmd, name = cmds[0], r["option"]
            if r["kind"] == "flag":
                once = twice = ["--" + name]
            else:
                value = next((v for v in candidates[r["kind"]]
                              if edan_p(cmd, f"--{name}={v}", "--help").returncode == 0), None)
                if value is None:
                    untried.append(f"{cmd} --{name}")
                    continue
                once, twice = [f"--{name}={value}"], [f"--{name}={value}"] * 2
            tried += 1
            p = edan_p(cmd, *once, *twice, "--help") if r["kind"] == "flag" else edan_p(cmd, *twice, "--help")
            if r["repeat"] == "once":
                short = f"-{r['short']}/" if "short" in r else ""
                refused_twice(p, f"edan {cmd} --{name} twice", f"{cmd}: {short}--{name} given twice (it takes one value)")
            else:
                check(p.returncode == 0 and p.stdout.startswith(f"usage: edan {cmd}"),
                      f"edan {cmd} --{name} twice is accepted ({r['repeat']}): {p.returncode} {p.stderr!r}")
        check(tried > (80 // 3 if SANITIZED else 80) and not untried, f"{tried} options tried twice; no value found for {untried}")
        # short and long spellings are one option
        out = os.path.join(d, "t.edt")
        refused_twice(edan_p("record", "-o", out, "--trace=" + out, spmv, "50"), "record -o and --trace",
                      "record: -o/--trace given twice (it takes one value)")
        refused_twice(edan_p("run", "--machine=gem5-validation", "--machine", "gem5-validation", spmv),
                      "run --machine twice", "run: --machine given twice (it takes one value)")
        refused_twice(edan_p("run", "--machine"), "run --machine without its value", "run: --machine needs a value")
        refused_twice(edan_p("run", "--pass-env=1", spmv), "a flag's value", "run: --pass-env takes no value")
        refused_twice(edan_p("convert", "--text=1", "a", "b"), "convert --text=1", "convert: --text takes no value")
        refused_twice(edan_p("run", "--help=yes"), "--help=yes", "run: --help takes no value")
        # --help twice, -h and --help: help, exit 0
        for args in (["run", "--help", "--help"], ["analyze", "-h", "--help"], ["convert", "--help", "-h"],
                     ["locality", "--help", "--help"]):
            p = edan_p(*args)
            check(p.returncode == 0 and p.stdout == edan_p(args[0], "--help").stdout, f"edan {args}: {p.stderr!r}")
        # --memgaze-table twice is the table; its value options once, -o and --output one option, also after the trace
        mg = ["locality", "--memgaze-table", f"--load-classes={MG}.binanlys", "--period=100000"]
        one, two = edan_p(*mg, MG + ".trace"), edan_p(*mg, "--memgaze-table", MG + ".trace")
        check(one.returncode == 0 and one.stdout and two.stdout == one.stdout, f"--memgaze-table twice: {two.stderr!r}")
        refused_twice(edan_p(*mg, "--period=3", MG + ".trace"), "--period twice",
                      "locality: --period given twice (it takes one value)")
        refused_twice(edan_p(*mg, MG + ".trace", "--period=3"), "--period twice, after the trace",
                      "locality: --period given twice (it takes one value)")
        refused_twice(edan_p(*mg, "-o", out, f"--output={out}", MG + ".trace"), "-o and --output",
                      "locality: -o/--output given twice (it takes one value)")
        refused_twice(edan_p(*mg, "--", MG + ".trace", "--period=3"), "an operand after '--'",
                      "locality: one trace at a time ('--period=3' is extra)")
        refused_twice(edan_p("run", "--period=3", spmv), "--period is --memgaze-table's",
                      "run: --period is not an option of edan run but of edan locality --memgaze-table")
        refused_twice(edan_p("locality", "--hpcstruct=x", spmv), "--hpcstruct without --memgaze-table",
                      "locality: --hpcstruct is an option of --memgaze-table")
        # flags again: the same run; --text and --binary, the last counts
        base = edan_p("run", "--json", "--cache=32K", "--ignore-exit", "--pass-env", spmv, "50")
        again = edan_p("run", "--json", "--json", "--cache=32K", "--ignore-exit", "--ignore-exit", "--pass-env",
                       "--pass-env", spmv, "50")
        check(base.returncode == 0 and again.returncode == 0 and metrics(json.loads(base.stdout.splitlines()[-1]))
              == metrics(json.loads(again.stdout.splitlines()[-1])), f"flags twice: the same report {again.stderr!r}")
        traces = {}
        for name, flags in (("text", ["--text"]), ("text-twice", ["--text", "--text"]), ("binary", [])):
            traces[name] = os.path.join(d, name + ".edt")
            p = edan_p("record", *flags, "--filter=kernel", "-o", traces[name], spmv, "50")
            check(p.returncode == 0, f"record {flags}: {p.stderr!r}")
        text = open(traces["text"], "rb").read()
        check(text == open(traces["text-twice"], "rb").read() != open(traces["binary"], "rb").read(),
              "record --text twice: the text trace --text writes")
        # a text trace converts only to text: with --text --binary, --binary counts; with --binary --text, --text
        p = edan_p("convert", "--text", "--binary", traces["text"], os.path.join(d, "x.edt"))
        check(p.returncode == 2 and "converts only to text" in p.stderr, f"convert --text --binary: {p.stderr!r}")
        for flags in (["--binary", "--text"], ["--text", "--text"]):
            p = edan_p("convert", *flags, traces["binary"], os.path.join(d, "c.txt"))
            check(p.returncode == 0 and open(os.path.join(d, "c.txt"), "rb").read().splitlines()[-3:]
                  == text.splitlines()[-3:], f"convert {flags}: the text trace: {p.stderr!r}")
        back = traces["binary"]
        p = edan_p("convert", "--", back, os.path.join(d, "e.txt"))
        check(p.returncode == 0, f"convert -- IN OUT: {p.stderr!r}")
        # a list's values add up: two caches, two configurations
        p = edan_p("analyze", "--json", "--cache=32K", "--cache=64K", back)
        confs = json.loads(p.stdout)["configurations"] if p.returncode == 0 else []
        check(len(confs) == 2, f"--cache twice: two configurations: {p.stderr!r}")


run_category({"repeated": test_repeated, "annotate": test_annotate, "rank": test_rank, "cache_presets": test_cache_presets, "reproducible": test_reproducible, "program_output": test_program_output, "cxx_names": test_cxx_names})
