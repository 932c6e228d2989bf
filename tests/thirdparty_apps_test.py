#!/usr/bin/env python3
# validation/thirdparty/hpcg.sh and lulesh.sh (issue 37's programs) on small stand-ins for the
# checkouts, built with the real cross compiler and run under edan: the scripts refuse what is not a
# checkout and a lulesh.cc whose patched line is missing (one line, exit status 2); lulesh.sh's patch
# keeps LagrangeLeapFrog (static inline, called from main's loop: inlined away without it) a
# function that --filter finds and traces; hpcg.sh names a kernel it cannot find; build.sh with only
# HPCG and LULESH builds both and writes no programs.tsv; bench_apps.py without them says it skips.
# flush.c, linked into every validation program, gives stdout a static buffer: a program's first
# output takes nothing from the heap, so its data sits at the same line offsets under QEMU (fstat
# works: a 4 KiB buffer) as in gem5 (fstatat with AT_EMPTY_PATH fails: 8 KiB), where without it
# Olden tsp's nodes straddled their lines differently (docs/accuracy.md, the known overestimates).
#
#   python3 tests/thirdparty_apps_test.py BUILD_DIR
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TP = os.path.join(ROOT, "validation", "thirdparty")
BUILD = os.path.abspath(sys.argv[1])

# LULESH's shape: the time step's body static inline, called from main's loop, on a Domain&.
LULESH_CC = """#include "lulesh.h"
static inline
void Step(Domain& domain, int i) { domain.x[i] = domain.x[i] * 0.5 + domain.x[(i + 7) & 63]; }

static inline
void LagrangeLeapFrog(Domain& domain)
{
   for (int i = 0; i < 64; ++i) Step(domain, i);
}

int main(int argc, char *argv[])
{
   Domain domain = {};
   for (int i = 0; i < 64; ++i) domain.x[i] = i + argc;
   for (int s = 0; s < 100; ++s) LagrangeLeapFrog(domain);
   return domain.x[argc] > 1e300;
}
"""
# Two heap blocks with the program's first output between them; prints how far apart they are.
LAYOUT_C = """#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    char *a = malloc(56);
    printf("edan layout\\n");
    char *b = malloc(56);
    printf("%ld\\n", (long)(b - a));
    return a == b;
}
"""
HPCG_KERNELS = ["CG", "ComputeSPMV_ref", "ComputeSYMGS_ref", "ComputeWAXPBY_ref", "ComputeDotProduct_ref",
                "ComputeMG_ref"]


def fail(msg):
    sys.stderr.write("FAIL: %s\n" % msg)
    sys.exit(1)


def run(cmd, env=None, expect=0, what=""):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, **(env or {})))
    if p.returncode != expect:
        fail(f"{what or ' '.join(cmd)}: exit status {p.returncode}, expected {expect}\n{p.stdout}{p.stderr}")
    return p


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def one_error(p, *words):
    lines = p.stderr.strip().splitlines()
    if len(lines) != 1 or not all(w in lines[0] for w in words):
        fail(f"expected one line naming {words}, got: {p.stderr!r}")


def traced(binary, kernel):
    out = run([os.path.join(BUILD, "edan"), "run", "--json", "--no-progress", "--filter=" + kernel, binary]).stdout
    return json.loads(out)["configurations"][0]["vertices"]


def heap_gap(binary):
    """The program's own report of LAYOUT_C's gap, run under edan (the real QEMU and plugin)."""
    out = run([os.path.join(BUILD, "edan"), "run", "--no-progress", "--filter=main", binary]).stdout.splitlines()
    at = out.index("edan layout") if "edan layout" in out else -1
    if at < 0 or at + 1 >= len(out) or not out[at + 1].strip().isdigit():
        fail(f"{binary}: no gap printed\n" + "\n".join(out[:20]))
    return int(out[at + 1])


def layout(tmp):
    src = os.path.join(tmp, "layout.c")
    write(src, LAYOUT_C)
    plain, fixed = os.path.join(tmp, "layout-plain"), os.path.join(tmp, "layout-flush")
    run(["riscv64-linux-gnu-gcc", "-O2", "-static", src, "-o", plain])
    run(["riscv64-linux-gnu-gcc", "-O2", "-static", src, os.path.join(TP, "flush.c"), "-o", fixed])
    gap_plain, gap_fixed = heap_gap(plain), heap_gap(fixed)
    if gap_plain < 1024:  # stdio's buffer (st_blksize) between the two blocks
        fail(f"without flush.c the first output took {gap_plain - 64} bytes of heap: the test shows nothing")
    if gap_fixed != 64:  # 56 bytes and malloc's 8-byte header: the next chunk
        fail(f"with flush.c the blocks are {gap_fixed} bytes apart, expected 64 (stdout took heap)")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        layout(tmp)
        empty = os.path.join(tmp, "empty")
        os.makedirs(empty)
        out = os.path.join(tmp, "out")
        one_error(run(["sh", os.path.join(TP, "lulesh.sh"), empty, out], expect=2), "not a LULESH checkout")
        one_error(run(["sh", os.path.join(TP, "hpcg.sh"), empty, out], expect=2), "not an HPCG checkout")

        lulesh = os.path.join(tmp, "lulesh")
        write(os.path.join(lulesh, "lulesh.h"), "struct Domain { double x[64]; };\n")
        for f in ("lulesh-comm.cc", "lulesh-viz.cc", "lulesh-util.cc", "lulesh-init.cc"):
            write(os.path.join(lulesh, f), "/* empty */\n")
        # a different upstream version: the patched line is not there
        write(os.path.join(lulesh, "lulesh.cc"), LULESH_CC.replace("void LagrangeLeapFrog(Domain& domain)",
                                                                   "void LagrangeLeapFrog(Domain &dom)"))
        one_error(run(["sh", os.path.join(TP, "lulesh.sh"), lulesh, out], expect=2), "matches 0 lines")
        write(os.path.join(lulesh, "lulesh.cc"), LULESH_CC)
        # unpatched, -O3 inlines the step into main: nothing left to filter (what the patch is for)
        plain = os.path.join(tmp, "plain")
        run(["riscv64-linux-gnu-g++", "-O3", "-g", "-static", "-I" + lulesh, os.path.join(lulesh, "lulesh.cc"),
             "-o", plain])
        if "LagrangeLeapFrog" in run(["riscv64-linux-gnu-nm", "-C", plain]).stdout:
            fail("the stand-in's LagrangeLeapFrog is not inlined without the patch: the test shows nothing")
        hpcg = os.path.join(tmp, "hpcg")
        for k in HPCG_KERNELS[:-1]:  # ComputeMG_ref missing
            write(os.path.join(hpcg, "src", k + ".cpp"),
                  f'#include "hpcg.hpp"\ndouble {k}(double *v, int n) {{ double s = 0; '
                  "for (int i = 0; i < n; ++i) s += v[i] * v[(i * 7) % n]; return s; }\n")
        write(os.path.join(hpcg, "src", "hpcg.hpp"), "#pragma once\n")
        write(os.path.join(hpcg, "src", "main.cpp"),
              '#include "hpcg.hpp"\n' + "".join(f"double {k}(double *, int);\n" for k in HPCG_KERNELS[:-1]) +
              "int main(int argc, char **argv) { static double v[4096]; for (int i = 0; i < 4096; ++i) v[i] = i;\n"
              "  double s = 0; for (int r = 0; r < 20; ++r) s += " +
              " + ".join(f"{k}(v, 4096)" for k in HPCG_KERNELS[:-1]) + ";\n  return s < 0 && argc > 9; }\n")
        one_error(run(["sh", os.path.join(TP, "hpcg.sh"), hpcg, out], expect=2), "no function ComputeMG_ref")
        write(os.path.join(hpcg, "src", "ComputeMG_ref.cpp"),
              '#include "hpcg.hpp"\ndouble ComputeMG_ref(double *v, int n) { return v[n - 1]; }\n')

        p = run(["sh", os.path.join(TP, "build.sh"), out], env={"HPCG": hpcg, "LULESH": lulesh, "POLYBENCH": "",
                                                                 "XSBENCH": "", "OLDEN": "", "GAPBS": "", "NPB": ""})
        if "no validation suite" not in p.stdout or os.path.exists(os.path.join(out, "programs.tsv")):
            fail(f"build.sh with HPCG and LULESH only: expected no programs.tsv\n{p.stdout}")
        patched = os.path.join(out, "lulesh", "src", "lulesh.cc")
        if open(os.path.join(lulesh, "lulesh.cc")).read() != LULESH_CC:
            fail("lulesh.sh changed the checkout")
        if "noinline" not in open(patched).read():
            fail("lulesh.sh's copy of lulesh.cc is not patched")
        n = traced(os.path.join(out, "lulesh", "lulesh2.0"), "LagrangeLeapFrog")
        if n < 100 * 64:  # 100 calls of a loop of 64 steps of several instructions each
            fail(f"--filter=LagrangeLeapFrog traced {n} instructions, expected at least {100 * 64}")
        n = traced(os.path.join(out, "hpcg", "xhpcg"), "ComputeSPMV_ref")
        if n < 20 * 4096:
            fail(f"--filter=ComputeSPMV_ref traced {n} instructions, expected at least {20 * 4096}")

        p = run([sys.executable, os.path.join(ROOT, "bench", "bench_apps.py"), BUILD, "--hpcg", "", "--lulesh", ""])
        if "skipped" not in p.stdout:
            fail(f"bench_apps.py without HPCG and LULESH: {p.stdout}")
        shutil.rmtree(out)
    print("thirdparty_apps: ok")


if __name__ == "__main__":
    main()
