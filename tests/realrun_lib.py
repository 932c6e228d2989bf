"""Helpers of the real-run tests (realrun_test.py, prediction_test.py): the build under test, the
counting check, edan invoked as a user would, the JSON schema check, and the category runner.

Each script is run as SCRIPT BUILD_DIR CATEGORY and prints 'N passed, N failed'.
"""
import json
import os
import subprocess
import sys

BUILD = os.path.abspath(sys.argv[1])
CATEGORY = sys.argv[2]
EDAN = os.path.join(BUILD, "edan")
EX = os.path.join(BUILD, "examples")
# In the sanitizer build (tests/tests.cmake sets EDAN_TEST_SANITIZED=1 on its longest tests) a test takes a share of
# its inputs, share() below: every kind of them still runs under ASan/UBSan; the normal build takes them all.
SANITIZED = os.environ.get("EDAN_TEST_SANITIZED") == "1"


def share(items, every=4):
    """items in the normal build; in the sanitizer build every every-th one of them (the first included)."""
    items = list(items)
    return items[::every] if SANITIZED else items

class _Counts:
    passed = 0
    failed = 0


counts = _Counts()


def check(cond, msg):
    if cond:
        counts.passed += 1
    else:
        counts.failed += 1
        print("FAILED:", msg, file=sys.stderr)


def edan(*args, expect=0, cwd=None):
    p = subprocess.run([EDAN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    if expect is not None and p.returncode != expect:
        print("command:", " ".join([EDAN, *args]), file=sys.stderr)
        print(p.stderr, file=sys.stderr)
    return p


def host_program(tmp, source):
    """tests/SOURCE (C) built for the host with its gcc, static, into directory tmp: its path, or None after a failed
    check."""
    exe = os.path.join(tmp, os.path.splitext(os.path.basename(source))[0])
    p = subprocess.run(["gcc", "-std=c17", "-O2", "-static", "-o", exe,
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), source)], capture_output=True,
                       text=True)
    check(p.returncode == 0, f"building {source}: {p.stderr}")
    return exe if p.returncode == 0 else None


def online(prog, n, *opts):
    p = edan("run", "--json", "--filter=kernel", *opts, os.path.join(EX, prog), str(n))
    check(p.returncode == 0, f"edan run {prog} {n}: exit {p.returncode}: {p.stderr}")
    # the program's own output comes first on stdout; the report is the last line
    return json.loads(p.stdout.strip().splitlines()[-1])


def validate_schema(report, what):
    """The report matches docs/schema/edan.analysis.1.json (Debian's python3-jsonschema)."""
    import jsonschema
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "schema", "edan.analysis.1.json")
    with open(path) as f:
        schema = json.load(f)
    try:
        jsonschema.validate(report, schema)
        check(True, "")
    except jsonschema.ValidationError as e:
        check(False, f"{what}: JSON does not match the schema: {e.message} at {list(e.absolute_path)}")


def metrics(report):
    """Everything but where the report came from."""
    r = dict(report)
    r.pop("source")
    return r



def run_category(tests):
    """Run the test function named by the command line's category; exit with the result."""
    if CATEGORY not in tests:
        print(f"unknown category {CATEGORY}; one of {sorted(tests)}", file=sys.stderr)
        sys.exit(2)
    tests[CATEGORY]()
    print(f"{counts.passed} passed, {counts.failed} failed")
    sys.exit(1 if counts.failed else 0)
