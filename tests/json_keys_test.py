#!/usr/bin/env python3
"""The JSON key reference, docs/json-keys.md, is what the tools' result tables declare (issue 36).

usage: json_keys_test.py BUILD_DIR SOURCE_DIR [--update]

Runs BUILD_DIR/result_keys --markdown (tests/result_keys.c), which writes the reference from the declarations
(report/table.h) of every registered tool, and compares it with the committed docs/json-keys.md, printing a unified
diff on a mismatch: a key added, renamed or documented differently in a declaration fails until the reference is
regenerated. --update rewrites the file. Prints 'N passed, N failed'.
"""
import difflib
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, source = sys.argv[1], sys.argv[2]
    p = subprocess.run([os.path.join(build, "result_keys"), "--markdown"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print(f"FAILED: result_keys --markdown exited {p.returncode}: {p.stderr}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    path = os.path.join(source, "docs", "json-keys.md")
    if "--update" in sys.argv[3:]:
        with open(path, "w") as f:
            f.write(p.stdout)
    want = open(path).read() if os.path.exists(path) else ""
    if want == p.stdout:
        print("1 passed, 0 failed")
        return 0
    print("FAILED: docs/json-keys.md is not what the declarations generate; regenerate it with "
          f"`python3 tests/json_keys_test.py BUILD_DIR . --update` and review the diff:", file=sys.stderr)
    sys.stderr.writelines(difflib.unified_diff(want.splitlines(True), p.stdout.splitlines(True),
                                               "docs/json-keys.md", "generated", n=1))
    print("0 passed, 1 failed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
