#!/usr/bin/env python3
"""The timing model's schedule dump (--schedule-dump, docs/model.md) on real runs, and
validation/pipeview.py, which compares it with gem5's pipeline trace.

usage: schedule_dump_test.py BUILD_DIR CATEGORY   (categories: dump, window, pipeview)

dump: over a whole small region the last commit is the model's predicted cycles; every row keeps
fetch <= dispatch <= issue <= complete <= commit, commits in order; each rule a row names holds
against the rows themselves (a naive reference of the model's rules: a predecessor's completion, the
reorder buffer's and load queue's entries, the front end's depth, commit's order); the dump changes no
result, with one latency or several (the first one's lane is dumped).
window: a window's rows are the whole dump's rows at those places; a window past the region holds no
row; --schedule-dump implies --exact, and with the sampled schedule, without a machine or with a bad
window it is refused (exit 2).
pipeview: pipeview.py parses a real gem5 pipeline trace (O3PipeView with IEW's writeback lines, of
examples/trsv: tests/data/pipeview/README.md) against a naive re-reading of its lines: the retired
instructions by sequence number, squashed ones dropped, ticks to cycles, each with its writeback (a
load's data after its request); refuses a broken trace naming the line; and against a pipeline trace made
from a real dump (the same schedule: no difference; with every load from memory 6 cycles longer from some
point: the divergence found where it starts, the difference and the stage that accounts for it); the
misses edan exposes that gem5 hid, each classified (a younger load of the line first, a wrong-path
instance first, an older store, an older load, none before it) on a small made-up pair; and
pipeview.py growth on two dumps (edan alone).
"""
import atexit
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

from realrun_lib import EX, check, edan, run_category

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MACHINE = os.path.join(ROOT, "machines", "gem5-validation.ini")
PIPEVIEW = os.path.join(ROOT, "validation", "pipeview.py")
TRACE = os.path.join(ROOT, "tests", "data", "pipeview", "trsv_o3pipeview.txt")
TMP = tempfile.mkdtemp(prefix="edan-schedule-dump-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
# the machine's sizes the rules below check (machines/gem5-validation.ini)
ROB, LQ, FRONTEND, COMMIT_WIDTH = 192, 32, 5, 8


def dump_run(prog, n, *opts, window=None, name="dump.csv", exact=True):
    """edan run --exact with the dump: (the JSON report, the dump's rows)."""
    path = os.path.join(TMP, name)
    args = ["run", "--json", "--filter=kernel", "--machine=" + MACHINE] + (["--exact"] if exact else []) + \
        ["--schedule-dump=" + path]
    if window:
        args.append("--schedule-window=" + window)
    p = edan(*args, *opts, os.path.join(EX, prog), str(n))
    check(p.returncode == 0, f"{prog} {n} {opts}: exit {p.returncode}: {p.stderr}")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return json.loads(p.stdout.strip().splitlines()[-1]), rows


def plain_run(prog, n, *opts):
    p = edan("run", "--json", "--filter=kernel", "--machine=" + MACHINE, "--exact", *opts, os.path.join(EX, prog),
             str(n))
    check(p.returncode == 0, f"{prog} {n}: exit {p.returncode}: {p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


T = ("fetch", "dispatch", "issue", "complete", "commit")


def num(r, k):
    return float(r[k]) if r[k] != "" else None


def check_rules(prog, rows):
    """Every row's order of stages and the rule it names, against the rows themselves."""
    bad = []
    by_seq = {int(r["seq"]): r for r in rows}
    loads = [int(r["seq"]) for r in rows if r["class"] in ("load", "atomic")]
    load_index = {s: i for i, s in enumerate(loads)}
    prev = None
    for r in rows:
        s = int(r["seq"])
        t = [float(r[k]) for k in T]
        if not all(a <= b for a, b in zip(t, t[1:])):
            bad.append(f"{s}: stages out of order {t}")
        if prev is not None and float(r["commit"]) < float(prev["commit"]):
            bad.append(f"{s}: commits before the row before")
        fetch, disp, issue, comp, com = t
        dw, iw, cw = r["dispatch_why"], r["issue_why"], r["commit_why"]
        if iw == "dispatch" and issue != disp:
            bad.append(f"{s}: issue_why dispatch but issue {issue} != dispatch {disp}")
        if iw == "dep":
            dep = int(r["dep"])
            if not (dep < s and s - dep <= 256 and dep in by_seq and float(by_seq[dep]["complete"]) == issue):
                bad.append(f"{s}: issue_why dep {dep} but that row's completion is not {issue}")
        if dw == "frontend" and disp != fetch + FRONTEND:
            bad.append(f"{s}: dispatch_why frontend but {disp} != {fetch} + {FRONTEND}")
        if dw == "rob_full" and (s - ROB not in by_seq or float(by_seq[s - ROB]["commit"]) != disp):
            bad.append(f"{s}: dispatch_why rob_full but the entry {ROB} back did not commit at {disp}")
        if dw == "lq_full":
            i = load_index.get(s)
            if i is None or i < LQ or float(by_seq[loads[i - LQ]]["commit"]) != disp:
                bad.append(f"{s}: dispatch_why lq_full but the load {LQ} loads back did not commit at {disp}")
        if prev is not None:
            pc = float(prev["commit"])
            if cw == "complete" and com != comp:
                bad.append(f"{s}: commit_why complete but commit {com} != complete {comp}")
            if cw == "order" and com != pc:
                bad.append(f"{s}: commit_why order but commit {com} != the row before's {pc}")
            if cw == "width" and not (com > max(comp, pc) and com == int(pc) + 1):
                bad.append(f"{s}: commit_why width but commit {com} is not the cycle after {pc}")
        if r["class"] == "load" and r["mem_level"] and r["mem_level"] != "sq":
            if num(r, "mem_req") != issue or num(r, "mem_done") + 1 != comp:
                bad.append(f"{s}: a load's request {r['mem_req']} / data {r['mem_done']} against issue {issue}, "
                           f"complete {comp}")
        if r["class"] in ("load", "store") and not r["mem_level"]:
            bad.append(f"{s}: a memory access without its level")
        prev = r
    check(not bad, f"{prog}: every row keeps the rules it names ({len(bad)} do not: {bad[:5]})")
    # commit's width: no more than COMMIT_WIDTH rows in one cycle
    per = {}
    for r in rows:
        per[float(r["commit"])] = per.get(float(r["commit"]), 0) + 1
    check(max(per.values()) <= COMMIT_WIDTH, f"{prog}: at most {COMMIT_WIDTH} commits a cycle")


def test_dump():
    for prog, n in (("trsv", 60), ("pointer_chase", 300), ("spmv", 60)):
        rep, rows = dump_run(prog, n, window="0,1000000")
        pred = rep["prediction"]
        insts = pred["counts"]["instructions"]
        check(len(rows) == insts, f"{prog}: a row per instruction of the region ({len(rows)} of {insts})")
        check([int(r["seq"]) for r in rows] == list(range(len(rows))), f"{prog}: rows numbered in order from 0")
        check(float(rows[-1]["commit"]) == pred["cycles"][0],
              f"{prog}: the last commit {rows[-1]['commit']} is the predicted cycles {pred['cycles'][0]}")
        whys = {r[k] for r in rows for k in ("fetch_why", "dispatch_why", "issue_why", "commit_why")}
        check("" not in whys, f"{prog}: every time names its rule")
        check_rules(prog, rows)
        plain = plain_run(prog, n)
        check(plain["prediction"] == pred, f"{prog}: the dump changes no result")
    # several latencies: the first one's lane; every lane's result the same as without the dump
    rep, rows = dump_run("pointer_chase", 20000, "--mem-latency=200,50,100", window="0,1000000")
    plain = plain_run("pointer_chase", 20000, "--mem-latency=200,50,100")
    check(plain["prediction"] == rep["prediction"], "several latencies: the dump changes no lane's result")
    check(float(rows[-1]["commit"]) == rep["prediction"]["cycles"][0], "several latencies: the first one's lane")
    check_rules("pointer_chase at 200 ns", rows)
    mem = [r for r in rows if r["mem_level"] == "mem"]
    check(mem and all(float(r["mem_done"]) - float(r["mem_req"]) >= 200 for r in mem),
          "at 200 ns every load from memory takes at least 200 cycles from request to data")


def test_window():
    _, full = dump_run("trsv", 60, window="0,1000000", name="full.csv")
    _, part = dump_run("trsv", 60, window="1000,300", name="part.csv")
    check(part == full[1000:1300], "a window's rows are the whole dump's rows at those places")
    _, default = dump_run("trsv", 60, name="default.csv")
    check(default == full[:10000], "the default window: the region's first 10000 instructions")
    _, none = dump_run("trsv", 60, window=f"{len(full)},5", name="none.csv")
    check(none == [], "a window past the region holds no row")
    out = os.path.join(TMP, "refused.csv")
    prog = os.path.join(EX, "trsv")
    _, implied = dump_run("trsv", 60, window="0,1000000", name="implied.csv", exact=False)
    check(implied == full, "--schedule-dump implies --exact: the same rows without it")
    for args, what in (([f"--schedule-dump={out}", "--sampled"], "contradict"),
                       ([f"--schedule-dump={out}", "--sample-timing=1000,2000,64000"], "contradict"),
                       ([f"--schedule-dump={out}"], "needs --machine"),
                       ([f"--schedule-dump={out}", "--exact", "--schedule-window=0,0"], "is not [START,]N"),
                       ([f"--schedule-dump={out}", "--exact", "--schedule-window=a,5"], "is not [START,]N"),
                       ([f"--schedule-dump={out}", "--exact", "--schedule-window=5,"], "is not [START,]N"),
                       (["--exact", "--schedule-window=5"], "needs --schedule-dump")):
        machine = [] if what == "needs --machine" else ["--machine=" + MACHINE]
        p = edan("run", "--filter=kernel", *machine, *args, prog, "10", expect=2)
        check(p.returncode == 2 and what in p.stderr, f"{args}: exit 2 saying '{what}' ({p.returncode}: {p.stderr})")


def pipeview(*args, expect=0):
    p = subprocess.run([sys.executable, PIPEVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == expect, f"pipeview.py {args}: exit {p.returncode}, not {expect}: {p.stderr}")
    return p


def write_pipeview(path, rows, shift):
    """A pipeline trace in gem5's format made from dump rows: row i's events at (time + shift[i]) cycles
    of 1000 ticks, printed in pairs out of order, with a squashed instruction after each tenth; as gem5's,
    a load's complete is its request (the dump's mem_req) and IEW's writeback line its data (complete)."""
    lines, seq = [], 1
    for i, r in enumerate(rows):
        tk = {k: int(round((float(r[k]) + shift[i]) * 1000)) + 1000 for k in T}
        wb = tk["complete"]
        if r["class"] == "load" and r["mem_req"]:
            tk["complete"] = int(round((float(r["mem_req"]) + shift[i]) * 1000)) + 1000
        one = [f"{wb}: system.cpu.iew: Sending instructions to commit, [sn:{seq}] PC (0x{int(r['pc'], 16):x}).\n",
               f"O3PipeView:fetch:{tk['fetch']}:0x{int(r['pc'], 16):08x}:0:{seq}:{r['insn']}\n",
               f"O3PipeView:decode:{tk['fetch'] + 1000}\n", f"O3PipeView:rename:{tk['fetch'] + 2000}\n",
               f"O3PipeView:dispatch:{tk['dispatch']}\n", f"O3PipeView:issue:{tk['issue']}\n",
               f"O3PipeView:complete:{tk['complete']}\n", f"O3PipeView:retire:{tk['commit']}:store:0\n"]
        seq += 1
        if i % 10 == 9:  # a wrong-path instruction, squashed
            one += [f"O3PipeView:fetch:{tk['fetch']}:0x00000004:0:{seq}:addi a0, a0, 1\n",
                    "O3PipeView:decode:0\n", "O3PipeView:rename:0\n", "O3PipeView:dispatch:0\n",
                    "O3PipeView:issue:0\n", "O3PipeView:complete:0\n", "O3PipeView:retire:0:store:0\n"]
            seq += 1
        lines.append(one)
    for i in range(0, len(lines) - 1, 2):  # destruction order is not program order
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    with open(path, "w") as f:
        for one in lines:
            f.writelines(one)


def test_pipeview():
    # a real trace, against a naive re-reading of its lines (1 GHz: 1000 ticks a cycle)
    with open(TRACE) as f:
        text = f.read().splitlines(True)
    want, wb, cur = [], {}, None
    for ln in text:
        f = ln.rstrip("\n").split(":")
        if "Sending instructions to commit, [sn:" in ln:
            wb.setdefault(int(ln.split("[sn:")[1].split("]")[0]), int(f[0]) / 1000)
        elif f[1] == "fetch":
            cur = {"seq": int(f[5]), "pc": int(f[3], 16), "fetch": int(f[2]) / 1000}
        elif f[1] in ("complete", "retire"):
            cur[f[1]] = int(f[2]) / 1000
            if f[1] == "retire" and cur["retire"]:
                want.append(cur)
    want.sort(key=lambda r: r["seq"])
    p = pipeview("parse", TRACE, "--machine", MACHINE)
    got = list(csv.DictReader(p.stdout.splitlines()))
    check(len(want) > 100 and len(want) < sum(ln.startswith("O3PipeView:fetch") for ln in text),
          f"a trace with retired and squashed instructions ({len(want)})")
    check([(int(r["seq"]), int(r["pc"], 16), float(r["fetch"]), float(r["complete"]), float(r["commit"]))
           for r in got] == [(w["seq"], w["pc"], w["fetch"], w["complete"], w["retire"]) for w in want],
          "parse: the retired instructions by sequence number, ticks to cycles")
    check(all(r["writeback"] and float(r["writeback"]) == wb[int(r["seq"])] for r in got),
          "parse: every retired instruction with its writeback")
    loads = [r for r in got if "ld " in r["insn"]]
    check(loads and all(float(r["writeback"]) > float(r["complete"]) for r in loads) and
          all(float(r["writeback"]) >= float(r["complete"]) for r in got),
          "a load's data (writeback) comes after its request (complete)")
    broken = os.path.join(TMP, "broken.txt")
    k = next(i for i, ln in enumerate(text) if ln.startswith("O3PipeView:issue"))
    with open(broken, "w") as f:
        f.writelines(text[:k] + text[k + 1:])  # an issue line left out
    p = pipeview("parse", broken, "--machine", MACHINE, expect=2)
    check(f"broken.txt:{k + 1}" in p.stderr, f"a broken trace names its line: {p.stderr}")
    # against a real dump: the same schedule, then one with every load from memory 6 cycles longer from row 400 on
    _, rows = dump_run("trsv", 200, window="0,3000", name="pv.csv")
    dump = os.path.join(TMP, "pv.csv")
    same = os.path.join(TMP, "same.txt")
    write_pipeview(same, rows, [0.0] * len(rows))
    res = json.loads(pipeview("compare", same, dump, "--machine", MACHINE, "--json").stdout)
    check(res["instructions"] == len(rows) and res["diff_cycles"] == 0 and res["diverge_at"] is None,
          f"the same schedule: no difference ({res['instructions']}, {res['diff_cycles']}, {res['diverge_at']})")
    shift, extra = [], 0.0
    l2 = []
    for i, r in enumerate(rows):
        shift.append(extra)
        if i >= 400 and r["mem_level"] == "mem" and r["class"] == "load":
            l2.append(i)
            extra += 6.0  # from its completion on, everything is later in "gem5"
    slow = os.path.join(TMP, "slow.txt")
    shifted = []
    for i, r in enumerate(rows):  # the load's own issue is on time, its completion late
        s = dict(r)
        if i in l2:
            s["complete"] = str(float(r["complete"]) + 6.0)
            s["commit"] = str(float(r["commit"]) + 6.0)
        shifted.append(s)
    write_pipeview(slow, shifted, shift)
    res = json.loads(pipeview("compare", slow, dump, "--machine", MACHINE, "--json", "--tolerance", "20").stdout)
    want = -6.0 * len(l2)
    check(len(l2) > 10 and abs(res["diff_cycles"] - want) < 1e-6,
          f"edan is {want} cycles short of the slowed trace: {res['diff_cycles']}")
    check(res["diverge_at"] == l2[3], f"the divergence starts at the 4th slowed load ({l2[3]}): {res['diverge_at']}")
    check(res["culprit"] == "execute/memory", f"the stage that accounts for it: {res['culprit']}")
    check(abs(res["loads_by_level"]["mem"]["gem5_mean"] - res["loads_by_level"]["mem"]["edan_mean"]) > 1,
          "loads from memory take longer in the trace")
    check(res["static"][0]["step_diff"] < 0 and res["static"][0]["pc"] in {int(rows[i]["pc"], 16) for i in l2},
          "the static instruction whose commit steps differ most is a slowed load")
    # misses edan exposes and gem5 hid, each with its reason; gem5: request (complete) and data (writeback)
    hdr = "seq,pc,insn,class,fetch,dispatch,issue,complete,commit,fetch_why,dispatch_why,issue_why,dep," \
          "mem_level,mem_req,mem_done,commit_why,addr\n"
    # edan: pc, class, level, line address; every miss from 10 to 310
    small = [(0x100, "load", "mem", 0x1000), (0x104, "load", "l1d", 0x1008), (0x108, "load", "mem", 0x2000),
             (0x10c, "load", "mem", 0x3000), (0x110, "load", "mem", 0x4000), (0x114, "store", "l1d", 0x5000),
             (0x118, "load", "mem", 0x5008), (0x11c, "load", "l1d", 0x6000), (0x120, "load", "mem", 0x6008)]
    # gem5: request, writeback, store tick (cycles)
    # (the first load's line: a younger load's miss first; the ninth's: an older load's miss first)
    gem5 = [(200, 205, 0), (6, 190, 0), (21, 27, 0), (21, 330, 0), (21, 30, 0), (8, 8, 9), (21, 28, 0), (22, 200, 0),
            (210, 213, 0)]
    edump, etrace = os.path.join(TMP, "small.csv"), os.path.join(TMP, "small.txt")
    with open(edump, "w") as f:
        f.write(hdr)
        for i, (pc, cls, lvl, addr) in enumerate(small):
            f.write(f"{i},0x{pc:x},fld fa5 0(a5),{cls},1,6,10,311,400,order,frontend,dispatch,,{lvl},"
                    f"10,{310 if lvl == 'mem' else 12},complete,0x{addr:x}\n")
    with open(etrace, "w") as f:
        def one(seq, pc, req, wb, ret, st):
            f.write(f"{wb * 1000}: system.cpu.iew: Sending instructions to commit, [sn:{seq}] PC (0x{pc:x}).\n"
                    f"O3PipeView:fetch:1000:0x{pc:08x}:0:{seq}:fld fa5, 0(a5)\nO3PipeView:decode:2000\n"
                    f"O3PipeView:rename:3000\nO3PipeView:dispatch:4000\nO3PipeView:issue:{(req - 1) * 1000}\n"
                    f"O3PipeView:complete:{req * 1000}\nO3PipeView:retire:{ret * 1000}:store:{st * 1000}\n")
        one(1, 0x108, 9, 12, 0, 0)  # a wrong-path instance of the third load, its request at 9, squashed
        for i, ((pc, _, _, _), (req, wb, st)) in enumerate(zip(small, gem5)):
            one(i + 2, pc, req, wb, 400 + i, st)
    h = json.loads(pipeview("compare", etrace, edump, "--machine", MACHINE, "--json").stdout)["hidden_misses"]
    check((h["misses"], h["judged"], h["hidden"], h["younger_first"], h["wrong_path"], h["store_first"],
           h["older_first"], h["warm"]) == (6, 6, 5, 1, 1, 1, 1, 1), f"misses gem5 hid, by why: {h}")
    # growth: edan alone, two latencies; the per-instruction sums against a direct reckoning of the rows
    _, lo = dump_run("trsv", 300, "--mem-latency=50", window="0,20000", name="lo.csv")
    _, hi = dump_run("trsv", 300, "--mem-latency=300", window="0,20000", name="hi.csv")
    g = json.loads(pipeview("growth", os.path.join(TMP, "lo.csv"), os.path.join(TMP, "hi.csv"), "--json",
                            "--top", "100000").stdout)
    want, pa, pb = {}, 0.0, 0.0
    for a, b in zip(lo, hi):
        want[int(a["pc"], 16)] = want.get(int(a["pc"], 16), 0.0) + (float(b["commit"]) - pb) - (float(a["commit"]) - pa)
        pa, pb = float(a["commit"]), float(b["commit"])
    got = {p["pc"]: p["growth"] for p in g["static"]}
    check(got == want and abs(g["growth_cycles"] - (float(hi[-1]["commit"]) - float(lo[-1]["commit"]))) < 1e-9,
          "growth: each static instruction's commit-step growth, summing to the window's")
    line = {int(r["seq"]): int(r["addr"], 16) // 64 for r in hi if r["addr"]}
    check(g["younger_first"] and all(x["younger_seq"] > x["seq"] and line[x["younger_seq"]] == line[x["seq"]] and
                                     x["younger_issue"] < x["request"] for x in g["younger_first"]),
          f"growth: misses whose line a younger load issued first ({len(g['younger_first'])})")
    text = pipeview("compare", slow, dump, "--machine", MACHINE).stdout
    check("divergence             from instruction %d" % l2[3] in text and "execute/memory" in text,
          f"the text report says where and which stage: {text[:600]}")


run_category({"dump": test_dump, "window": test_window, "pipeview": test_pipeview})
