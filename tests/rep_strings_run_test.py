#!/usr/bin/env python3
"""x86 rep strings on a real run (docs/model.md, Timing model, "Rep strings"): tests/rep_strings.c, built for x86-64
with the host's gcc, runs rep stosb over n bytes and rep movsb of them in kernel(), under the real qemu-x86_64 with
the real plugin, --filter=kernel --exact --machine=zen4:

- the elements are all there: the prediction's instructions are the eDAG's vertices, n + 1 for the stosb and
  2n + 1 for the movsb's two vertices (QEMU's last, count-zero execution included), and as many accesses;
- the model schedules a line at a time: from n = 64 KiB to 128 KiB the predicted time grows by less than a tenth of a
  cycle a byte (a byte a cycle each, before the model folded them);
- the eDAG keeps every element: its work T1 grows by at least a cycle a byte.

usage: rep_strings_run_test.py BUILD_DIR CATEGORY   (categories: x86)
"""
import json
import tempfile

from realrun_lib import check, edan, host_program, run_category



def report(exe, n):
    p = edan("run", "--json", "--exact", "--filter=kernel", "--machine=zen4", "--mem-latency=100", exe, str(n))
    check(p.returncode == 0, f"edan run {n}: exit {p.returncode}: {p.stderr[-500:]}")
    return json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None


def test_x86():
    with tempfile.TemporaryDirectory() as tmp:
        exe = host_program(tmp, "rep_strings.c")
        if not exe:
            return
        small, large = 65536, 131072
        a, b = report(exe, small), report(exe, large)
        if not a or not b:
            return
        for rep, n in ((a, small), (b, large)):
            c = rep["prediction"]["counts"]
            vertices = rep["configurations"][0]["vertices"]
            # stosb n + 1, movsb 2n + 1 (a load and a store vertex each), and the kernel's few others
            check(c["instructions"] == vertices and 3 * n + 2 <= vertices <= 3 * n + 64,
                  f"n {n}: the prediction's {c['instructions']} instructions, the eDAG's {vertices} vertices")
            check(c["stores"] >= 2 * n and c["loads"] >= n, f"n {n}: {c['loads']} loads, {c['stores']} stores")
        per_byte = (b["prediction"]["cycles"][0] - a["prediction"]["cycles"][0]) / (large - small)
        check(0 < per_byte < 0.1, f"the predicted time grows by {per_byte} cycles a byte, not under 0.1")
        t1 = (b["configurations"][0]["T1"] - a["configurations"][0]["T1"]) / (large - small)
        check(t1 >= 1, f"the eDAG's work grows by {t1} cycles a byte (every element a vertex)")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
