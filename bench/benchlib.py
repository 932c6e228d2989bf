"""What edan's benchmark scripts share: the eight-configuration sweep, and
running commands interleaved round by round with their wall time, peak RSS
and CPU time (bench.py, ab_cpu.py, sweep_ratio.py)."""
import os
import statistics
import subprocess
import sys
import time


def option(name, default=None):
    """The value after name on the command line, else default."""
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def build_dir(doc):
    """The build directory, the first argument (absolute), or exit printing the script's doc."""
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        return os.path.abspath(sys.argv[1])
    sys.exit(doc)


SWEEP = "32K;64K;128K;256K;32K,ways=8;64K,ways=8;32K,write=back,alloc=yes;1M,ways=16,write=back,alloc=yes"


def run_rss(cmd, stdout=subprocess.DEVNULL):
    """Runs cmd; returns its wall time, peak RSS in MiB, output (with stdout=PIPE) and user + system time.
    Exits with the command's error output if it fails."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    out = p.stdout.read().decode() if stdout == subprocess.PIPE else None
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {' '.join(cmd)} failed ({code}): {err}")
    return wall, ru.ru_maxrss / 1024, out, ru.ru_utime + ru.ru_stime


def interleaved(cmds, runs):
    """Runs every command of cmds (name: (argv, stdout)) once per round, for runs rounds, and returns each
    one's median wall time, peak RSS, last output, median CPU time, least CPU time, the wall time of
    every round and the CPU time of every round. On a shared machine the load drifts over minutes: interleaving exposes every command of
    a ratio to the same drift, and the least time is the one a neighbour's load disturbed least."""
    res = {name: [] for name in cmds}
    for _ in range(runs):
        for name, (cmd, stdout) in cmds.items():
            res[name].append(run_rss(cmd, stdout))
    return {name: (statistics.median(r[0] for r in rs), max(r[1] for r in rs), rs[-1][2],
                   statistics.median(r[3] for r in rs), min(r[3] for r in rs), [r[0] for r in rs],
                   [r[3] for r in rs])
            for name, rs in res.items()}


def commit():
    """The short hash of the repository's HEAD, with -dirty when tracked files changed (but for
    docs/benchmarks.md, which the benchmark scripts of one make bench rewrite one after another)."""
    here = os.path.dirname(os.path.abspath(__file__))

    def git(*args):
        return subprocess.run(["git", "-C", here, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/benchmarks.md")
    return head + ("-dirty" if changed else "")


def update_docs(lines, marker):
    """Puts lines in docs/benchmarks.md between its <!-- MARKER:begin --> and <!-- MARKER:end --> lines."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "benchmarks.md")
    text = open(path).read()
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    a, b = text.index(begin) + len(begin), text.index(end)
    with open(path, "w") as f:
        f.write(text[:a] + "\n" + "\n".join(lines) + "\n" + text[b:])


def publish(lines, build, name, marker):
    """Prints a table's lines, writes them to BUILD/NAME.md and, with --update-docs, between MARKER's lines."""
    print("\n".join(lines))
    with open(os.path.join(build, name + ".md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if "--update-docs" in sys.argv:
        update_docs(lines, marker)
