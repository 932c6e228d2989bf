#!/usr/bin/env python3
"""Outputs never destroy inputs, inputs never hang, and no partial file is left (issue 35), through the edan
command on real programs and traces.

  cross     every output option against every input, generated from 'edan help --option-table' (options are
            not listed here): each output set to the path of each input of a command must exit 2 with one line
            naming the file, and every input must be byte-identical afterwards, with no temporary left. Every
            option whose help names a FILE, DIR or PATH must be marked in the table.
  findings  the campaign's reproducers: outputs over the trace, the program, the machine and cost files; FIFOs
            as inputs; a failed record over a good trace; planted symbolic links; unwritable --plot-dir and
            --csv-dir refused before the run; QEMU killed during a record.
  signals   SIGINT, SIGTERM and SIGHUP while a large output is written (convert, record --text, run): no
            temporary remains and the old output is untouched.

usage: hostile_files_test.py BUILD_DIR CATEGORY. Prints 'N passed, N failed'.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from realrun_lib import BUILD, EDAN, EX, SANITIZED, check, edan, run_category

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def run(args, timeout=60, **kw):
    """edan with a deadline: a hang is a failure, not a stuck test."""
    try:
        return subprocess.run([EDAN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess([EDAN, *args], -999, "", f"timed out after {timeout} s")


def fixtures(d):
    """A file for every kind of input the option table can name, in d: {kind: path}."""
    f = {}
    f["program"] = os.path.join(d, "prog")
    shutil.copy(os.path.join(EX, "sum"), f["program"])
    f["trace"] = os.path.join(d, "t.edt")
    p = edan("record", "--filter=kernel", "-o", f["trace"], f["program"], "4")
    check(p.returncode == 0, f"record the fixture trace: {p.stderr}")
    texts = {
        "cost-file": "int 2\n",
        "list": f["trace"] + "\n",
        "load-classes": "0x1 1 0x0 0x1 0x0\n",
        "memgaze-trace": "0x1 0x1000 0 1.5 1\n0x1 0x1040 0 1.6 1\n0x1 0x1080 0 1.7 2\n",
        "hpcstruct": '<HPCToolkitStructure i="0" version="4.7" n="">\n<LM i="2" n="/app" v="{}">\n'
                     '<P i="3" n="f" ln="f" v="{[0x0-0x10)}">\n</P>\n</LM>\n</HPCToolkitStructure>\n',
        "qemu": '#!/bin/sh\nexec qemu-riscv64 "$@"\n',
    }
    for kind, text in texts.items():
        f[kind] = os.path.join(d, kind + ".in")
        with open(f[kind], "w") as g:
            g.write(text)
    os.chmod(f["qemu"], 0o755)
    f["machine"] = os.path.join(d, "machine.ini")
    shutil.copy(os.path.join(SRC, "machines", "gem5-validation.ini"), f["machine"])
    f["sysroot"] = os.path.join(d, "sysroot")  # --sysroot: a directory of libraries
    os.mkdir(f["sysroot"])
    f["plugin"] = os.path.join(d, "plugin.so")
    shutil.copy(os.path.join(BUILD, "libedan_plugin.so"), f["plugin"])
    return f


def snapshot(paths):
    out = {}
    for p in paths:
        if os.path.isdir(p):  # --sysroot's directory: what it holds
            out[p] = sorted(os.listdir(p))
            continue
        with open(p, "rb") as g:
            out[p] = g.read()
    return out


def table():
    p = run(["help", "--option-table"])
    check(p.returncode == 0, f"edan help --option-table: {p.returncode} {p.stderr}")
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    return [r for r in rows if "option" in r], {r["command"]: r for r in rows if "command" in r}


# How each command is invoked: its name(s) on the command line, and what a positional input needs after it.
INVOKE = {"memgaze-table": ["locality", "--memgaze-table", "--period=2"]}
PROGRAM_ARGS = {"program": ["4"]}
# An option that needs a companion (edan refuses one without the other).
COMPANION = {"hpcstruct": ("functions-output", "fo.txt")}
# Commands that need an output to run at all.
REQUIRED = {"record": ("trace", "new.edt")}


def test_cross():
    options, commands = table()
    kinds = {o["option"]: o["kind"] for o in options}
    # every option whose help names a file is marked: a new one cannot slip past this test
    for cmd in ("run", "record", "analyze", "dot", "rank", "annotate", "locality"):
        helptext = run([cmd, "--help"]).stdout
        for name in re.findall(r"--([a-z][a-z0-9-]*)=(?:FILE|DIR|PATH)", helptext):
            check(kinds.get(name) in ("input", "output", "output-dir"),
                  f"{cmd} --help: --{name} names a file but the option table marks it '{kinds.get(name)}'")
    tried = pairs = 0  # runs made, runs of the whole cross product
    with tempfile.TemporaryDirectory() as d:
        fx = fixtures(d)
        for command, spec in commands.items():
            input_opts = [o["option"] for o in options if o["kind"] == "input" and command in o["commands"]]
            output_opts = [o for o in options if o["kind"] in ("output", "output-dir") and command in o["commands"]]
            for positional in spec["positional"]:
                for o in input_opts + [positional]:
                    check(o in fx, f"{command}: no fixture for the input '{o}': add one to fixtures()")
                inputs = {o: fx[o] for o in input_opts if o in fx}
                head = INVOKE.get(command, [command])
                base = {f"--{o}": p for o, p in inputs.items()}
                for o, (companion, name) in COMPANION.items():
                    if o in inputs:
                        base[f"--{companion}"] = os.path.join(d, name)
                if command in REQUIRED:
                    base[f"--{REQUIRED[command][0]}"] = os.path.join(d, REQUIRED[command][1])
                tail = [fx[positional], *PROGRAM_ARGS.get(positional, [])]
                every_input = {**inputs, positional: fx[positional]}
                targets = [(f"--{o['option']}", o["kind"]) for o in output_opts]
                targets += [("positional:" + out, "output") for out in spec["positional_outputs"]]
                for turn, (target, kind) in enumerate(targets):
                    # in the sanitizer build each output over one of the inputs, in turn
                    inputs_here = list(every_input.items())
                    if SANITIZED:
                        inputs_here = [inputs_here[turn % len(inputs_here)]]
                    pairs += len(every_input)
                    for what, path in inputs_here:
                        before = snapshot(fx.values())
                        opts = dict(base)
                        extra = []
                        if target.startswith("positional:"):
                            extra = [path]
                        else:
                            opts[target] = path
                        args = head + [f"{k}={v}" for k, v in opts.items()] + tail + extra
                        p = run(args)
                        tried += 1
                        label = f"edan {' '.join(head)} {target}=<{what}>"
                        lines = p.stderr.strip().splitlines()
                        check(p.returncode == 2 and len(lines) == 1 and os.path.basename(path) in lines[0] and
                              ("would be destroyed" in lines[0] or kind == "output-dir"),
                              f"{label}: exit {p.returncode}, {p.stderr.strip()!r}")
                        after = snapshot(fx.values())
                        changed = [os.path.basename(k) for k in before if before[k] != after[k]]
                        check(not changed, f"{label}: inputs changed: {changed}")
                        for k in before:  # one failure must not spoil the runs after it
                            if before[k] != after[k]:
                                with open(k, "wb") as g:
                                    g.write(before[k])
                        left = [n for n in os.listdir(d) if re.search(r"\.[A-Za-z0-9]{12}$", n)]
                        check(not left, f"{label}: temporaries left: {left}")
    # each command tries the outputs it honours (the table's command sets; an option of another command is
    # refused as such before anything is opened): 214 runs when the sets were made exact
    check(pairs > 200, f"the cross product is {pairs} runs: the option table lost its outputs or inputs")
    check(tried == pairs or SANITIZED, f"{tried} of the cross product's {pairs} runs")
    print(f"{tried} of {pairs} output-over-input runs")


def expect_refused(args, words, label, timeout=30):
    p = run(args, timeout=timeout)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and all(w in lines[0] for w in words),
          f"{label}: exit {p.returncode}, {p.stderr.strip()!r}")
    return p


def test_findings():
    with tempfile.TemporaryDirectory() as d:
        fx = fixtures(d)
        t, prog, m, cost = fx["trace"], fx["program"], fx["machine"], fx["cost-file"]
        keep = snapshot(fx.values())

        def unchanged(label):
            now = snapshot(fx.values())
            check(all(now[k] == keep[k] for k in keep),
                  f"{label}: an input changed: {[k for k in keep if now[k] != keep[k]]}")

        # outputs over inputs, as the campaign found them
        for opt in ("--projection-csv", "--projection-regions-csv"):
            expect_refused(["analyze", "--projection", f"--machine={m}", f"{opt}={t}", t], [t, "would be destroyed"],
                           f"{opt} over the trace")
        expect_refused(["dot", f"--image={t}", t], [t, "would be destroyed"], "dot --image over the trace")
        expect_refused(["run", f"--program-output={prog}", prog, "4"], [prog, "would be destroyed"],
                       "--program-output over the program")
        for opt in ("--output", "--series-csv", "--projection-csv"):
            expect_refused(["run", "--projection", f"--machine={m}", f"{opt}={m}", prog, "4"], [m, "would be destroyed"],
                           f"{opt} over the machine file")
        expect_refused(["analyze", f"--cost-file={cost}", f"--output={cost}", t], [cost, "would be destroyed"],
                       "--output over the cost file")
        expect_refused(["analyze", f"--output={cost}", f"--cost-file={cost}", t], [cost, "would be destroyed"],
                       "--output over the cost file, given first")
        expect_refused(["analyze", f"--output={t}", f"--series-csv={t}.csv", f"--dot={t}.csv", t], ["same file"],
                       "two outputs to one file")
        link = os.path.join(d, "link-to-trace")
        os.symlink(t, link)
        expect_refused(["analyze", f"--output={link}", t], [link, "would be destroyed"], "--output a link to the trace")
        unchanged("outputs over inputs")

        # FIFOs as inputs: refused at once, never waited on
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        for args, label in ((["analyze", f"--machine={fifo}", t], "--machine"),
                            (["analyze", f"--cost-file={fifo}", t], "--cost-file"),
                            (["rank", f"--list={fifo}", t], "rank --list"),
                            (["locality", "--memgaze-table", f"--load-classes={fifo}", "--period=2", fx["memgaze-trace"]],
                             "--load-classes"),
                            (["locality", "--memgaze-table", f"--load-classes={fx['load-classes']}", "--period=2",
                              f"--hpcstruct={fifo}", f"--functions-output={d}/fo", fx["memgaze-trace"]], "--hpcstruct"),
                            (["locality", "--memgaze-table", f"--load-classes={fx['load-classes']}", "--period=2", fifo],
                             "a MemGaze trace")):
            expect_refused(args, [fifo, "not a regular file"], f"a FIFO as {label}", timeout=10)
        # a trace is a stream: a FIFO with a writer is read once, from its start
        # (edan opens it before the writer does: it must wait for the writer, not read an empty FIFO's end)
        writer = subprocess.Popen(["sh", "-c", f"sleep 0.5; cat {t} > {fifo}"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        p = run(["analyze", "--json", fifo], timeout=30)
        try:
            writer.wait(timeout=10)
        except subprocess.TimeoutExpired:  # edan never opened it: the writer would hold the test's output open
            writer.kill()
            writer.wait()
        ref = run(["analyze", "--json", t])
        check(p.returncode == 0 and json.loads(p.stdout)["configurations"] == json.loads(ref.stdout)["configurations"],
              f"a trace through a FIFO: exit {p.returncode} {p.stderr.strip()}")

        # an annotate source that became a FIFO: not read, no hang
        src = os.path.join(d, "fsrc.c")
        with open(src, "w") as g:
            g.write("__attribute__((noinline)) long kernel(long n) { long s = 0;\n"
                    "  for (long i = 0; i < n; i++) s += i; return s; }\n"
                    "int main(void) { return kernel(10) != 45; }\n")
        fprog = os.path.join(d, "fprog")
        c = subprocess.run(["riscv64-linux-gnu-gcc", "-O1", "-g", "-static", "-o", fprog, src])
        check(c.returncode == 0, "compile the annotate program")
        ftrace = os.path.join(d, "f.edt")
        check(edan("record", "--filter=kernel", "-o", ftrace, fprog).returncode == 0, "record the annotate program")
        os.unlink(src)
        os.mkfifo(src)
        p = run(["annotate", ftrace], timeout=20)
        check(p.returncode in (0, 2) and "timed out" not in p.stderr, f"annotate with a FIFO as its source: "
              f"exit {p.returncode} {p.stderr.strip()!r}")
        os.unlink(src)
        with open(src, "w") as g:
            g.write("the source\n")
        expect_refused(["annotate", f"--output={src}", ftrace], [src, "would be destroyed"], "annotate over its source")
        with open(src) as g:
            check(g.read() == "the source\n", "annotate left its source as it was")

        # a failed binary record leaves the good trace of that name as it was, and exits non-zero
        good = os.path.join(d, "good.edt")
        shutil.copy(t, good)
        before = snapshot([good])

        def small_files():
            import resource
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        cg = os.path.join(BUILD, "bench", "cg")
        for fmt in ([], ["--text"]):
            p = subprocess.run([EDAN, "record", *fmt, "-o", good, cg, "8", "5"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, preexec_fn=small_files)
            check(p.returncode != 0 and good in p.stderr, f"a failed record {fmt}: exit {p.returncode} {p.stderr!r}")
            check(snapshot([good]) == before, f"a failed record {fmt} kept the good trace")
            left = [n for n in os.listdir(d) if n.startswith("good.edt.")]
            check(not left, f"a failed record {fmt}: temporaries left: {left}")

        # QEMU (and the plugin in it) killed during a record: its temporary goes, the old trace stays.
        # The record is long on purpose; on any failure path its whole process group is killed, and
        # its files are capped, so a test that goes wrong never leaves a runaway writing a text trace.
        def capped():
            import resource
            os.setsid()
            resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 30, 1 << 30))

        p = subprocess.Popen([EDAN, "record", "--text", "-o", good, cg, "24", "100000"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, preexec_fn=capped)
        try:
            deadline = time.time() + 120
            kids = []
            while time.time() < deadline and not kids:
                if [n for n in os.listdir(d) if n.startswith("good.edt.")]:
                    kids = subprocess.run(["pgrep", "-P", str(p.pid)], stdout=subprocess.PIPE,
                                          text=True).stdout.split()
                time.sleep(0.01)
            for k in kids:
                os.kill(int(k), signal.SIGKILL)
            _, err = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        check(kids and p.returncode == 1 and "killed by signal 9" in err, f"QEMU killed: {p.returncode} {err!r}")
        check(snapshot([good]) == before, "QEMU killed: the good trace is as it was")
        left = [n for n in os.listdir(d) if n.startswith("good.edt.")]
        check(not left, f"QEMU killed: the plugin's temporaries are left: {left}")

        # planted symbolic links are replaced, never followed; nothing partial is left
        victim = os.path.join(d, "victim")
        with open(victim, "w") as g:
            g.write("precious\n")
        plots = os.path.join(d, "plots")
        os.mkdir(plots)
        os.symlink(victim, os.path.join(plots, "prog-kernel-movement.png"))
        links = {o: os.path.join(d, o.strip("-") + ".link") for o in
                 ("--series-csv", "--dot", "--projection-csv", "--program-output")}
        for path in links.values():
            os.symlink(victim, path)
        p = run(["run", "--filter=kernel", "--projection", f"--machine={m}", f"--plot-dir={plots}",
                 *[f"{o}={path}" for o, path in links.items()], prog, "4"], timeout=120)
        check(p.returncode == 0, f"run with planted links: {p.returncode} {p.stderr.strip()}")
        with open(victim) as g:
            check(g.read() == "precious\n", "a planted link's target is untouched")
        for o, path in links.items():
            check(not os.path.islink(path) and os.path.getsize(path) > 0, f"{o}: the link replaced by the output")
        check(not os.path.islink(os.path.join(plots, "prog-kernel-movement.png")), "a plot file's link replaced")
        left = [n for n in os.listdir(d) + os.listdir(plots) if re.search(r"\.[A-Za-z0-9]{12}$", n)]
        check(not left, f"temporaries left after a run: {left}")

        # an unwritable plot or CSV directory fails before the program runs
        for opt in ("--plot-dir", "--csv-dir"):
            for bad in (os.path.join(victim, "sub"), "/proc/edan-not-here"):
                q = expect_refused(["run", f"{opt}={bad}", "--reuse", prog, "4"], [bad, opt], f"{opt}={bad}")
                check("checksum" not in q.stdout, f"{opt}={bad}: the program ran first")
        unchanged("findings")


def test_signals():
    cg = os.path.join(BUILD, "bench", "cg")
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "big.edt")
        check(edan("record", "-o", big, cg, "16", "20").returncode == 0, "record the large trace")
        out = os.path.join(d, "out.txt")
        prog_out = os.path.join(d, "prog-out.txt")
        commands = (["convert", big, out],
                    ["record", "--text", "-o", out, cg, "24", "100000"],
                    ["run", f"--output={out}", f"--program-output={prog_out}", f"--series-csv={d}/s.csv", cg, "24",
                     "100000"])
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            for cmd in commands:
                for path in (out, prog_out):
                    with open(path, "w") as g:
                        g.write("old\n")
                p = subprocess.Popen([EDAN, *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "TMPDIR": d})
                deadline = time.time() + 30
                # a temporary of the output (or, for run, QEMU at work) before the signal
                while time.time() < deadline:
                    names = [n for n in os.listdir(d) if n.startswith("out.txt.")]
                    if cmd[0] == "run" and subprocess.run(["pgrep", "-P", str(p.pid)],
                                                          stdout=subprocess.DEVNULL).returncode == 0:
                        time.sleep(0.5)
                        break
                    try:  # the temporary may be renamed into place between the listing and this
                        if names and os.path.getsize(os.path.join(d, names[0])) > 1 << 20:
                            break
                    except FileNotFoundError:
                        pass
                    time.sleep(0.005)
                p.send_signal(sig)
                _, err = p.communicate(timeout=30)
                label = f"{cmd[0]} stopped by signal {sig}"
                check(p.returncode in (-sig, 128 + sig), f"{label}: exit {p.returncode} {err.strip()!r}")
                left = sorted(set(os.listdir(d)) - {"big.edt", "out.txt", "prog-out.txt"})
                check(not left, f"{label}: left behind: {left}")
                for path in (out, prog_out):
                    with open(path) as g:
                        check(g.read() == "old\n", f"{label}: {os.path.basename(path)} is not as it was")


run_category({"cross": test_cross, "findings": test_findings, "signals": test_signals})
