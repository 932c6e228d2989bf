#!/usr/bin/env python3
"""validation/pftrace.py (gem5's prefetcher trace against edan's, per level and pc) and edan's
EDAN_PREFETCH_TRACE.

usage: pftrace_test.py BUILD_DIR CATEGORY   (categories: gem5, edan)

gem5: a made-up trace in gem5 v22.1's line format (the messages of stride.cc, queued.cc and the cache's
base.cc, as `pftrace.py run` keeps them) through `pftrace.py gem5`: each figure against a count made by
hand of the lines (trainings and new entries, candidates and page crossings, a candidate already queued,
a queued prefetch squashed by an access and one dropped for a full queue, prefetches popped and sent or
found in the cache or an MSHR, a sent line used on time after its fill and one used late, before it),
per level and pc, the kernel's range leaving out the pcs outside it; a line of another object is ignored.
`window` and `run` through a stand-in gem5 (it writes debug lines into --debug-file, a FIFO): the clock's
ticks, the flags and window passed on, the lines kept; gem5 failing is reported, exit status 2.
edan: a real run of examples/stream on the stride machine with EDAN_PREFETCH_TRACE: the trace changes no
result; its lines are each of the forms prefetch.c documents; per level the prefetches sent (I lines)
and first uses (U lines) are the report's issued and useful, and pftrace.py's per-pc rows add up to
them (sent + squashed + full = issued); an unwritable path is named and the run goes on; a line that is
not the trace's is refused naming the file and line, exit status 2.
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

from realrun_lib import EX, check, run_category

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MACHINE = os.path.join(ROOT, "machines", "gem5-validation-stride.ini")
TOOL = os.path.join(ROOT, "validation", "pftrace.py")
TMP = tempfile.mkdtemp(prefix="edan-pftrace-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)

L1 = "system.cpu.dcache"
L2 = "system.l2cache"
# (tick, object, message): pc 0x100 trains the L1d three times (a new entry, a stride, a confident one
# that names 4 lines: one in another page, one already queued); pc 0x200 is outside the kernel's range
GEM5 = [
    (1000, L1 + ".prefetcher", "Miss: PC 100 pkt_addr 1008 (ns)"),
    (1000, L1 + ".prefetcher", "Requesting a prefetch to issue."),
    (1000, L1 + ".prefetcher", "No hardware prefetches available."),
    (2000, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1048 (ns) stride 64 (change), conf 3"),
    (3000, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1f88 (ns) stride 64 (match), conf 4"),
    (3000, L1 + ".prefetcher", "Found a pf candidate addr: 0x1fc0, inserting into prefetch queue."),
    (3000, L1 + ".prefetcher", "Prefetch queued. addr:0x1fc0 priority:   0 tick:4000."),
    (3000, L1 + ".prefetcher", "Ignoring page crossing prefetch."),
    (3000, L1 + ".prefetcher", "Ignoring page crossing prefetch."),
    (3000, L1 + ".prefetcher", "Ignoring page crossing prefetch."),
    (3100, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1f00 (ns) stride -136 (change), conf 3"),
    (3100, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1e00 (ns) stride -256 (change), conf 4"),
    (3100, L1 + ".prefetcher", "Found a pf candidate addr: 0x1d00, inserting into prefetch queue."),
    (3100, L1 + ".prefetcher", "Prefetch queued. addr:0x1d00 priority:   0 tick:4100."),
    (3100, L1 + ".prefetcher", "Found a pf candidate addr: 0x1c00, inserting into prefetch queue."),
    (3100, L1 + ".prefetcher", "Prefetch queued. addr:0x1c00 priority:   0 tick:4100."),
    (3100, L1 + ".prefetcher", "Found a pf candidate addr: 0x1b00, inserting into prefetch queue."),
    (3100, L1 + ".prefetcher", "Prefetch queued. addr:0x1b00 priority:   0 tick:4100."),
    (3100, L1 + ".prefetcher", "Found a pf candidate addr: 0x1fc0, inserting into prefetch queue."),
    (3100, L1 + ".prefetcher", "Prefetch addr already in prefetch queue"),
    # an access to 0x1b00 squashes its queued prefetch (it trains pc 0x200, outside the range)
    (3200, L1 + ".prefetcher", "Removing pf candidate addr: 0x1b00 (cl: 0x1b00), demand request going to the "
                               "same addr"),
    (3200, L1 + ".prefetcher", "Miss: PC 200 pkt_addr 1b10 (ns)"),
    # three popped: 0x1fc0 sent, 0x1d00 in the cache, 0x1c00 sent
    (4000, L1 + ".prefetcher", "Generating prefetch for 0x1fc0."),
    (4100, L1 + ".prefetcher", "Generating prefetch for 0x1d00."),
    (4100, L1, "Prefetch 0x1d00 has hit in cache, dropped."),
    (4200, L1 + ".prefetcher", "Generating prefetch for 0x1c00."),
    # the queue was full: 0x1a00 (queued by pc 0x100 later) dropped
    (4300, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1b00 (ns) stride -3840 (change), conf 3"),
    (4300, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1b40 (ns) stride 64 (change), conf 4"),
    (4300, L1 + ".prefetcher", "Found a pf candidate addr: 0x1a00, inserting into prefetch queue."),
    (4300, L1 + ".prefetcher", "Prefetch queued. addr:0x1a00 priority:   0 tick:4400."),
    (4400, L1 + ".prefetcher", "Prefetch queue full, removing lowest priority oldest packet, addr: 0x1a00"),
    # 0x1c00 is used before its fill (a late use: the access trains the L1d on the MSHR hit)
    (5000, L1 + ".prefetcher", "Hit: PC 100 pkt_addr 1c08 (ns) stride 200 (change), conf 3"),
    (5100, L1, "Block for addr 0x1c00 being updated in Cache"),
    # 0x1fc0 is filled, then hit: on time
    (5200, L1, "Block for addr 0x1fc0 being updated in Cache"),
    (5300, L1, "Hit on prefetch for addr 0x1fc0 (ns)"),
    # the L2: pc 0x100's entry trains on the L1d's prefetch, names one line, popped and found in an MSHR
    (4010, L2 + ".prefetcher", "Miss: PC 100 pkt_addr 1fc0 (ns)"),
    (4210, L2 + ".prefetcher", "Hit: PC 100 pkt_addr 1c00 (ns) stride -960 (change), conf 3"),
    (4220, L2 + ".prefetcher", "Hit: PC 100 pkt_addr 1c40 (ns) stride 64 (change), conf 4"),
    (4220, L2 + ".prefetcher", "Found a pf candidate addr: 0x1c80, inserting into prefetch queue."),
    (4220, L2 + ".prefetcher", "Prefetch queued. addr:0x1c80 priority:   0 tick:4230."),
    (4230, L2 + ".prefetcher", "Generating prefetch for 0x1c80."),
    (4230, L2, "Prefetch 0x1c80 has hit in a MSHR, dropped."),
    (4300, "system.cpu", "Hit: PC 100 pkt_addr 0 (ns) stride 1 (match), conf 7"),  # not a cache: ignored
]
# by hand, per level and pc (the keys pftrace.py reports)
WANT = {
    "0": {"0x100": {"train": 8, "new": 1, "named": 9, "page": 3, "held": 2, "squashed": 1, "full": 1, "sent": 2,
                    "ontime": 1, "late": 1}},
    "1": {"0x100": {"train": 3, "new": 1, "named": 1, "page": 0, "held": 1, "squashed": 0, "full": 0, "sent": 0,
                    "ontime": 0, "late": 0}},
}


def tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def gem5():
    path = os.path.join(TMP, "gem5.txt")
    with open(path, "w") as f:
        for t, obj, msg in GEM5:
            f.write("%7d: %s: %s\n" % (t, obj, msg))
    p = tool("gem5", path, "--kernel-range", "0x100,0x200", "--json")
    check(p.returncode == 0, "pftrace.py gem5: exit %d: %s" % (p.returncode, p.stderr))
    got = json.loads(p.stdout)["levels"] if p.returncode == 0 else {}
    for lv, pcs in WANT.items():
        for pc, want in pcs.items():
            have = got.get(lv, {}).get(pc)
            check(have == want, "gem5 level %s pc %s: %s, want %s" % (lv, pc, have, want))
    check(set(got.get("0", {})) == {"0x100"}, "gem5: pcs outside the range reported: %s" % sorted(got.get("0", {})))
    p = tool("gem5", path, "--json")
    whole = json.loads(p.stdout)["levels"] if p.returncode == 0 else {}
    check(whole.get("0", {}).get("0x200", {}).get("new") == 1, "gem5 without a range: pc 0x200's entry missing")
    # the text report names every pc and the totals
    p = tool("gem5", path)
    check(p.returncode == 0 and "0x100" in p.stdout and "all" in p.stdout, "gem5's text report: %s" % p.stdout[:200])
    runs()


# a stand-in gem5.opt: writes the debug lines of its flags into --debug-file and exits with $FAKE_STATUS
FAKE = r'''#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
out = [a.split("=", 1)[1] for a in args if a.startswith("--debug-file=")][0]
flags = [a.split("=", 1)[1] for a in args if a.startswith("--debug-flags=")][0]
with open(os.path.join(os.path.dirname(sys.argv[0]), "argv.txt"), "w") as f:
    f.write(" ".join(args))
with open(out, "w") as f:
    if flags == "SyscallBase":
        for t in (500, 7000, 9000):
            f.write("%7d: system.cpu: T0 : syscall Calling clock_gettime(1, 140)...\n" % t)
        f.write("   7001: system.cpu: T0 : syscall Calling write(1, 0x1000, 12)...\n")
    else:
        f.write("   7100: system.cpu.dcache.prefetcher: Requesting a prefetch to issue.\n")
        f.write("   7100: system.cpu.dcache.prefetcher: Miss: PC 100 pkt_addr 1008 (ns)\n")
        f.write("   7101: system.cpu.dcache: access for ReadReq [1008:100f] miss\n")
        f.write("   7200: system.cpu.dcache: Block for addr 0x1000 being updated in Cache\n")
sys.exit(int(os.environ.get("FAKE_STATUS", "0")))
'''


def runs():
    fake = os.path.join(TMP, "gem5.opt")
    with open(fake, "w") as f:
        f.write(FAKE)
    os.chmod(fake, 0o755)
    prog = ["--", "/bin/true", "x"]
    p = tool("window", "--machine", MACHINE, "--gem5", fake, "--latency", "300", *prog)
    check(p.returncode == 0 and p.stdout.strip().splitlines()[-1] == "window 500,9000",
          "window: exit %d: %s %s" % (p.returncode, p.stdout, p.stderr))
    out = os.path.join(TMP, "run.txt")
    p = tool("run", "--machine", MACHINE, "--gem5", fake, "--latency", "300", "--debug-start", "500",
             "--debug-end", "9000", "--out", out, *prog)
    check(p.returncode == 0, "run: exit %d: %s" % (p.returncode, p.stderr))
    kept = open(out).read().splitlines() if os.path.exists(out) else []
    check(len(kept) == 2 and "Miss: PC 100" in kept[0] and "Block for addr 0x1000" in kept[1], "run kept %s" % kept)
    # the flags and the window reach gem5, the machine, the latency and the program the script
    argv = open(os.path.join(TMP, "argv.txt")).read().split()
    check(argv[:3] == ["--debug-flags=HWPrefetch,Cache", "--debug-start=500", "--debug-end=9000"] and
          argv[-5:] == ["--latency", "300.0", "--", "/bin/true", "x"] and "--machine" in argv and
          any(a.endswith("gem5_machine.py") for a in argv), "gem5's arguments: %s" % argv)
    p = tool("window", "--machine", MACHINE, "--gem5", fake, *prog)  # no latency: the file's
    check(p.returncode == 0, "window without --latency: %s" % p.stderr)
    e = dict(os.environ, FAKE_STATUS="3")
    q = subprocess.run([sys.executable, TOOL, "run", "--machine", MACHINE, "--gem5", fake, "--out", out, *prog],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
    check(q.returncode == 2 and "status 3" in q.stderr, "gem5 failing: exit %d: %s" % (q.returncode, q.stderr))
    q = tool("run", "--machine", MACHINE, "--gem5", os.path.join(TMP, "none"), "--out", out, *prog)
    check(q.returncode == 2 and "gem5.opt" in q.stderr, "no gem5: exit %d: %s" % (q.returncode, q.stderr))


def edan_run(*env):
    e = dict(os.environ)
    e.update(dict(env))
    # the whole program is the region (the trace has the warm records' trainings too, the report does not)
    p = subprocess.run([os.path.join(os.path.dirname(EX), "edan"), "run", "--json", "--exact", "--no-progress",
                        "--machine=" + MACHINE, "--mem-latency=300", os.path.join(EX, "stream"),
                        "4000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
    check(p.returncode == 0, "edan run: exit %d: %s" % (p.returncode, p.stderr))
    return p, (json.loads(p.stdout.strip().splitlines()[-1]) if p.returncode == 0 else None)


FORMS = {"A": 5, "T": (5, 6), "X": 4, "H": 4, "I": 6, "U": 4, "S": 6, "D": 4, "F": 6, "Q": 4}


def edan_side():
    path = os.path.join(TMP, "edan.txt")
    _, plain = edan_run()
    _, traced = edan_run(("EDAN_PREFETCH_TRACE", path))
    if plain is None or traced is None:
        return
    check(plain["prediction"] == traced["prediction"], "the trace changed the prediction")
    with open(path) as f:
        lines = f.read().splitlines()
    bad = [x for x in lines if not x.split() or x.split()[0] not in FORMS or
           len(x.split()) not in (FORMS[x.split()[0]] if isinstance(FORMS[x.split()[0]], tuple)
                                  else (FORMS[x.split()[0]],))]
    check(not bad, "lines of no documented form: %s" % bad[:3])
    pf = traced["prediction"]["prefetch"]["levels"]
    p = tool("edan", path, "--json")
    check(p.returncode == 0, "pftrace.py edan: exit %d: %s" % (p.returncode, p.stderr))
    got = json.loads(p.stdout)["levels"] if p.returncode == 0 else {}
    for lv, rep in enumerate(pf):
        i = sum(1 for x in lines if x.startswith("I %d " % lv))
        u = sum(1 for x in lines if x.startswith("U %d " % lv))
        check(i == rep["issued"] and i > 0, "level %d: %d I lines, the report's issued %d" % (lv, i, rep["issued"]))
        check(u == rep["useful"], "level %d: %d U lines, the report's useful %d" % (lv, u, rep["useful"]))
        rows = got.get(str(lv), {}).values()
        s = sum(r["sent"] + r["squashed"] + r["full"] for r in rows)
        check(s == rep["issued"], "level %d: sent + squashed + full over the pcs %d, issued %d"
              % (lv, s, rep["issued"]))
    # the two side by side, and one pc's trainings (the made-up gem5 trace's pc 0x100 at the L1d: 8 of them)
    g = os.path.join(TMP, "gem5.txt")
    with open(g, "w") as f:
        for t, obj, msg in GEM5:
            f.write("%7d: %s: %s\n" % (t, obj, msg))
    p = tool("compare", g, path, "--pc", "0x100", "--level", "0")
    check(p.returncode == 0 and "pc 0x100 at level 0: 8 trainings in gem5" in p.stdout and "gem5 / edan" in p.stdout,
          "compare: exit %d: %s %s" % (p.returncode, p.stdout[-300:], p.stderr))
    # a squash after its access's first use: the cache model writes the access's U line, the timing model then
    # its Q line (the prefetch was not sent yet): one squash, no use, nothing sent
    sq = os.path.join(TMP, "squash.txt")
    with open(sq, "w") as f:
        f.write("A 100 2000 1 0\nT 0 100 2000 64 7\nI 0 100 2040 1 0\nS 0 81 10.00 30.00 50.00\n"
                "A 100 2040 0 1\nU 0 100 2040\nT 0 100 2040 64 7\nQ 0 81 20.00\nA 100 2080 1 0\n")
    p = tool("edan", sq, "--json")
    r = json.loads(p.stdout)["levels"]["0"]["0x100"] if p.returncode == 0 else {}
    check(r.get("squashed") == 1 and r.get("sent") == 0 and r.get("late") == 0 and r.get("ontime") == 0,
          "a squash after its access's U line: %s (%s)" % (r, p.stderr.strip()))
    qs = sum(1 for x in lines if x.startswith("Q 0 "))
    sq0 = sum(r["squashed"] for r in got.get("0", {}).values())
    check(sq0 == qs, "level 0: %d squashed over the pcs, %d Q lines" % (sq0, qs))
    # an unwritable path: named, the run goes on
    p, rep = edan_run(("EDAN_PREFETCH_TRACE", os.path.join(TMP, "no", "such", "dir", "t.txt")))
    check(rep is not None and "EDAN_PREFETCH_TRACE" in p.stderr, "an unwritable trace path: %s" % p.stderr[-200:])
    # a line that is not the trace's
    broken = os.path.join(TMP, "broken.txt")
    with open(broken, "w") as f:
        f.write("\n".join(lines[:5] + ["I 0 zz 1000 2 0"]) + "\n")
    p = tool("edan", broken)
    check(p.returncode == 2 and "broken.txt:6" in p.stderr, "a broken line: exit %d: %s" % (p.returncode, p.stderr))


run_category({"gem5": gem5, "edan": edan_side})
