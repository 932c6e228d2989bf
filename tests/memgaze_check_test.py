#!/usr/bin/env python3
"""MemGaze's check cases: edan's footprint tables byte for byte equal to MemGaze's .gold files.

usage: memgaze_check_test.py BUILD_DIR SOURCE_DIR [--full CHECK_DIR]

The cases come from pnnl/memgaze, mem-anlys/check/ (commit 5545a59; BSD licensed): sampled load traces with
MemGaze's inputs and its outputs. Each case C-...-pN/ holds C-...-pN.trace, .binanlys, .hpcstruct, .gold and
.gold-oe; N is the sampling period. For each,
    edan locality --memgaze-table --load-classes=C.binanlys --period=N --output=OUT C.trace
must write exactly C.gold, and with --hpcstruct=C.hpcstruct --functions-output=F, F must hold exactly the
per-function lines of MemGaze's printout C.gold-oe (those naming a 'StartIP:'), the table staying the same.

Always: the cases vendored in SOURCE_DIR/tests/data/memgaze/ (cuts of three of MemGaze's cases, their .gold
files written by MemGaze's own analyzer: that folder's README), which together must exercise every rule
of tests/memgaze_rules.py, and the command line of the mode on one of them. With --full CHECK_DIR (make
check-memgaze), or $EDAN_MEMGAZE_CHECK naming such a folder: also MemGaze's five full cases from it, and the
test fails if one is missing. Prints 'N passed, N failed'; exits 1 on a failure, 2 on bad arguments.
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import memgaze_rules  # noqa: E402 (tests/memgaze_rules.py)

# the five cases of MemGaze's check/Makefile
FULL_CASES = [
    "ubench-O3-n500k-buf8k-p100000",
    "minivite-v1-O3-n300k-buf8k-p10000000-part1",
    "minivite-v1-O3-n300k-buf8k-p10000000-part2",
    "minivite-v3-O3-n300k-buf8k-p10000000-part1",
    "minivite-v3-O3-n300k-buf8k-p10000000-part2",
]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}")


def first_difference(got, want):
    a, b = got.splitlines(), want.splitlines()
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<none>"
        y = b[i] if i < len(b) else "<none>"
        if x != y:
            return f"line {i + 1}:\n  edan:    {x!r}\n  MemGaze: {y!r}"
    return "same lines, different bytes (line ends?)"


def gold_tables(edan, folder, cases, tmp):
    for case in cases:
        d = os.path.join(folder, case)
        period = re.search(r"-p(\d+)", case).group(1)
        out = os.path.join(tmp, case + ".out")
        cmd = [edan, "locality", "--memgaze-table", f"--load-classes={d}/{case}.binanlys", f"--period={period}",
               f"--output={out}", f"{d}/{case}.trace"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            check(False, f"{case}: edan exited with {r.returncode}: {r.stderr.strip()}")
            continue
        with open(out, "rb") as f:
            got = f.read()
        with open(f"{d}/{case}.gold", "rb") as f:
            want = f.read()
        check(got == want, f"{case}: the table differs from MemGaze's .gold: "
                           f"{first_difference(got.decode(errors='replace'), want.decode(errors='replace'))}")
        if got == want:
            print(f"{case}: byte-identical to MemGaze's .gold ({len(want)} bytes)")
        # the per-function footprints beside the same table
        funcs = os.path.join(tmp, case + ".funcs")
        r = subprocess.run(cmd + [f"--hpcstruct={d}/{case}.hpcstruct", f"--functions-output={funcs}"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            check(False, f"{case} with --hpcstruct: edan exited with {r.returncode}: {r.stderr.strip()}")
            continue
        with open(out, "rb") as f:
            check(f.read() == want, f"{case}: the table changed with --hpcstruct")
        with open(funcs, "rb") as f:
            got = f.read()
        with open(f"{d}/{case}.gold-oe", "rb") as f:
            want = b"".join(line for line in f if b" StartIP: " in line)
        check(got == want and want, f"{case}: the per-function lines differ from MemGaze's .gold-oe: "
                                    f"{first_difference(got.decode(errors='replace'), want.decode(errors='replace'))}")
        if got == want:
            lines = want.count(b"\n")
            print(f"{case}: per-function footprints byte-identical to the {lines} lines of .gold-oe")


def rules_exercised(folder, cases, required):
    """The rules model agrees with each .gold; with REQUIRED, the cases together exercise every rule."""
    seen = {}
    for case in cases:
        d = os.path.join(folder, case)
        ev, table = memgaze_rules.analyse(d, case, memgaze_rules.period_of(case))
        bad = memgaze_rules.check_gold(d, case, table)
        check(not bad, f"{case}: tests/memgaze_rules.py's model disagrees with the .gold: {bad}")
        for key, n in ev.items():
            if n:
                seen.setdefault(key, []).append(case)
    for key, what in memgaze_rules.RULES:
        print(f"rule {what}: {len(seen.get(key, []))} of {len(cases)} cases")
        if required:
            check(key in seen, f"no vendored case exercises rule {what}")


def command_line(edan, folder, case, tmp):
    d = os.path.join(folder, case)
    trace, classes = f"{d}/{case}.trace", f"{d}/{case}.binanlys"

    def run(args, stdin=None):
        return subprocess.run([edan, "locality"] + args, capture_output=True, text=True, input=stdin)

    def refused(args, needle, what):
        r = run(args)
        check(r.returncode == 2 and needle in r.stderr and r.stderr.count("\n") == 1,
              f"{what}: expected status 2 and one line naming '{needle}', got {r.returncode}: {r.stderr!r}")

    mg = ["--memgaze-table", f"--load-classes={classes}"]
    refused(mg + ["--period=100000", "/nonexistent/t.trace"], "/nonexistent/t.trace", "a missing trace")
    refused(["--memgaze-table", "--load-classes=/nonexistent/c.binanlys", "--period=1", trace],
            "/nonexistent/c.binanlys", "missing load classes")
    for p in ["0", "-1", "abc", "9007199254740993", "99999999999999999999999"]:
        refused(mg + [f"--period={p}", trace], "--period", f"period {p}")
    refused(mg + [trace], "--period", "no period")
    refused(["--memgaze-table", "--period=1", trace], "--load-classes", "no load classes")
    refused(mg + ["--period=1"], "no trace", "no trace")
    refused(mg + ["--period=1", trace, trace], "one trace", "two traces")
    refused(mg + ["--period=1", "--frobnicate", trace], "--frobnicate", "an unknown option")
    refused(mg + ["--period=1", "-"], "-", "standard input")
    refused(mg + ["--period=1", tmp], tmp, "a directory")
    refused(mg + ["--period=1", f"--output={trace}", trace], "would be destroyed", "output over the trace")
    refused(["--period=1", trace], "an option of --memgaze-table", "a table option without --memgaze-table")
    hpc = f"{d}/{case}.hpcstruct"
    refused(mg + ["--period=1", f"--hpcstruct={hpc}", trace], "go together", "--hpcstruct without an output")
    refused(mg + ["--period=1", f"--functions-output={tmp}/f", trace], "go together", "an output without --hpcstruct")
    refused(mg + ["--period=1", f"--hpcstruct={trace}", f"--functions-output={tmp}/f", trace], "no procedure",
            "a trace as the structure file")
    refused(mg + ["--period=1", f"--hpcstruct={hpc}", f"--functions-output={hpc}", trace], "would be destroyed",
            "functions output over the structure file")
    refused(mg + ["--period=1", f"--hpcstruct={hpc}", f"--functions-output={tmp}/same", f"--output={tmp}/same", trace],
            "the same file", "both outputs to one file")

    # a trace cut in the middle of a line: refused with its last line, and --output left as it was
    cut = os.path.join(tmp, "cut.trace")
    with open(trace, "rb") as f, open(cut, "wb") as g:
        data = f.read()
        g.write(data[:len(data) // 2])
    out = os.path.join(tmp, "kept.out")
    with open(out, "w") as f:
        f.write("keep me\n")
    period = memgaze_rules.period_of(case)
    r = run(mg + [f"--period={period}", f"--output={out}", cut])
    with open(out) as f:
        kept = f.read()
    check(r.returncode == 2 and re.search(r"cut\.trace:\d+: .*no newline", r.stderr) and kept == "keep me\n",
          f"a cut trace: status {r.returncode}, {r.stderr!r}, output now {kept!r}")
    # bad load classes name their line
    bad = os.path.join(tmp, "bad.binanlys")
    with open(classes) as f, open(bad, "w") as g:
        lines = f.readlines()
        lines[3] = "0x3005f9 7 0x0 0x4 0x1\n"
        g.writelines(lines)
    refused(["--memgaze-table", f"--load-classes={bad}", "--period=1", trace], "bad.binanlys:4:", "a bad class")
    # an output that is a FIFO (or a device such as /dev/null) is written into, not replaced by a file
    fifo = os.path.join(tmp, "table.fifo")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    r = subprocess.run([edan, "locality"] + mg + [f"--period={period}", f"--output={fifo}", trace],
                       capture_output=True, text=True, timeout=120)
    try:
        piped, _ = reader.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        reader.kill()
        piped, _ = reader.communicate()
    with open(f"{d}/{case}.gold", "rb") as f:
        check(r.returncode == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode) and piped == f.read(),
              f"--output to a FIFO: status {r.returncode} {r.stderr!r}, still a FIFO: "
              f"{stat.S_ISFIFO(os.stat(fifo).st_mode)}, {len(piped)} bytes through it")
    r = run(["--help"])
    check(r.returncode == 0 and "--memgaze-table" in r.stdout, "--help")
    # standard output is the default
    r = run(mg + [f"--period={period}", trace])
    with open(f"{d}/{case}.gold") as f:
        check(r.returncode == 0 and r.stdout == f.read(), "the table on standard output")


def vendored_cases(folder):
    """The vendored cases: the folders of SOURCE_DIR/tests/data/memgaze holding their own .gold."""
    if not os.path.isdir(folder):
        return []
    return sorted(c for c in os.listdir(folder) if os.path.isfile(os.path.join(folder, c, c + ".gold")))


def main():
    args = sys.argv[1:]
    full = None
    if len(args) == 4 and args[2] == "--full":
        full = args[3]
        args = args[:2]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    build, source = args
    full = full or os.environ.get("EDAN_MEMGAZE_CHECK")
    edan = os.path.join(build, "edan")
    vendored = os.path.join(os.path.abspath(source), "tests", "data", "memgaze")
    cases = vendored_cases(vendored)
    if not cases:
        print(f"FAILED: no MemGaze check case in {vendored}")
        sys.exit(1)
    if full:
        full = os.path.abspath(full)
        missing = [c for c in FULL_CASES if not os.path.isfile(os.path.join(full, c, c + ".trace"))]
        if missing:
            print(f"FAILED: MemGaze's check cases are not in {full} (missing: {', '.join(missing)}).\n"
                  "Give the mem-anlys/check folder of a pnnl/memgaze checkout (its cases are those of commit 5545a59).")
            sys.exit(1)
    tmp = tempfile.mkdtemp(prefix="edan_memgaze_")
    try:
        gold_tables(edan, vendored, cases, tmp)
        rules_exercised(vendored, cases, True)
        # the command line on the vendored case with several samples and an unknown instruction
        command_line(edan, vendored, next(c for c in cases if c.startswith("ubench") and "+" in c), tmp)
        if full:
            print(f"MemGaze's five full cases in {full}:")
            gold_tables(edan, full, FULL_CASES, tmp)
            rules_exercised(full, FULL_CASES, False)
    finally:
        shutil.rmtree(tmp)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
