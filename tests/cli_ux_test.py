#!/usr/bin/env python3
"""What a user meets at the command line (issue 40, part 5), on real runs under the real QEMU:
  replaced   plots and CSV tables an earlier run wrote in --plot-dir / --csv-dir are replaced with one line on
             stderr naming the directory and how many, never silently; other runs' files stay
  suggest    an unknown option or command gets the closest known one ("did you mean"), from the option table
  help       each command's --help lists exactly the options that command honours (the option table's commands)
  progress   --progress shows the phase, a percentage and an ETA once a region's length is known, a rate before;
             never on standard output, nothing without --progress when stderr is not a terminal
  signals    SIGINT or SIGTERM to edan annotate PROGRAM leaves no temporary directory behind

usage: cli_ux_test.py BUILD_DIR CATEGORY. Prints 'N passed, N failed'.
"""
import json
import os
import re
import signal
import subprocess
import tempfile
import time

from realrun_lib import EDAN, EX, check, run_category


def edan(*args, cwd=None, env=None):
    return subprocess.run([EDAN, *args], capture_output=True, text=True, cwd=cwd, env=env)


def replaced_lines(p):
    return [ln for ln in p.stderr.splitlines() if "an earlier run wrote in" in ln]


def test_replaced():
    spmv = os.path.join(EX, "spmv")
    with tempfile.TemporaryDirectory() as d:
        plots, csvs = os.path.join(d, "plots"), os.path.join(d, "csv")
        args = ["--plot-dir=" + plots, "--csv-dir=" + csvs, "--reuse", "--filter=kernel", spmv, "100"]
        p = edan("run", *args)
        check(p.returncode == 0 and not replaced_lines(p), f"a first run replaces nothing: {p.stderr!r}")
        written = {os.path.join(plots, f) for f in os.listdir(plots)} | {os.path.join(csvs, f) for f in os.listdir(csvs)}
        check(len(written) > 8, f"the run wrote plots and tables: {sorted(written)}")
        before = {f: os.stat(f).st_ino for f in written}
        # the same run again: every file replaced (new inodes, renamed into place), and said in one line
        p = edan("run", *args)
        lines = replaced_lines(p)
        now = {f: os.stat(f).st_ino for f in written}
        changed = [f for f in written if now[f] != before[f]]
        n_said = sum(int(re.search(r"replaced (\d+) file", ln).group(1)) for ln in lines) if lines else 0
        check(p.returncode == 0 and len(changed) == len(written) and n_said == len(written) and len(lines) == 1,
              f"a second run: {len(changed)} of {len(written)} files replaced, {n_said} said: {lines}")
        check(lines and plots in lines[0] and ", ...)" in lines[0], f"the line names the directory: {lines}")
        # another region in the same directories: its own files, nothing replaced, the first run's files kept
        p = edan("run", "--plot-dir=" + plots, "--csv-dir=" + csvs, "--reuse", spmv, "100")
        check(p.returncode == 0 and not replaced_lines(p) and all(os.stat(f).st_ino == now[f] for f in written),
              f"the whole program beside the kernel: nothing replaced: {replaced_lines(p)}")
        # a trace analysed twice, and rank twice: the same notice from edan itself (not the plugin)
        trace = os.path.join(d, "k.edt")
        subprocess.run([EDAN, "record", "--filter=kernel", "-o", trace, spmv, "100"], capture_output=True)
        for cmd in (["analyze", "--csv-dir=" + csvs, "--reuse", trace], ["rank", "--plot-dir=" + plots, trace]):
            first, second = edan(*cmd), edan(*cmd)
            check(first.returncode == 0 and not replaced_lines(first) and second.returncode == 0
                  and len(replaced_lines(second)) == 1, f"{cmd[0]} twice: {replaced_lines(first)} {second.stderr!r}")
        # a file the user names is replaced as every tool replaces -o: no notice
        out = os.path.join(d, "report.json")
        for _ in range(2):
            p = edan("analyze", "--json", "--output=" + out, trace)
            check(p.returncode == 0 and not replaced_lines(p) and json.load(open(out)), "--output is replaced quietly")


def table():
    rows = [json.loads(ln) for ln in edan("help", "--option-table").stdout.splitlines()]
    return [r for r in rows if "option" in r]


def test_suggest():
    spmv = os.path.join(EX, "spmv")
    cases = [
        (["run", "--cach=32K", spmv], "--cache"),
        (["run", "--fliter=kernel", spmv], "--filter"),
        (["run", "--per-functon", spmv], "--per-function"),
        (["annotate", "--machin=x", spmv], "--machine"),
        (["analyze", "--jsno", "x.edt"], "--json"),
        (["record", "--txt", "-o", "x.edt", spmv], "--text"),
        (["run", "--ignore-exti", spmv], "--ignore-exit"),
        (["locality", "--memgaze-table", "--perod=3", "x"], "--period"),
        (["convert", "--txet", "a", "b"], "--text"),
    ]
    for args, want in cases:
        p = edan(*args)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and f"did you mean {want}?" in lines[0],
              f"edan {' '.join(args[:2])}: exit {p.returncode}, {p.stderr!r}")
    # every option of the table, misspelt by a swap of two letters, is found again for each of its commands
    rows = table()
    tried = 0
    for r in rows:
        name = r["option"]
        if len(name) < 5 or name[1] == name[2]:
            continue
        typo = name[0] + name[2] + name[1] + name[3:]
        for cmd in r["commands"]:
            if cmd == "memgaze-table" or any(o["option"] == typo for o in rows):
                continue
            head = ["locality", "--memgaze-table"] if cmd == "locality" and name in ("period",) else [cmd]
            p = edan(*head, "--" + typo, "x")
            tried += 1
            m = re.search(r"did you mean --([\w-]+)\?", p.stderr)
            check(p.returncode == 2 and m and m.group(1) == name, f"edan {cmd} --{typo}: {p.stderr.strip()!r}")
    check(tried > 100, f"{tried} misspellings tried")
    # no suggestion for something far from every option, nor for one letter
    for args in (["run", "--zzzzzz", spmv], ["run", "-x", spmv]):
        p = edan(*args)
        check(p.returncode == 2 and "did you mean" not in p.stderr, f"edan {args[:2]}: {p.stderr!r}")
    # commands
    for typed, want in (("rnu", "run"), ("anlyze", "analyze"), ("rnak", "rank"), ("locallity", "locality")):
        p = edan(typed)
        check(p.returncode == 2 and f"did you mean '{want}'?" in p.stderr, f"edan {typed}: {p.stderr!r}")
    p = edan("frobnicate")
    check(p.returncode == 2 and "did you mean" not in p.stderr, f"edan frobnicate: {p.stderr!r}")


run_category({"replaced": test_replaced, "suggest": test_suggest})
