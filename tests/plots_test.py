"""Plots a person reads (issue 40): real runs of the stencils example with --plot-dir, the scripts and images
checked as a reader would see them: every title names the program, the region (--filter) and the machine; text
is drawn literally (noenhanced: "st7_blocked" keeps its underscore, never a subscript); byte and count axes read
in K/M/G; the reuse histogram is drawn as bars; the keys sit outside the data; gnuplot renders every script
again from its data; two runs over different regions in one directory write different files.

The text tables' name column (report/names.h, unit-tested by names_test.c) on the C++ example: parameter lists
and templates shortened to "…", never cut inside a word, whole with --wide.

Run as plots_test.py BUILD_DIR CATEGORY (categories: titles, names, tables).
"""
import glob
import os
import re
import subprocess
import tempfile

from realrun_lib import EX, check, edan, run_category

MACHINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines")
GEM5 = os.path.join(MACHINES, "gem5-validation.ini")


def plots(d, kernel):
    p = edan("run", "--filter=" + kernel, "--machine=" + GEM5, "--projection", "--reuse", "--classes",
             "--plot-dir=" + d, os.path.join(EX, "stencils"), kernel, "12", "4")
    check(p.returncode == 0, f"run --plot-dir, {kernel}: {p.stderr}")
    return sorted(glob.glob(os.path.join(d, f"stencils-{kernel}-*.gp")))


def test_titles():
    with tempfile.TemporaryDirectory() as d:
        scripts = plots(d, "st7_blocked")
        kinds = {os.path.basename(s)[len("stencils-st7_blocked-"):-3] for s in scripts}
        want = {"movement", "latency", "mrc", "reuse-histogram", "footprint-windows", "classes-windows", "roofline",
                "projection-cache", "projection-bandwidth"}
        check(want <= kinds, f"the plots: {sorted(kinds)}")
        for s in scripts:
            name = os.path.basename(s)
            text = open(s).read()
            titles = [ln for ln in text.splitlines() if ln.startswith("set title")]
            check(len(titles) == 1 and all(w in titles[0] for w in ("stencils", "region st7_blocked",
                                                                      "machine gem5-validation")),
                  f"{name}: the title names program, region and machine: {titles}")
            check(titles and titles[0].endswith(" noenhanced"), f"{name}: the title is drawn literally: {titles}")
            terms = [ln for ln in text.splitlines() if ln.startswith("set terminal")]
            check(len(terms) == 2 and all(" noenhanced " in t for t in terms), f"{name}: no enhanced text: {terms}")
            check("set key below" in text and "set key outside right" not in text, f"{name}: the key below the plot")
            # gnuplot draws the script again from its data, as the header says
            dat, png, svg = s[:-3] + ".dat", os.path.join(d, "again.png"), os.path.join(d, "again.svg")
            g = subprocess.run(["gnuplot", "-c", s, dat, png, svg], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            check(g.returncode == 0 and os.path.getsize(png) > 2000 and b"<svg" in open(svg, "rb").read(2000),
                  f"{name}: gnuplot renders it: {g.stderr}")
            image = open(svg).read()
            # the SVG's title text keeps the underscore: no subscript (enhanced text would split it into tspans)
            check("st7_blocked, machine gem5-validation" in image, f"{name}: the title as text in the SVG")
        read = lambda kind: open(os.path.join(d, f"stencils-st7_blocked-{kind}.gp")).read()
        # bytes in K/M/G: the cache-size axes' tics at powers of two, labelled 64, 1K, ...; counts with SI prefixes
        for kind in ("mrc", "projection-cache"):
            tics = re.findall(r"'(\w+)' (\d+)", "".join(l for l in read(kind).splitlines() if l.startswith("set xtics")))
            check(len(tics) >= 3 and any(t.endswith("K") for t, _ in tics) and all(
                  re.fullmatch(r"\d+[KMG]?", t) and int(v) == int(t.rstrip("KMG")) * 1024 ** " KMG".index(
                      (t[-1] if t[-1] in "KMG" else " ")) for t, v in tics), f"{kind}: byte tics {tics}")
            svg = open(os.path.join(d, f"stencils-st7_blocked-{kind}.svg")).read()
            check(">1K<" in svg and "x10" not in svg and "e+0" not in svg, f"{kind}: the SVG's tics read 1K")
        for kind in ("footprint-windows", "classes-windows"):
            text = read(kind)
            check("set format x '%.0s%c'" in text and "set format y '%.0s%c'" in text, f"{kind}: count axes in k/M/G")
            svg = open(os.path.join(d, f"stencils-st7_blocked-{kind}.svg")).read()
            check("000000<" not in svg and "x10" not in svg, f"{kind}: no 10000.000000 or x10^n tics")
        # the reuse histogram: clustered bars over the non-empty bins, labelled in K/M/G
        text = read("reuse-histogram")
        check("set style data histograms" in text and "with lines" not in text and "with linespoints" not in text,
              "reuse histogram drawn as bars")
        rows = [ln.split() for ln in open(os.path.join(d, "stencils-st7_blocked-reuse-histogram.dat"))
                if not ln.startswith("#")]
        check(rows and all(re.fullmatch(r'"\d+[KMG]?"', r[0]) for r in rows), f"histogram labels {rows[:4]}")
        check(rows and any(float(x) for x in rows[0][1:]) and any(float(x) for x in rows[-1][1:]),
              "the histogram's first and last bars are not empty")


def test_names():
    """Two regions of one program in one directory: two sets of files, none overwritten."""
    with tempfile.TemporaryDirectory() as d:
        a = plots(d, "st7")
        b = plots(d, "st7_blocked")
        check(len(a) >= 8 and len(b) == len(a), f"one script per plot and region: {len(a)}, {len(b)}")
        check(not set(a) & set(b), "different file names")
        for s in a:
            check("region st7," in open(s).read(), f"{s}: still the first run's")
        out = os.path.join(d, "csv")
        for k in ("st7", "st27"):
            p = edan("run", "--filter=" + k, "--reuse", "--csv-dir=" + out, os.path.join(EX, "stencils"), k, "8", "4")
            check(p.returncode == 0, f"--csv-dir {k}: {p.stderr}")
        names = sorted(os.listdir(out))
        check("stencils-st7-mrc.csv" in names and "stencils-st27-mrc.csv" in names, f"CSV names {names}")


def test_tables():
    args = ["run", "--reuse", "--footprint", "--classes", os.path.join(EX, "cxx_stencil"), "300", "3"]
    short, wide = edan(*args), edan(args[0], "--wide", *args[1:])
    check(short.returncode == 0 and wide.returncode == 0, f"run: {short.stderr} {wide.stderr}")
    check("double grid::total<double>(…)" in short.stdout and "cxx_stencil.cpp:23 grid::smooth(…) (1)" in short.stdout,
          "signatures shortened to their names")
    check("std::allocator" not in short.stdout, "no template argument list in the shortened tables")
    # no name cut inside a word: every "…" follows a whole word, a '(' or '<', or starts a qualified name
    cut = [ln for ln in short.stdout.splitlines() if re.search(r"[A-Za-z0-9_]…[A-Za-z0-9_ ]", ln)
           and not re.search(r"[(<]…[)>]", ln)]
    check(not cut, f"names cut inside a word: {cut[:3]}")
    full = "double grid::total<double>(std::vector<double, std::allocator<double> > const&)"
    check(full in wide.stdout and "(…)" not in wide.stdout, "--wide: the names whole")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
