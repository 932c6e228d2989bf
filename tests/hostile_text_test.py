#!/usr/bin/env python3
"""A text trace cut short never reads as complete (issue 20, item 7), through the edan command on real traces:
a trace the plugin wrote (`edan record --text`) cut at every line boundary exits 2 naming the file and the line;
the whole trace, and `edan convert`'s, are analysed as the binary trace is; the same lines without edan's header
and end line (the original EDAN tool's format) are analysed with a warning; a record killed with SIGKILL or
stopped with SIGINT leaves a file that is refused.

usage: hostile_text_test.py BUILD_DIR CATEGORY (cuts, killed). Prints 'N passed, N failed'.
"""
import json
import os
import signal
import subprocess
import tempfile
import time

from realrun_lib import BUILD, EDAN, EX, check, edan, run_category

HEADER = "# edan text trace 1"


def configurations(path, stdin=None):
    p = subprocess.run([EDAN, "analyze", "--json", "--cache=none;4K", path], stdin=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p, (json.loads(p.stdout)["configurations"] if p.returncode == 0 else None)


def test_cuts():
    with tempfile.TemporaryDirectory() as d:
        binary, plugin, converted = (os.path.join(d, n) for n in ("t.edt", "plugin.txt", "converted.txt"))
        prog = os.path.join(EX, "sum")
        # cold, as a text trace is (it holds the region alone)
        check(edan("record", "--cold", "--filter=kernel", "-o", binary, prog, "4").returncode == 0, "record")
        check(edan("record", "--text", "--filter=kernel", "-o", plugin, prog, "4").returncode == 0, "record --text")
        check(edan("convert", binary, converted).returncode == 0, "convert")
        _, want = configurations(binary)
        for t in (plugin, converted):
            p, got = configurations(t)
            check(p.returncode == 0 and got == want and "warning" not in p.stderr,
                  f"{os.path.basename(t)} whole: exit {p.returncode}, {p.stderr.strip()}")
        lines = open(plugin).read().splitlines(True)
        check(lines[0] == HEADER + "\n" and lines[-1] == f"# edan end: {len(lines) - 2} instructions\n",
              f"the plugin's header and end line: {lines[0]!r} {lines[-1]!r}")
        check(open(converted).read() == "".join(lines), "convert writes what the plugin writes")
        cut = os.path.join(d, "cut.txt")
        for k in range(len(lines)):
            with open(cut, "w") as f:
                f.writelines(lines[:k])
            p, got = configurations(cut)
            if k == 0:
                check(p.returncode == 2 and "empty" in p.stderr, f"nothing kept: {p.returncode} {p.stderr.strip()}")
                continue
            check(p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1 and
                  p.stderr.startswith(f"edan: {cut}:{k}: ") and "cut off" in p.stderr,
                  f"cut after line {k} of {len(lines)}: exit {p.returncode}: {p.stderr.strip()}")
        # through standard input, and a conversion of a cut trace leaves no output
        p, _ = configurations("-", stdin=open(cut))
        check(p.returncode == 2 and f"<stdin>:{len(lines) - 1}: " in p.stderr, f"a cut trace on stdin: {p.stderr}")
        out = os.path.join(d, "out.txt")
        with open(out, "w") as f:
            f.write("keep\n")
        p = edan("convert", "--text", cut, out, expect=2)
        check(p.returncode == 2 and "cut off" in p.stderr, f"convert of a cut trace: {p.stderr.strip()}")
        check(sorted(os.listdir(d)) == ["converted.txt", "cut.txt", "out.txt", "plugin.txt", "t.edt"] and
              open(out).read() == "keep\n", f"convert of a cut trace leaves nothing, and no file replaced: "
              f"{sorted(os.listdir(d))}")
        # the same for a binary trace cut in its middle, converted to binary: the writer's temporary file goes
        with tempfile.TemporaryDirectory() as d2:
            big, half, out2 = (os.path.join(d2, n) for n in ("big.edt", "half.edt", "out.edt"))
            check(edan("record", "-o", big, os.path.join(EX, "spmv"), "3000").returncode == 0, "record spmv")
            data = open(big, "rb").read()
            with open(half, "wb") as f:
                f.write(data[:len(data) // 2])
            with open(out2, "w") as f:
                f.write("keep\n")
            p = edan("convert", "--binary", half, out2, expect=2)
            check(p.returncode == 2 and "truncated" in p.stderr and sorted(os.listdir(d2)) == ["big.edt", "half.edt",
                  "out.edt"] and open(out2).read() == "keep\n",
                  f"binary convert of a cut trace: {p.stderr.strip()}, {sorted(os.listdir(d2))}")
        # the original tool's format: no edan lines, read whole, with a warning naming the file
        orig = os.path.join(d, "orig.txt")
        with open(orig, "w") as f:
            f.writelines(l for l in lines if not l.startswith("#"))
        p, got = configurations(orig)
        check(p.returncode == 0 and got == want and p.stderr.startswith(f"edan: warning: {orig}: ") and
              "cannot be checked" in p.stderr, f"original format: exit {p.returncode}: {p.stderr.strip()}")
        p = edan("convert", "--text", orig, out)
        check(p.returncode == 0 and "warning" in p.stderr and open(out).read() == "".join(lines),
              f"convert of the original format adds edan's lines: {p.stderr.strip()}")
        golden = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "summation.txt")
        p = edan("analyze", golden)
        check(p.returncode == 0 and "summation.txt" in p.stderr and "warning" in p.stderr,
              f"the original tracer's file: {p.stderr.strip()}")


def test_killed():
    """A record stopped before its end. Killed (SIGKILL, which nothing can catch), its file (NAME.XXXXXXXXXXXX,
    never renamed) has no end line and is refused; stopped with SIGINT, edan removes it (issue 35)."""
    prog = os.path.join(BUILD, "bench", "cg")
    if not os.path.exists(prog):
        check(False, "the cg workload is built")
        return
    for sig in (signal.SIGKILL, signal.SIGINT):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "t.txt")
            proc = subprocess.Popen([EDAN, "record", "--text", "-o", out, prog, "24", "100000"], cwd=d,
                                    env={**os.environ, "TMPDIR": d}, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            deadline, size = time.time() + 30, 0
            while time.time() < deadline and size < 4 << 20:
                names = [n for n in os.listdir(d) if n.startswith("t.txt.")]
                try:
                    size = os.path.getsize(os.path.join(d, names[0])) if names else 0
                except OSError:  # gone between the listing and the size: the checks below say what is left
                    size = 0
                time.sleep(0.002)
            proc.send_signal(sig)
            proc.wait(timeout=30)
            deadline = time.time() + 10
            while time.time() < deadline and subprocess.run(["pgrep", "-f", d], stdout=subprocess.DEVNULL).returncode == 0:
                time.sleep(0.05)
            check(subprocess.run(["pgrep", "-f", d], stdout=subprocess.DEVNULL).returncode != 0,
                  f"signal {sig}: QEMU stopped")
            left = [n for n in os.listdir(d) if n.startswith("t.txt")]
            if sig != signal.SIGKILL:
                check(left == [], f"signal {sig}: no temporary left: {left}")
                continue
            check(len(left) == 1 and left[0] != "t.txt", f"signal {sig}: only the unfinished file: {left}")
            if len(left) != 1:
                continue
            path = os.path.join(d, left[0])
            data = open(path, "rb").read()
            p = edan("analyze", path, expect=2)
            check(len(data) >= 4 << 20 and data.startswith(HEADER.encode() + b"\n") and b"# edan end" not in data,
                  f"signal {sig}: {len(data)} bytes, no end line")
            check(p.returncode == 2 and p.stderr.startswith(f"edan: {path}:") and
                  ("cut off" in p.stderr), f"signal {sig}: {p.returncode} {p.stderr.strip()}")


run_category({"cuts": test_cuts, "killed": test_killed})
