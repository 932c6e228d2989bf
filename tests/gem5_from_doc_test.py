#!/usr/bin/env python3
# validation/gem5_from_doc.py: gem5's times taken back from a table compare.py wrote, without gem5.
#  1. sweep.py runs a stand-in gem5 (this script writes it: it prints known times, writes stats.txt and,
#     for time=trace, a commit trace in gem5's line format) on five programs whose times exercise the
#     rounding (a t(lo) of 9.9961 µs that prints as 10, a slope below 0.01, a negative slope, a
#     slowdown of 1, a slope beyond 10 000, a slope of 0), each time source (output, trace, simseconds);
#  2. compare.py --compact --update-doc writes its table into a copy of a document;
#  3. gem5_from_doc.py takes the times back into a new results file: each program's t(lo), slope and
#     slowdown within a rounding step of the originals' (a naive computation), the records under
#     sweep.py's own keys (a --no-gem5 sweep of the list finds them all), and compare.py on that file
#     writes the same gem5 columns as on the originals;
#  4. --commit REV reads the document as committed, its working copy broken;
#  5. errors, exit status 2 naming the file and line: a cell that is not a number, a program the list
#     lacks, a time source the list contradicts; a missing marker; a record of gem5's own not replaced;
#  6. a sweep that runs gem5 runs the recovered records again and replaces them.
#
#   python3 tests/gem5_from_doc_test.py
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWEEP = os.path.join(ROOT, "validation", "sweep.py")
COMPARE = os.path.join(ROOT, "validation", "compare.py")
TOOL = os.path.join(ROOT, "validation", "gem5_from_doc.py")
MACHINE = os.path.join(ROOT, "machines", "gem5-validation.ini")
MARKER = "machines-test"
# name: (time=, seconds at 50 ns, at 300 ns)
PROGRAMS = {
    "fits.a": ("output", 9.9961e-6, 1.5e-5),  # t(lo) prints as 10
    "spills.b": ("trace", 1.23456e-3, 4.0e-3),  # slope 1.11e+04
    "fits.c": (None, 3.3333e-4, 3.2e-4),  # no time printed: simSeconds; negative slope
    "spills.d": ("output", 5.5e-5, 5.5e-5 * 1.000049),  # slowdown 1
    "fits.e": ("output", 2.0e-6, 2.0e-6 + 250 * 0.0123e-9),  # slope 0.0123
    "fits.f": ("output", 7.77e-6, 7.77e-6),  # slope 0: the times allowed are a segment, no area
}
FAKE_GEM5 = r'''#!/usr/bin/env python3
import json, os, sys
a = sys.argv[1:]
out = [x.split("=", 1)[1] for x in a if x.startswith("--outdir=")][0]
fifo = [x.split("=", 1)[1] for x in a if x.startswith("--debug-file=")]
lat = float(a[a.index("--latency") + 1])
name = os.path.basename(a[a.index("--") + 1])
src, t50, t300 = json.load(open(os.path.join(os.path.dirname(__file__), "times.json")))[name]
t = t50 if lat == 50 else t300
sim = t if src is None else t + 1e-3
with open(os.path.join(out, "stats.txt"), "w") as f:
    f.write("simSeconds %.12e\nsimInsts 1000\nsystem.cpu.numCycles %d\n" % (sim, round(sim * 1e9)))
if fifo:  # the kernel [0x10000, 0x10100) called from 0x1fff0; a period of 1 ns
    first = 10 ** 6
    last = first + round((t - sim / round(sim * 1e9)) * 1e12)
    with open(fifo[0], "w") as f:
        f.write("%d: system.cpu: 0x1fff0    : jal ra, 16    : IntAlu :\n" % (first - 1000))
        f.write("%d: system.cpu: 0x10000    : addi a0, a0, 1    : IntAlu :\n" % first)
        f.write("%d: system.cpu: 0x10004    : ret    : IntAlu :\n" % last)
        f.write("%d: system.cpu: 0x1fff4    : addi a0, a0, 1    : IntAlu :\n" % (last + 1000))
if src == "output":
    print("%.12e" % t)
print("EXIT exiting with last active thread context code=0 ticks=1")
'''
FAKE_NM = "#!/bin/sh\necho '0000000000010000 0000000000000100 T kernel'\n"


def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)


def run(cmd, status=0, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != status:
        fail("%s: status %d, expected %d\n%s%s" % (" ".join(cmd), p.returncode, status, p.stdout, p.stderr))
    return p.stdout, p.stderr


def write_list(path, tmp, names, times=None):
    with open(path, "w") as f:
        for n in names:
            src = (times or {}).get(n, PROGRAMS[n][0])
            f.write("%s\t%s\t1 2\tkernel%s\n" % (n, os.path.join(tmp, "bin", n), "\ttime=" + src if src else ""))


def gem5_rows(results):
    """{name: (t(lo), t(hi)) in seconds} of the results file's last sweep."""
    with open(results) as f:
        progs = json.load(f)["sweep"]["programs"]
    return {p["name"]: (p["gem5"]["50.0"]["seconds"], p["gem5"]["300.0"]["seconds"])
            for p in progs if len(p["gem5"]) == 2}


def table_cells(doc):
    """{program: (time, t(lo), slope, slowdown)} of compare.py --compact's per-program table in doc."""
    out = {}
    with open(doc) as f:
        for line in f:
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            if line.startswith("| ") and len(c) == 9 and c[0] in PROGRAMS:
                out[c[0]] = (c[1], c[2], c[3], c[6])
    return out


def step(v, digits):
    """The width of one rounding step of v at digits significant digits (naive)."""
    return 10 ** (math.floor(math.log10(abs(v))) - digits + 1) if v else 0.0


def main():
    tmp = tempfile.mkdtemp(prefix="edan-gem5-from-doc-")
    try:
        os.mkdir(os.path.join(tmp, "bin"))
        for n in PROGRAMS:  # stand-in binaries: sweep.py keys gem5's records by their contents
            with open(os.path.join(tmp, "bin", n), "w") as f:
                f.write("binary of %s\n" % n)
        with open(os.path.join(tmp, "times.json"), "w") as f:
            json.dump({n: v for n, v in PROGRAMS.items()}, f)
        gem5, nm = os.path.join(tmp, "gem5.opt"), os.path.join(tmp, "nm")
        for path, text in ((gem5, FAKE_GEM5), (nm, FAKE_NM)):
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        env = dict(os.environ, NM=nm)
        lst = os.path.join(tmp, "list.tsv")
        write_list(lst, tmp, PROGRAMS)
        sweep = [sys.executable, SWEEP, "--edan", os.path.join(tmp, "no-edan"), "--no-edan", "--machine", MACHINE,
                 "--latencies", "50,300"]

        # 1. gem5's (stand-in) times, 2. compare.py's table in a document under git
        orig = os.path.join(tmp, "orig.json")
        run(sweep + ["--gem5", gem5, "--results", orig, lst], env=env)
        want = gem5_rows(orig)
        if sorted(want) != sorted(PROGRAMS):
            fail("the stand-in gem5 sweep measured %s" % sorted(want))
        docdir = os.path.join(tmp, "repo", "docs")
        os.makedirs(docdir)
        doc = os.path.join(docdir, "accuracy.md")
        with open(doc, "w") as f:
            f.write("# Accuracy\n\nText.\n\n<!-- %s:begin -->\n<!-- %s:end -->\n\nMore text.\n" % (MARKER, MARKER))
        run([sys.executable, COMPARE, "--compact", "--results", orig, "--update-doc", doc, "--marker", MARKER])
        cells = table_cells(doc)
        if (sorted(cells) != sorted(PROGRAMS) or cells["fits.a"][1] != "10" or cells["spills.d"][3] != "1"
                or cells["fits.f"][2] != "0"):
            fail("compare.py's table is not the one this test means: %s" % cells)

        # 3. taken back, under sweep.py's keys, within the rounding, the same gem5 columns
        back = os.path.join(tmp, "back.json")
        tool = [sys.executable, TOOL, "--marker", MARKER, "--machine", MACHINE]
        run(tool + ["--doc", doc, "--results", back, lst])
        run(sweep + ["--no-gem5", "--results", back, lst])
        got = gem5_rows(back)
        if sorted(got) != sorted(PROGRAMS):
            fail("a --no-gem5 sweep found recovered times for %s of %s" % (sorted(got), sorted(PROGRAMS)))
        for n, (w_lo, w_hi) in want.items():
            g_lo, g_hi = got[n]
            pairs = ((w_lo * 1e6, g_lo * 1e6, 3, "t(lo)"), ((w_hi - w_lo) * 4e9, (g_hi - g_lo) * 4e9, 3, "slope"),
                     (w_hi / w_lo, g_hi / g_lo, 4, "slowdown"))
            for w, g, digits, what in pairs:
                if abs(g - w) > step(max(abs(w), abs(g)), digits) * 1.000001:
                    fail("%s: recovered %s %.9g, originally %.9g: beyond a rounding step" % (n, what, g, w))
        doc2 = os.path.join(tmp, "doc2.md")
        with open(doc2, "w") as f:
            f.write("<!-- %s:begin -->\n<!-- %s:end -->\n" % (MARKER, MARKER))
        run([sys.executable, COMPARE, "--compact", "--results", back, "--update-doc", doc2, "--marker", MARKER])
        if table_cells(doc2) != cells:
            fail("compare.py on the recovered times: %s, on gem5's: %s" % (table_cells(doc2), cells))
        with open(back) as f:
            recs = json.load(f)["gem5"]
        if len(recs) != 2 * len(PROGRAMS) or not all("recovered" in r for r in recs.values()):
            fail("the recovered file holds %d gem5 records, not %d marked recovered" % (len(recs), 2 * len(PROGRAMS)))

        # 4. --commit: the committed document, its working copy broken
        repo = os.path.dirname(docdir)
        git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"]
        run(git + ["init", "-q"])
        run(git + ["add", "docs/accuracy.md"])
        run(git + ["commit", "-q", "-m", "doc"])
        with open(doc) as f:
            text = f.read()
        row_line = [i for i, l in enumerate(text.splitlines(), 1) if l.startswith("| spills.b |")][0]
        with open(doc, "w") as f:
            f.write(text.replace("| spills.b | trace | %s |" % cells["spills.b"][1], "| spills.b | trace | 1.2x3 |"))
        _, err = run(tool + ["--doc", doc, "--results", os.path.join(tmp, "bad.json"), lst], status=2)
        if "%s:%d:" % (doc, row_line) not in err or "1.2x3" not in err:
            fail("a cell that is not a number: no '%s:%d:' naming it:\n%s" % (doc, row_line, err))
        back2 = os.path.join(tmp, "back2.json")
        run(tool + ["--doc", doc, "--commit", "HEAD", "--results", back2, lst])
        run(sweep + ["--no-gem5", "--results", back2, lst])
        if gem5_rows(back2) != got:
            fail("--commit HEAD recovered %s, the file %s" % (gem5_rows(back2), got))

        # 5. errors
        short = os.path.join(tmp, "short.tsv")
        write_list(short, tmp, [n for n in PROGRAMS if n != "spills.d"])
        committed = tool + ["--doc", doc, "--commit", "HEAD", "--results", os.path.join(tmp, "e.json")]
        _, err = run(committed + [short], status=2)
        d_line = [i for i, l in enumerate(text.splitlines(), 1) if l.startswith("| spills.d |")][0]
        if "HEAD:%s:%d: program spills.d is not in " % (doc, d_line) not in err:
            fail("a program the list lacks: no 'HEAD:%s:%d:' naming it:\n%s" % (doc, d_line, err))
        mixed = os.path.join(tmp, "mixed.tsv")
        write_list(mixed, tmp, PROGRAMS, {"spills.b": "output"})
        _, err = run(committed + [mixed], status=2)
        if "spills.b's time is trace in the table, the list says time=output" not in err:
            fail("a time source the list contradicts:\n%s" % err)
        _, err = run([sys.executable, TOOL, "--marker", "machines-none", "--machine", MACHINE, "--doc", doc,
                      "--results", os.path.join(tmp, "e.json"), lst], status=2)
        if "<!-- machines-none:begin -->" not in err:
            fail("a missing marker:\n%s" % err)
        _, err = run(committed[:-1] + [orig, lst], status=2)
        if "holds gem5's own record" not in err:
            fail("gem5's own records replaced:\n%s" % err)
        if os.path.exists(os.path.join(tmp, "e.json")):
            fail("a refused table wrote a results file")

        # 6. a sweep that runs gem5 replaces the recovered records
        _, err = run(sweep + ["--gem5", gem5, "--results", back, lst], env=env)
        with open(back) as f:
            recs = json.load(f)["gem5"]
        if err.count("] gem5 ") != 2 * len(PROGRAMS) or any("recovered" in r for r in recs.values()):
            fail("a gem5 sweep did not run the %d recovered records again:\n%s" % (2 * len(PROGRAMS), err))
        if gem5_rows(back) != want:
            fail("gem5's times after the rerun: %s, expected %s" % (gem5_rows(back), want))
        print("gem5_from_doc: %d programs' times taken back within a rounding step, under sweep.py's keys; "
              "compare.py's gem5 columns the same; --commit; errors named by line; gem5 reruns them"
              % len(PROGRAMS))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
