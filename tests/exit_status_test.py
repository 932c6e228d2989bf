#!/usr/bin/env python3
"""edan's exit status follows the traced program's (issue 40, part 5), under the real QEMU with the real plugin:
tests/guest_exit.c exits with a status, raises a signal or faults, and every command that runs a program (run,
record, annotate, locality, rank) still writes its results, then exits 3 (non-zero status) or 4 (killed by a
signal) with one line on stderr saying so; --ignore-exit makes it 0; edan's own errors stay 1 and 2.

usage: exit_status_test.py BUILD_DIR CATEGORY (statuses). Prints 'N passed, N failed'.
"""
import json
import os
import subprocess
import tempfile

from realrun_lib import EDAN, check, metrics, run_category

HERE = os.path.dirname(os.path.abspath(__file__))


def build(d):
    out = os.path.join(d, "guest_exit")
    p = subprocess.run(["riscv64-linux-gnu-gcc", "-std=c17", "-O2", "-g", "-static", "-Wall", "-Wextra", "-Werror",
                        "-o", out, os.path.join(HERE, "guest_exit.c")], capture_output=True, text=True)
    check(p.returncode == 0, f"building guest_exit.c: {p.stderr}")
    return out


def edan(*args, cwd=None):
    return subprocess.run([EDAN, *args], capture_output=True, text=True, cwd=cwd)


# how the program ends -> (edan's exit status, what the line on stderr says)
ENDINGS = {
    "0": (0, None),
    "7": (3, "exited with status 7"),
    "sig6": (4, "was killed by signal 6"),
    "fault": (4, "was killed by signal 11"),
}


def said(p, what, code):
    """The last line of stderr names the program's end and edan's status, and no other line does."""
    lines = [ln for ln in p.stderr.splitlines() if "the program" in ln and "results are complete" in ln]
    if what is None:
        return not lines
    return len(lines) == 1 and what in lines[0] and p.stderr.rstrip("\n").endswith(lines[0]) and (
        f"exits with status {code}" in lines[0] or "exits with 0 (--ignore-exit)" in lines[0])


def test_statuses():
    with tempfile.TemporaryDirectory() as d:
        prog = build(d)
        base = None
        for how, (code, what) in ENDINGS.items():
            # run: the report of the kernel is the same however the program ends after it
            p = edan("run", "--json", "--filter=kernel", prog, how, "50")
            check(p.returncode == code and said(p, what, code), f"run {how}: exit {p.returncode}, {p.stderr!r}")
            try:
                r = metrics(json.loads(p.stdout.strip().splitlines()[-1]))
            except (ValueError, IndexError):
                r = None
            base = base or r
            check(r is not None and r == base, f"run {how}: the report is written and equals the exit-0 one")
            # the report says how the program ended, and whether --ignore-exit was given
            sig = int(how[3:]) if how.startswith("sig") else 11 if how == "fault" else None
            want = {"status": None if sig else int(how), "signal": sig, "ignore_exit": False}
            got = json.loads(p.stdout.strip().splitlines()[-1])["source"].get("program_exit") if r else None
            check(got == want, f"run {how}: source.program_exit {got}, want {want}")
            q = edan("run", "--json", "--ignore-exit", "--filter=kernel", prog, how, "50")
            qr = json.loads(q.stdout.strip().splitlines()[-1]) if q.returncode == 0 else {"source": {}}
            check(q.returncode == 0 and metrics(qr) == r and said(q, what, 0) and
                  qr["source"].get("program_exit") == dict(want, ignore_exit=True),
                  f"run --ignore-exit {how}: exit {q.returncode}, {qr['source'].get('program_exit')}, {q.stderr!r}")
            # the HTML page shows it in its Run table (its data is the report, drawn by the page's script)
            page = os.path.join(d, f"p-{how}.html")
            h = edan("run", "--filter=kernel", "--html=" + page, prog, how, "50")
            text = open(page).read() if os.path.exists(page) else ""
            check(h.returncode == code and '"program_exit":' + json.dumps(want, separators=(",", ":")) in text,
                  f"run --html {how}: the page holds program_exit")
            # record: the trace is complete, and analyses to the same report
            trace = os.path.join(d, f"t-{how}.edt")
            p = edan("record", "--filter=kernel", "-o", trace, prog, how, "50")
            check(p.returncode == code and said(p, what, code), f"record {how}: exit {p.returncode}, {p.stderr!r}")
            a = edan("analyze", "--json", trace)
            check(a.returncode == 0 and base and metrics(json.loads(a.stdout)) == base,
                  f"record {how}: the trace analyses as the run did: {a.stderr!r}")
            # annotate and locality of a program
            for cmd in (["annotate", "--json"], ["locality", "--json", "--footprint"]):
                p = edan(*cmd, "--filter=kernel", prog, how, "50")
                ok = p.returncode == code and said(p, what, code)
                try:
                    json.loads(p.stdout)
                except ValueError:
                    ok = False
                check(ok, f"{cmd[0]} {how}: exit {p.returncode}, a JSON report, {p.stderr!r}")
            # rank: programs with arguments from a list; the worst ending decides
            lst = os.path.join(d, "list.txt")
            with open(lst, "w") as f:
                f.write(f"{prog}:kernel 0 50\n{prog}:kernel {how} 60\n")
            p = edan("rank", "--json", "--list=" + lst)
            check(p.returncode == code and said(p, what, code) and json.loads(p.stdout)["schema"] == "edan.rank/1",
                  f"rank {how}: exit {p.returncode}, {p.stderr!r}")
        # the region left open by the fault inside the kernel is still analysed
        p = edan("run", "--json", "--filter=kernel", prog, "inside", "50")
        check(p.returncode == 4 and said(p, "was killed by signal 11", 4) and
              json.loads(p.stdout)["configurations"][0]["vertices"] > 0, f"a fault inside the kernel: {p.stderr!r}")
        # --per-function runs the program twice: one line
        p = edan("run", "--per-function", prog, "7", "50")
        check(p.returncode == 3 and said(p, "exited with status 7", 3), f"--per-function: {p.stderr!r}")
        # edan's own failures keep their statuses, whatever the program would have done
        p = edan("run", "--filter=nosuch", prog, "7")
        check(p.returncode == 2 and "results are complete" not in p.stderr, f"a bad filter: {p.returncode}")
        p = edan("run", "--qemu=/no/such/qemu", prog, "7")
        check(p.returncode == 2 and "not installed" in p.stderr and "results are complete" not in p.stderr,
              f"QEMU missing: {p.returncode}")
        p = edan("run", "--ignore-exit=yes", prog, "7")
        check(p.returncode == 2 and "takes no value" in p.stderr, f"--ignore-exit=yes: {p.stderr!r}")


run_category({"statuses": test_statuses})
