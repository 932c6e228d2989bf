#!/usr/bin/env python3
"""A hostile traced program (issue 35), under the real QEMU with the real plugin, with programs built here by the
RISC-V cross compilers:
  descriptors  a program that writes into and closes every descriptor 0..1023 (tests/guest_fds.c) reaches neither
               the trace being recorded, nor edan's --output report, nor the plugin's messages; QEMU inherits no
               descriptor edan opened
  regions      a filtered function left by longjmp (tests/guest_longjmp.c), a C++ exception
               (tests/guest_throw.cpp) or an unwinder's return into a caller that calls it again at once
               (tests/guest_unwind.S) ends its region where control is back in its caller: the regions differ
               from those of the same calls returning normally by the same count per call
  silent       a filtered function that never runs, a QEMU out of memory with --filter, and a status file that
               cannot be written are errors with a message, never an empty report with exit 0

usage: hostile_guest_test.py BUILD_DIR CATEGORY. Prints 'N passed, N failed'.
"""
import json
import os
import subprocess
import tempfile

from realrun_lib import BUILD, EDAN, check, edan, run_category

HERE = os.path.dirname(os.path.abspath(__file__))


def build(d, src, compiler="riscv64-linux-gnu-gcc", std="-std=c17"):
    out = os.path.join(d, os.path.splitext(src)[0].replace("guest_", ""))
    p = subprocess.run([compiler, std, "-O2", "-g", "-static", "-Wall", "-Wextra", "-Werror", "-o", out,
                        os.path.join(HERE, src)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, f"building {src}: {p.stderr}")
    return out


def configuration(args, cwd=None):
    p = edan(*args, cwd=cwd)
    check(p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout.strip().splitlines()[-1])["configurations"][0] if p.returncode == 0 else {}


def test_descriptors():
    with tempfile.TemporaryDirectory() as d:
        prog = build(d, "guest_fds.c")
        n = 64
        for fmt in ([], ["--text"]):
            trace = os.path.join(d, "t.txt" if fmt else "t.edt")
            p = edan("record", *fmt, "--filter=kernel", "-o", trace, prog, str(n))
            check(p.returncode == 0, f"record {fmt}: exit {p.returncode}: {p.stderr.strip()}")
            check(b"INJECTED" not in open(trace, "rb").read(), f"record {fmt}: the program wrote into the trace")
            c = configuration(["analyze", "--json", trace])
            check(c.get("W") == n, f"record {fmt}: the kernel traced after every descriptor was closed: {c.get('W')}")
        out = os.path.join(d, "r.json")
        p = edan("run", "--json", "--filter=kernel", "--output=" + out, prog, str(n))
        try:
            c = json.load(open(out))["configurations"][0]
            check(p.returncode == 0 and c["W"] == n, f"run --output: exit {p.returncode}, W {c['W']}")
        except (OSError, ValueError) as e:
            check(False, f"run --json --output: the report is not valid JSON: {e}: {p.stderr.strip()}")
        # the plugin's messages after the run (its warning that the program forked, after it closed descriptor 2)
        # reach edan's standard error, not whatever the program left at 2
        p = edan("run", "--filter=kernel", prog, str(n), "fork", expect=None)
        check(p.returncode == 0 and "forked 1 time" in p.stderr,
              f"the plugin's warning after the run: exit {p.returncode}: {p.stderr.strip()[-400:]}")
        # QEMU inherits no descriptor edan opened: only 0, 1 and 2 (and the shell's own script)
        spy = os.path.join(d, "spy-qemu")
        with open(spy, "w") as f:
            f.write('#!/bin/sh\nls -l /proc/$$/fd > "$SPY_OUT"\nexec qemu-riscv64 "$@"\n')
        os.chmod(spy, 0o755)
        listing = os.path.join(d, "fds.txt")

        def descriptors(cmd):
            subprocess.run(cmd, env={**os.environ, "SPY_OUT": listing}, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            return {line.split()[-3]: line.split()[-1] for line in open(listing).read().splitlines() if " -> " in line}

        shell_own = descriptors([spy, "true"])  # the shell's own, run as edan runs it
        for args in (["run", "--json", "--output=" + os.path.join(d, "o.json")],
                     ["record", "-o", os.path.join(d, "s.edt")], ["run", "--table", "--filter=kernel"]):
            fds = descriptors([EDAN, args[0], "--qemu=" + spy, *args[1:], prog, "8"])
            leaked = {fd: target for fd, target in fds.items() if fd not in shell_own}
            check(leaked == {} and len(fds) == len(shell_own), f"{args[0]}: QEMU inherited edan's descriptors {leaked}")


def region(prog, n, mode, blocks):
    """Instructions and accesses of the regions: edan run, or the plugin with a callback per instruction."""
    if blocks == "on":
        c = configuration(["run", "--json", "--filter=kernel", prog, str(n), mode])
    else:
        with tempfile.TemporaryDirectory() as d:
            t = os.path.join(d, "t.edt")
            plugin = os.path.join(BUILD, "libedan_plugin.so")
            p = subprocess.run(["qemu-riscv64", "-plugin", f"{plugin},mode=record,out={t},filter=kernel,blocks=off,"
                                f"binary={prog}", prog, str(n), mode], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            check(p.returncode == 0, f"blocks=off {prog} {n} {mode}: {p.stderr}")
            c = configuration(["analyze", "--json", t])
    return c.get("vertices", -1), c.get("W", -1)


def test_regions():
    with tempfile.TemporaryDirectory() as d:
        programs = [(build(d, "guest_longjmp.c"), "jump", (1, 2, 50)),
                    (build(d, "guest_throw.cpp", "riscv64-linux-gnu-g++", "-std=c++17"), "throw", (2, 3, 6))]
        for prog, mode, ns in programs:
            for blocks in ("on", "off"):
                # leaving by longjmp or throw instead of returning adds the same instructions and accesses to every
                # call (the unwinder's first throw sets itself up: counted from the second call on); a region that
                # did not end would add the rest of the program, which does not grow with the calls
                diff = {}
                for n in ns:
                    (vj, wj), (vr, wr) = region(prog, n, mode, blocks), region(prog, n, "return", blocks)
                    diff[n] = (vj - vr, wj - wr)
                a, b, c = ns
                per_call = tuple((diff[b][i] - diff[a][i]) / (b - a) for i in (0, 1))
                want = tuple(diff[b][i] + (c - b) * per_call[i] for i in (0, 1))
                check(per_call[0] > 0 and diff[c] == want, f"{os.path.basename(prog)} {mode} blocks={blocks}: "
                      f"per call {per_call}, {c} calls {diff[c]} != {want}")
        # the regions hold nothing of main: not its loop after the calls (the only mul of the program's own code)
        prog = programs[0][0]
        t = os.path.join(d, "lj.txt")
        check(edan("record", "--text", "--filter=kernel", "-o", t, prog, "20", "jump").returncode == 0, "record")
        lines = open(t).read().splitlines()
        check(not any(";mul " in line for line in lines), "main's loop after the calls counted in the regions")
        check(lines[-2].endswith(";ret") and sum(";ld sp," in line for line in lines) == 20,
              f"each region ends with longjmp's return: {lines[-3:]}")
        # an unwinder's way out (sp from a register, then a return into the landing pad) into a caller that calls
        # again before it touches the stack: each region decided at the next call's prologue, with either
        # callback scheme; the regions hold kernel and its callee alone, as when it returns
        unw = os.path.join(d, "unwind")
        p = subprocess.run(["riscv64-linux-gnu-gcc", "-nostdlib", "-static", "-o", unw,
                            os.path.join(HERE, "guest_unwind.S")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        check(p.returncode == 0, f"building guest_unwind.S: {p.stderr}")
        plugin = os.path.join(BUILD, "libedan_plugin.so")
        counts = {}
        for blocks in ("on", "off"):
            for n, mode in (("1", "0"), ("5", "0"), ("1", "1"), ("5", "1")):
                t = os.path.join(d, f"u-{blocks}-{n}-{mode}.txt")
                p = subprocess.run(["qemu-riscv64", "-plugin", f"{plugin},mode=text,out={t},filter=kernel,"
                                    f"blocks={blocks},binary={unw}", unw, n, mode], stderr=subprocess.PIPE, text=True)
                body = [line for line in open(t).read().splitlines() if not line.startswith("#")]
                check(p.returncode == 0 and not any(";xori " in line or ";ecall" in line for line in body),
                      f"unwind {n} {mode} blocks={blocks}: _start's code in a region: {p.stderr}")
                counts[blocks, n, mode] = len(body)
            for mode in ("0", "1"):
                check(counts[blocks, "5", mode] == 5 * counts[blocks, "1", mode] > 0,
                      f"unwind mode {mode} blocks={blocks}: {counts}")
        check(counts["on", "5", "1"] == counts["off", "5", "1"], "the same regions per block and per instruction")


def test_silent():
    with tempfile.TemporaryDirectory() as d:
        prog = build(d, "guest_longjmp.c")
        for cmd in (["run"], ["record", "-o", os.path.join(d, "n.edt")], ["run", "--per-function"]):
            p = edan(*cmd, "--filter=kernel", prog, "3", "never", expect=2)
            check(p.returncode == 2 and "kernel never ran" in p.stderr, f"{cmd[0]}: a filter that never ran: "
                  f"{p.returncode} {p.stderr.strip()}")
        check(not os.path.exists(os.path.join(d, "n.edt")), "no empty trace left")
        low = os.path.join(d, "low-qemu")
        with open(low, "w") as f:
            f.write('#!/bin/sh\nulimit -v 200000\nexec qemu-riscv64 "$@"\n')
        os.chmod(low, 0o755)
        for cmd in (["run"], ["record", "-o", os.path.join(d, "r.edt")]):
            p = edan(cmd[0], "--qemu=" + low, *cmd[1:], "--filter=kernel", prog, "3", "jump", expect=2)
            check(p.returncode == 2 and "did not run" in p.stderr and "kernel" in p.stderr,
                  f"{cmd[0]} --filter under a low ulimit -v: {p.returncode} {p.stderr.strip()}")
        # edan's temporary directory removed while QEMU runs: the plugin says what it could not write, edan why
        long_run = os.path.join(BUILD, "bench", "cg")
        gone = os.path.join(d, "gone-qemu")
        with open(gone, "w") as f:
            f.write('#!/bin/sh\ndir=$(printf %s "$2" | sed "s|.*,status=\\(.*\\)/status.*|\\1|")\n'
                    'qemu-riscv64 "$@" & pid=$!\nsleep 1; rm -rf "$dir"; wait $pid\n')
        os.chmod(gone, 0o755)
        for cmd in (["run"], ["record", "-o", os.path.join(d, "g.edt")]):
            p = edan(cmd[0], "--qemu=" + gone, *cmd[1:], "--filter=cg_solve", long_run, "24", "30", expect=1)
            check(p.returncode == 1 and "cannot write the status file" in p.stderr and
                  "temporary directory" in p.stderr and "was removed" in p.stderr,
                  f"{cmd[0]}: the status file lost: {p.returncode} {p.stderr.strip()}")


run_category({name[5:]: fn for name, fn in globals().items() if name.startswith("test_")})
