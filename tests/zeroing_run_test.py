#!/usr/bin/env python3
"""The kernel's zeroing of fresh pages on a real run (docs/model.md, "Pages the kernel zeroes"): tests/fresh_pages.c,
built for x86-64 with the host's gcc, writes a 256 KiB array from malloc (fresh pages) in kernel()'s first call and
again in its second, under the real qemu-x86_64 with the real plugin, --filter=kernel --exact:

- zen4 (page_zeroing = first-store): the header says first-store, counts.pages_zeroed is a naive count of the
  array's pages less the one malloc's chunk header was written to before, and neither call reads the array's lines
  from memory: a few memory lines where the same file with page_zeroing = none reads the array's 4,096 once, and a
  slope a tenth of its;
- --cold: no zeroing (the region's stream does not say which pages were written before), the header says so, and
  every number equals the file without zeroing;
- page_fault_ns: each zeroed page's fault adds its time to every latency's prediction (fault_seconds = pages_zeroed
  x page_fault_ns), the slope unchanged, the text names it; without page_zeroing = first-store it is an error;
- a bad value names the file, the line and the key, exit status 2.

usage: zeroing_run_test.py BUILD_DIR CATEGORY   (categories: x86)
"""
import json
import os
import re
import tempfile

from realrun_lib import check, edan, host_program, run_category

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINES = os.path.join(HERE, "..", "machines")
PAGE = 4096


def report(*args):
    p = edan("run", "--json", "--exact", "--mem-latency=100,300", "--filter=kernel", *args)
    check(p.returncode == 0, f"edan run {args}: exit {p.returncode}: {p.stderr[-500:]}")
    if p.returncode:
        return None, p
    return json.loads(p.stdout.strip().splitlines()[-1]), p


def test_x86():
    with tempfile.TemporaryDirectory() as tmp:
        exe = host_program(tmp, "fresh_pages.c")
        if not exe:
            return
        with open(os.path.join(MACHINES, "zen4.ini")) as f:
            text = f.read()
        check(re.search(r"(?m)^page_zeroing = first-store\b", text), "zen4.ini zeroes at the first store")
        text = re.sub(r"(?m)^page_fault_ns = .*\n", "", text)  # the faults' time apart (below)
        zen4 = os.path.join(tmp, "zen4.ini")
        with open(zen4, "w") as f:
            f.write(text)
        none = os.path.join(tmp, "zen4-none.ini")
        with open(none, "w") as f:
            f.write(re.sub(r"(?m)^page_zeroing = .*$", "page_zeroing = none", text))
        zero, pz = report("--machine=" + zen4, exe)
        plain, _ = report("--machine=" + none, exe)
        if not zero or not plain:
            return
        m = re.search(r"out (0x[0-9a-f]+) (\d+)", pz.stdout + pz.stderr)
        check(m, f"the program's output: {pz.stdout!r}")
        if not m:
            return
        addr, length = int(m.group(1), 16), int(m.group(2))
        want = (addr + length - 1) // PAGE - addr // PAGE + 1 - (1 if addr % PAGE else 0)
        z, n = zero["prediction"], plain["prediction"]
        check(zero["caches"]["prediction"]["page_zeroing"] == "first-store" and
              plain["caches"]["prediction"]["page_zeroing"] == "none",
              f"the headers: {zero['caches']['prediction']}, {plain['caches']['prediction']}")
        check(z["counts"]["pages_zeroed"] == want and n["counts"]["pages_zeroed"] == 0,
              f"pages zeroed {z['counts']['pages_zeroed']} and {n['counts']['pages_zeroed']}, not {want} and 0")
        lines = length // 64
        check(n["counts"]["memory_lines"] >= lines and z["counts"]["memory_lines"] < lines // 100,
              f"memory lines {z['counts']['memory_lines']} zeroing, {n['counts']['memory_lines']} not ({lines} in out)")
        check(z["slope_ns_per_ns"] < n["slope_ns_per_ns"] / 10 and z["cycles"][0] < n["cycles"][0],
              f"slope {z['slope_ns_per_ns']} against {n['slope_ns_per_ns']}, cycles {z['cycles']} against {n['cycles']}")
        check(z["counts"]["stores"] == n["counts"]["stores"] and z["counts"]["loads"] == n["counts"]["loads"],
              "the program's own accesses counted alike")
        text_report = edan("run", "--exact", "--machine=" + zen4, "--filter=kernel", exe).stdout
        check("each page zeroed at its first store" in text_report and re.search(r"pages zeroed +%d " % want,
                                                                                  text_report),
              f"the text report: {text_report}")
        # --cold: the region's stream alone, no zeroing, the numbers of the file without it
        cz, pc = report("--cold", "--machine=" + zen4, exe)
        cn, _ = report("--cold", "--machine=" + none, exe)
        if cz and cn:
            check(cz["caches"]["prediction"]["page_zeroing"] == "none" and cz["prediction"]["counts"] ==
                  cn["prediction"]["counts"] and cz["prediction"]["cycles"] == cn["prediction"]["cycles"],
                  f"--cold: {cz['caches']['prediction']}, {cz['prediction']['cycles']} against "
                  f"{cn['prediction']['cycles']}")
            t = edan("run", "--cold", "--machine=" + zen4, "--filter=kernel", exe).stdout
            check("no page zeroing: a --cold region" in t, f"--cold's header: {t}")
        # page_fault_ns: the faults' time added at every latency, the slope unchanged
        faulting = os.path.join(tmp, "zen4-faults.ini")
        with open(faulting, "w") as f:
            f.write(re.sub(r"(?m)^(page_zeroing = .*)$", r"\1\npage_fault_ns = 1500", text))
        fz, _ = report("--machine=" + faulting, exe)
        if fz:
            f = fz["prediction"]
            fault_s = want * 1500e-9
            check(f["machine"]["page_fault_ns"] == 1500 and z["machine"]["page_fault_ns"] == 0 and
                  abs(f["fault_seconds"] - fault_s) < 1e-12 and z["fault_seconds"] == 0,
                  f"fault_seconds {f['fault_seconds']} and {z['fault_seconds']}, not {fault_s} and 0")
            check(all(abs(a - b - fault_s) < 1e-9 * b for a, b in zip(f["seconds"], z["seconds"])) and
                  abs(f["slope_ns_per_ns"] - z["slope_ns_per_ns"]) < 1e-6 * max(1.0, z["slope_ns_per_ns"]),
                  f"seconds {f['seconds']} against {z['seconds']} (+{fault_s}), slope {f['slope_ns_per_ns']} against "
                  f"{z['slope_ns_per_ns']}")
            t = edan("run", "--exact", "--machine=" + faulting, "--filter=kernel", exe).stdout
            check(re.search(r"page faults +[0-9.e-]+ s of the time at every latency \(\d+ x 1500 ns\)", t),
                  f"the text report's faults: {t}")
        nozero = os.path.join(tmp, "faults-none.ini")
        with open(nozero, "w") as f:
            f.write(re.sub(r"(?m)^page_zeroing = .*$", "page_zeroing = none\npage_fault_ns = 1500", text))
        line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("page_zeroing")) + 1
        p = edan("run", "--machine=" + nozero, "--filter=kernel", exe, expect=2)
        check(p.returncode == 2 and f"{nozero}:{line}" in p.stderr and "page_fault_ns" in p.stderr and
              "first-store" in p.stderr, f"page_fault_ns without zeroing: exit {p.returncode}: {p.stderr!r}")
        negative = os.path.join(tmp, "faults-negative.ini")
        with open(negative, "w") as f:
            f.write(re.sub(r"(?m)^(page_zeroing = .*)$", r"\1\npage_fault_ns = -5", text))
        p = edan("run", "--machine=" + negative, "--filter=kernel", exe, expect=2)
        check(p.returncode == 2 and f"{negative}:{line}: page_fault_ns = '-5'" in p.stderr,
              f"a negative page_fault_ns: exit {p.returncode}: {p.stderr!r}")
        # a bad value: the file, the line and the key
        bad = os.path.join(tmp, "bad.ini")
        with open(bad, "w") as f:
            f.write(re.sub(r"(?m)^page_zeroing = .*$", "page_zeroing = always", text))
        line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("page_zeroing"))
        p = edan("run", "--machine=" + bad, "--filter=kernel", exe, expect=2)
        check(p.returncode == 2 and f"{bad}:{line}" in p.stderr and "page_zeroing" in p.stderr and
              p.stderr.count("\n") == 1, f"a bad value: exit {p.returncode}: {p.stderr!r}")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
