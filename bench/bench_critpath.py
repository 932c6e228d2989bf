#!/usr/bin/env python3
"""The cost of --critical-path (issue 25): edan run on the HPCG-shaped CG
workload with and without --critical-path, same program, same options, the
two commands interleaved round by round (medians of the rounds' wall times),
their peak RSS, and the disk the critical path's spill file takes, at about
1e8 and 1e9 traced instructions. Prints a Markdown table with the machine,
the commit and the command.

The spill file is a deleted temporary file of the QEMU process that runs
the plugin; its size is read through /proc/PID/fd every 20 ms during one
more, untimed, run (the walk at the end reads the file back for a while
after its last write, so the last size seen is the final one).

usage: bench_critpath.py BUILD_DIR [--quick] [--runs N]
"""
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time

from benchlib import interleaved

BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else sys.exit(__doc__)
QUICK = "--quick" in sys.argv
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
EDAN = os.path.join(BUILD, "edan")
HERE = os.path.dirname(os.path.abspath(__file__))
PROG = os.path.join(BUILD, "bench", "cg")
KERNEL = "cg_solve"
# arguments of about 1e8 and 1e9 traced instructions of cg_solve (bench.py's sizes); --quick: tiny ones
SIZES = [["8", "5"], ["12", "5"]] if QUICK else [["16", "29"], ["16", "300"]]


def machine():
    model, mem = "unknown CPU", 0
    try:
        model = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
        mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} cores, {mem / 2**20:.0f} GiB, {platform.system()} {platform.release()}"


def commit():
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def descendants(root):
    """root and every process below it."""
    parent = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    out, pending = {root}, [root]
    while pending:
        p = pending.pop()
        for c, pp in parent.items():
            if pp == p and c not in out:
                out.add(c)
                pending.append(c)
    return out


def spill_bytes(cmd):
    """Runs cmd once, untimed; the largest size any deleted temporary file it holds open reached."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    most = {}
    while p.poll() is None:
        for pid in descendants(p.pid):
            try:
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    path = f"/proc/{pid}/fd/{fd}"
                    target = os.readlink(path)
                    if target.endswith("(deleted)") and target.startswith("/tmp/"):
                        most[(pid, target)] = max(most.get((pid, target), 0), os.stat(path).st_size)
            except OSError:
                pass  # the process or the file went away meanwhile
        time.sleep(0.02)
    if p.returncode != 0:
        sys.exit(f"bench_critpath: {' '.join(cmd)} failed ({p.returncode})")
    return sum(most.values())


def instructions(out):
    for line in out.splitlines():
        if line.strip().startswith("vertices (instructions)"):
            return int(line.split()[-1])
    sys.exit("bench_critpath: no vertex count in edan's report")


def main():
    if not os.path.exists(PROG):
        subprocess.run(["make", "-s", "-C", os.path.join(HERE, "workloads"), "OUT=" + os.path.join(BUILD, "bench")],
                       check=True)
    rows = []
    for args in SIZES:
        plain = [EDAN, "run", "--filter=" + KERNEL, PROG, *args]
        cp = [EDAN, "run", "--filter=" + KERNEL, "--critical-path", PROG, *args]
        print(f"bench_critpath: cg {' '.join(args)}", file=sys.stderr)
        r = interleaved({"plain": (plain, subprocess.PIPE), "cp": (cp, subprocess.DEVNULL)}, RUNS)
        n = instructions(r["plain"][2])
        spill = spill_bytes(cp)
        ratios = [c / p for p, c in zip(r["plain"][5], r["cp"][5])]
        rows.append([f"cg {' '.join(args)}", f"{n:,}", f"{r['plain'][0]:.2f}", f"{r['cp'][0]:.2f}",
                     f"{r['cp'][0] / r['plain'][0]:.2f}", " ".join(f"{x:.2f}" for x in ratios),
                     f"{r['plain'][1]:.0f}", f"{r['cp'][1]:.0f}", f"{r['cp'][1] / r['plain'][1]:.2f}",
                     f"{spill / 1e6:,.1f}", f"{spill / n:.3f}"])
    date = datetime.date.today().isoformat()
    print(f"Machine: {machine()}. Commit `{commit()}`, {date}, "
          f"`python3 bench/bench_critpath.py {os.path.relpath(BUILD)}{' --quick' if QUICK else ''}` "
          f"({RUNS} interleaved rounds, medians; `edan run --filter={KERNEL} [--critical-path] cg ARGS`).\n")
    head = ["workload", "traced insns", "plain s", "--critical-path s", "time ratio", "each round's ratio",
            "peak RSS MiB plain", "peak RSS MiB --critical-path", "RSS ratio", "spill MB", "spill B/insn"]
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
