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

from realrun_lib import EDAN, EX, SANITIZED, check, run_category, share


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
    for r in share(rows, 3):  # a third of the options in the sanitizer build
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
    check(tried > (100 // 3 if SANITIZED else 100), f"{tried} misspellings tried")
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


HELP_OPTION = re.compile(r"(-{1,2}[A-Za-z0-9][A-Za-z0-9-]*)")


def help_options(text):
    """The options a --help lists: the names at the start of its option lines ('  --a=X, --b  text'), and
    those of its usage lines."""
    found = set()
    for line in text.splitlines():
        if line.startswith(("usage: ", "       edan ")):
            found |= {{"-o": "--trace"}.get(m.group(1), m.group(1))
                      for m in re.finditer(r"(?<![\w-])(-{1,2}[A-Za-z][\w-]*)", line)}
            continue
        if not line.startswith("  -"):
            continue
        rest = line.lstrip()
        names = []
        while True:
            m = HELP_OPTION.match(rest)
            if not m:
                break
            names.append(m.group(1))
            rest = re.sub(r"^[^ ,]*", "", rest[m.end():])
            if not rest.startswith(", -"):
                break
            rest = rest[2:]
        # a short option stands for the long one beside it ("-o, --output=FILE"), or alone for --trace
        longs = [n for n in names if n.startswith("--")]
        found |= set(longs) if longs else {{"-o": "--trace", "-h": "--help"}.get(n, n) for n in names}
    return found


def test_help():
    rows = table()
    # an option no command honours would be refused everywhere and listed nowhere (a new option of options.c
    # needs its row in option_table.c's session_sets)
    orphans = [r["option"] for r in rows if not r["commands"]]
    check(not orphans, f"options that no command honours: {orphans}")
    spmv = os.path.join(EX, "spmv")
    for cmd in ("run", "record", "analyze", "convert", "dot", "rank", "annotate", "locality"):
        p = edan(cmd, "--help")
        check(p.returncode == 0 and p.stdout.startswith(f"usage: edan {cmd}"), f"edan {cmd} --help: {p.stderr!r}")
        listed = help_options(p.stdout)
        also = ("memgaze-table",) if cmd == "locality" else ()
        honoured = {"--" + r["option"] for r in rows if cmd in r["commands"] or set(also) & set(r["commands"])}
        honoured.discard("--help")  # every command's, said by 'edan --help'
        listed.discard("--help")
        check(listed == honoured, f"edan {cmd} --help lists what the table says it honours: "
              f"listed only {sorted(listed - honoured)}, not listed {sorted(honoured - listed)}")
        # each option once
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("  --")]
        firsts = [ln.split()[0].split("=")[0].rstrip(",") for ln in lines]
        check(len(firsts) == len(set(firsts)), f"edan {cmd} --help: an option twice: "
              f"{sorted({f for f in firsts if firsts.count(f) > 1})}")
        # an option of another command is refused with the commands that take it, before anything runs
        other = sorted(r["option"] for r in rows if cmd not in r["commands"] and "memgaze-table" not in r["commands"]
                       and r["kind"] == "flag" and r["option"] != "help")
        for o in other[:6]:
            q = edan(cmd, "--" + o, spmv)
            check(q.returncode == 2 and f"--{o} is not an option of edan {cmd}" in q.stderr,
                  f"edan {cmd} --{o}: exit {q.returncode}, {q.stderr.strip()!r}")
    # edan help CMD is edan CMD --help
    check(edan("help", "rank").stdout == edan("rank", "--help").stdout, "edan help rank")


def progress_lines(stderr):
    return [ln.strip() for ln in stderr.replace("\r", "\n").splitlines() if ln.startswith("edan: ") and (
        " instructions" in ln)]


def test_progress():
    spmv = os.path.join(EX, "spmv")
    # --per-function: a counting phase, then the tracing phase knows its total: a percentage and the time left
    p = edan("run", "--progress", "--json", "--per-function", spmv, "200000")
    lines = progress_lines(p.stderr)
    counted = [ln for ln in lines if ln.startswith("edan: counting done: ")]
    eta = [ln for ln in lines if re.match(r"edan: tracing \d+% of [\d.]+[kMG]? instructions, [\d.]+[kMG]?/s, "
                                          r"(\d+:)?\d+:\d\d left(\s|$)", ln)]  # the program may write after it
    done = [ln for ln in lines if ln.startswith("edan: tracing done: ")]
    check(p.returncode == 0 and counted and eta and done, f"--per-function --progress: {lines}")
    check(counted and done and counted[0].split(": ")[2].split(" in ")[0] == done[0].split(": ")[2].split(" in ")[0],
          f"the counting pass counts what the tracing pass traces (not 0): {counted} {done}")
    try:
        json.loads(p.stdout)
        clean = True
    except ValueError:
        clean = False
    check(clean, "the progress never reaches the JSON on standard output")
    # a trace's header gives the analysis its total; without --progress and no terminal, no progress at all
    with tempfile.TemporaryDirectory() as d:
        trace = os.path.join(d, "k.edt")
        r = edan("record", "--progress", "--filter=kernel", "-o", trace, spmv, "20000")
        check(r.returncode == 0 and [ln for ln in progress_lines(r.stderr) if ln.startswith("edan: recording done:")],
              f"record --progress: {progress_lines(r.stderr)}")
        a = edan("analyze", "--progress", trace)
        check(a.returncode == 0 and [ln for ln in progress_lines(a.stderr) if ln.startswith("edan: analysing done:")],
              f"analyze --progress: {progress_lines(a.stderr)}")
        for cmd in (["analyze", trace], ["run", "--filter=kernel", spmv, "20000"]):
            q = edan(*cmd)
            check(q.returncode == 0 and not progress_lines(q.stderr), f"{cmd[0]} without --progress: {q.stderr!r}")


def temporaries(tmp):
    return sorted(n for n in os.listdir(tmp) if n.startswith("edan."))


def test_signals():
    """SIGINT or SIGTERM while edan annotate PROGRAM analyses the temporary trace (long after QEMU ended):
    edan's temporary directory is removed, and the signal still ends edan."""
    spmv = os.path.join(EX, "spmv")
    for sig in (signal.SIGINT, signal.SIGTERM):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, TMPDIR=tmp)
            # --progress says when the analysis has begun (its first line comes after a second of it); the timing
            # model at eight latencies makes a small trace's analysis last a few seconds
            p = subprocess.Popen([EDAN, "annotate", "--progress", "--machine=gem5-validation",
                                  "--mem-latency=50,100,200,300,400,500,600,700", "--filter=kernel", spmv, "200000"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
            seen = ""
            deadline = time.time() + 120
            while "analysing " not in seen and time.time() < deadline:
                ch = p.stderr.read(1)
                if not ch:
                    break
                seen += ch
            during = temporaries(tmp)
            p.send_signal(sig)
            p.stderr.read()
            rc = p.wait()
            check("analysing " in seen and during, f"{sig.name}: the analysis began with a temporary directory "
                  f"({during}): {seen[-200:]!r}")
            check(rc == -sig, f"{sig.name}: edan ends by the signal: {rc}")
            check(temporaries(tmp) == [], f"{sig.name}: edan's temporary directory removed: {temporaries(tmp)}")


run_category({"replaced": test_replaced, "suggest": test_suggest, "help": test_help, "progress": test_progress,
              "signals": test_signals})
