#!/usr/bin/env python3
"""The reports of the paper's examples, pinned byte for byte (issue 19, "Golden text").

usage: golden_report_test.py BUILD_DIR SOURCE_DIR [--update]

Runs `edan analyze` on the paper's example traces in tests/golden (Figure 6, Figure 8a and 8b, the summation
kernel of Figures 4, 5 and 7) with a set of option combinations, from that folder with the trace's name as it is
given there, so no report holds a machine's path, and compares each report with its file under
tests/golden/reports/ (TRACE.OPTIONS.txt), printing a unified diff on a mismatch. --update rewrites the files,
for a change of the reports that is intended (review their diff). Prints 'N passed, N failed'.
"""
import difflib
import os
import subprocess
import sys

TRACES = ["figure6.txt", "figure8a.txt", "figure8b.txt", "summation.txt"]
OPTIONS = {
    "default": [],
    "caches": ["--cache=none;32K"],
    "false-deps": ["--false-deps"],
    "alphas-m": ["--alpha=100,200", "--m=1,4,8"],
    "table": ["--table", "--cache=none;32K;64K"],
    "line-bytes": ["--bytes=line", "--cache=32K,ways=8,write=back,alloc=yes"],
    "tau1": ["--tau=1"],
    "critical-path": ["--critical-path"],
    "critical-path-false-deps": ["--critical-path", "--false-deps"],
    "footprint": ["--footprint"],
    "json": ["--json"],
    "json-false-deps-caches": ["--json", "--false-deps", "--cache=none;32K", "--alpha=1,200"],
    "json-critical-path": ["--json", "--critical-path", "--footprint"],
    # the timing model's full schedule: the numbers of the unsampled model (the default before issue 37's
    # sampled schedule), pinned
    "machine-exact": ["--machine=../../machines/gem5-validation.ini", "--mem-latency=50,300", "--exact"],
    "json-machine-exact": ["--json", "--machine=../../machines/gem5-validation.ini", "--mem-latency=50,100,300",
                           "--exact"],
}


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    edan = os.path.join(os.path.abspath(sys.argv[1]), "edan")
    golden = os.path.join(os.path.abspath(sys.argv[2]), "tests", "golden")
    update = "--update" in sys.argv[3:]
    passed = failed = 0
    for trace in TRACES:
        for name, opts in OPTIONS.items():
            p = subprocess.run([edan, "analyze", *opts, trace], cwd=golden, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
            got = p.stdout if p.returncode == 0 else f"exit {p.returncode}\n{p.stderr}"
            path = os.path.join(golden, "reports", f"{trace[:-4]}.{name}.txt")
            if update:
                with open(path, "w") as f:
                    f.write(got)
            want = open(path).read() if os.path.exists(path) else None
            if want == got:
                passed += 1
                continue
            failed += 1
            print(f"FAILED: edan analyze {' '.join(opts)} {trace} differs from {os.path.relpath(path, golden)}",
                  file=sys.stderr)
            sys.stderr.writelines(difflib.unified_diff((want or "").splitlines(True), got.splitlines(True),
                                                       "expected", "edan", n=1))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
