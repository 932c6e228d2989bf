#!/usr/bin/env python3
# gem5's pipeline trace (--debug-flags=O3PipeView) against edan's schedule dump (--schedule-dump), instruction
# by instruction: where the two schedules of a region part and which stage accounts for it.
#
#   python3 validation/pipeview.py run --machine FILE [--gem5 PATH] [--latency NS] --kernel NAME
#           [--count N] [--debug-start TICK] --out FILE -- BINARY [ARGS...]
#       gem5 (gem5_machine.py) with the pipeline trace through a FIFO; keeps the retired instructions from
#       KERNEL's first one on, N of them [10000] (with the squashed ones fetched among them), as O3PipeView
#       lines in FILE, and stops gem5 once it has them. --debug-start skips the trace before TICK (the
#       set-up of a long program; take a tick before the kernel from a run with --debug-flags=ExecEnable).
#   python3 validation/pipeview.py compare PIPEVIEW EDAN_CSV --machine FILE [--kernel-range LO,HI |
#           --binary BINARY --kernel NAME] [--tolerance CYCLES] [--top N] [--json]
#       aligns the two by dynamic instruction order from the region's first instruction (the first retired
#       one in [LO, HI); without a range, the first retired one) and reports, per instruction and
#       aggregated, the difference in commit cycle growth, where it passes the tolerance, and which stage
#       accounts for it. Cycles: ticks / (1000 / clock_ghz of the machine file), each schedule from its
#       region's first commit.
#   python3 validation/pipeview.py growth EDAN_CSV_LO EDAN_CSV_HI [--top N] [--json]
#       edan alone, two dumps of one window at a low and a high latency: the static instructions whose commit
#       steps grow most with the latency and the reasons the dump gives, and the loads from memory whose line
#       a younger load issued first (a known source of the model's overestimates, docs/accuracy.md).
#   python3 validation/pipeview.py parse PIPEVIEW --machine FILE
#       the retired instructions as CSV (seq,pc,insn,fetch,decode,rename,dispatch,issue,complete,writeback,
#       commit,store).
#
# O3PipeView (gem5 v22.1, src/cpu/o3/dyn_inst.cc, printed when an instruction is destroyed, so not in
# program order): per instruction the lines
#   O3PipeView:fetch:TICK:0xPC:UPC:SEQ:DISASM
#   O3PipeView:decode:TICK   (rename, dispatch, issue, complete the same; 0: never reached)
#   O3PipeView:retire:TICK:store:TICK   (retire 0: squashed; store 0: no store, or not written yet)
# For a load, "complete" is not its data: gem5 stamps it when IEW executes the instruction
# (IEW::updateExeInstStats), which for a load is when its request goes to the L1d; the data comes back
# later, to IEW::writebackInsts. `run` therefore adds gem5's IEW flag and keeps, of its lines, the one
# writebackInsts prints per instruction when it passes it to commit (the data back and written):
#   TICK: system.cpu.iew: Sending instructions to commit, [sn:SEQ] PC (...)
# so a load's request time is complete and its data time writeback (None without the line).
# Sequence numbers count fetched instructions, squashed ones included: the retired ones, by sequence
# number, are the program order. A macro-op's micro-ops (UPC > 0, x86) are merged into one instruction.
# Errors: a message naming the file and line, exit status 2.
import argparse
import configparser
import csv
import json
import os
import sys

import gem5_fifo

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
STAGES = ("fetch", "decode", "rename", "dispatch", "issue", "complete")
# the stages of the comparison, each the time from one event to the next; "done" is an instruction's result
# ready: edan's complete, gem5's writeback (its complete where the trace has no writeback line)
SPANS = (("front end", "fetch", "dispatch"), ("issue wait", "dispatch", "issue"),
         ("execute/memory", "issue", "done"), ("commit wait", "done", "commit"))
WB_MARK = ": system.cpu.iew: Sending instructions to commit, [sn:"


class Bad(Exception):
    pass


def die(msg):
    sys.stderr.write("pipeview.py: %s\n" % msg)
    sys.exit(2)


def clock_ghz(machine):
    cp = configparser.ConfigParser(inline_comment_prefixes=("#", ";"))
    try:
        with open(machine, encoding="utf-8") as f:
            cp.read_file(f)
        ghz = float(cp["machine"]["clock_ghz"])
    except (OSError, KeyError, ValueError, configparser.Error) as e:
        raise Bad("%s: no [machine] clock_ghz (%s)" % (machine, e))
    if not ghz > 0:
        raise Bad("%s: clock_ghz must be > 0" % machine)
    return ghz


# ---------------------------------------------------------------------------------------------------------
# O3PipeView
# ---------------------------------------------------------------------------------------------------------

def parse_pipeview(lines, name="<pipeview>"):
    """Every instruction of an O3PipeView trace: dicts seq, pc, upc, insn, the STAGES' ticks, commit and
    store ticks (0: none), in the order they were printed. Bad lines raise Bad naming the line."""
    out, cur, want, wb = [], None, 0, {}
    order = STAGES[1:]
    for no, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.startswith("O3PipeView:"):
            k = line.find(WB_MARK)
            if k > 0:  # IEW's writeback of an instruction: the first one counts
                try:
                    seq = int(line[k + len(WB_MARK):].split("]", 1)[0])
                    wb.setdefault(seq, int(line[:k].strip()))
                except ValueError:
                    raise Bad("%s:%d: not a number in '%s'" % (name, no, line[:80]))
            continue  # other debug flags' lines share the file
        f = line.split(":")
        try:
            if f[1] == "fetch":
                if cur is not None:
                    raise Bad("%s:%d: a fetch line before the last instruction's retire line" % (name, no))
                if len(f) < 7:
                    raise Bad("%s:%d: a fetch line is O3PipeView:fetch:TICK:0xPC:UPC:SEQ:DISASM" % (name, no))
                cur = {"fetch": int(f[2]), "pc": int(f[3], 16), "upc": int(f[4]), "seq": int(f[5]),
                       "insn": ":".join(f[6:]).strip(), "line": no}
                want = 0
            elif f[1] == "retire":
                if cur is None or want != len(order):
                    raise Bad("%s:%d: a retire line out of its place" % (name, no))
                if len(f) != 5 or f[3] != "store":
                    raise Bad("%s:%d: a retire line is O3PipeView:retire:TICK:store:TICK" % (name, no))
                cur["commit"], cur["store"] = int(f[2]), int(f[4])
                out.append(cur)
                cur = None
            else:
                if cur is None or want >= len(order) or f[1] != order[want] or len(f) != 3:
                    raise Bad("%s:%d: '%s' out of its place (after fetch: %s, then retire)"
                              % (name, no, line[:60], ", ".join(order)))
                cur[f[1]] = int(f[2])
                want += 1
        except ValueError:
            raise Bad("%s:%d: not a number in '%s'" % (name, no, line[:80]))
    if cur is not None:
        raise Bad("%s: the last instruction (line %d) has no retire line" % (name, cur["line"]))
    for i in out:
        i["writeback"] = wb.get(i["seq"], 0)
    return out


def retired(insts):
    """The retired instructions in program order (by sequence number), micro-ops merged into their
    macro-op: its first micro-op's fetch, the last one's commit."""
    done = sorted((i for i in insts if i["commit"]), key=lambda i: i["seq"])
    merged = []
    for i in done:
        if i["upc"] and merged and merged[-1]["pc"] == i["pc"]:
            m = merged[-1]
            for k in ("issue", "complete", "writeback", "commit", "store"):
                m[k] = max(m[k], i[k])
            continue
        merged.append(dict(i))
    return merged


def to_cycles(insts, ghz):
    """Ticks (ps) to cycles of the machine's clock; a stage never reached (0) stays None. done: the
    writeback where the trace has it, else complete."""
    period = 1000.0 / ghz
    for i in insts:
        for k in STAGES + ("writeback", "commit", "store"):
            i[k] = i[k] / period if i.get(k) else None
        i["done"] = i["writeback"] if i["writeback"] is not None else i["complete"]
    return insts


# ---------------------------------------------------------------------------------------------------------
# edan's dump
# ---------------------------------------------------------------------------------------------------------

def read_dump(path):
    rows = []
    try:
        with open(path, newline="", encoding="utf-8") as f:
            for no, r in enumerate(csv.DictReader(f), 2):
                try:
                    for k in ("fetch", "dispatch", "issue", "complete", "commit"):
                        r[k] = float(r[k])
                    for k in ("mem_req", "mem_done"):
                        r[k] = float(r[k]) if r.get(k) else None
                    r["pc"] = int(r["pc"], 16)
                    r["seq"] = int(r["seq"])
                    r["done"] = r["complete"]
                except (KeyError, ValueError, TypeError):
                    raise Bad("%s:%d: not a row of edan's --schedule-dump" % (path, no))
                rows.append(r)
    except OSError as e:
        raise Bad("%s: %s" % (path, e.strerror))
    if not rows:
        raise Bad("%s: no rows" % path)
    return rows


# ---------------------------------------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------------------------------------

def align(gem5, edan, lo=None, hi=None):
    """gem5's retired instructions from the region's first on, paired with edan's rows in order; the index
    of the first pair whose pcs differ ends the pairing (the schedules ran different paths from there)."""
    start = 0
    if lo is not None:
        start = next((k for k, i in enumerate(gem5) if lo <= i["pc"] < hi), None)
        if start is None:
            raise Bad("no retired instruction in [0x%x, 0x%x) in the pipeline trace" % (lo, hi))
    g = gem5[start:]
    n = min(len(g), len(edan))
    pairs = []
    for k in range(n):
        if g[k]["pc"] != edan[k]["pc"]:
            break
        pairs.append((g[k], edan[k]))
    return pairs, (len(pairs) if len(pairs) < n else None)


def span(x, a, b):
    return None if x.get(a) is None or x.get(b) is None else x[b] - x[a]


def hidden_misses(pairs, squashed=(), line_bytes=64, window=192):
    """The loads edan served from memory that gem5 did in less than half edan's request-to-data time (gem5:
    the L1d request, its complete tick, to the writeback; loads without a writeback line are not judged), and
    why gem5 could, from the window's loads of the same line (edan's addresses) within `window` instructions
    either side, the first that holds of:
      younger_first  the line's first request in gem5 was a younger load's and took the miss (at least half
                     edan's time): gem5 gives a line's miss to whichever access reaches the L1d first
      older_first    the same, an older load's (edan gave the miss to a later one: an older load hit in edan)
      store_first    an older store of the line wrote it (its store tick) before the load's request
      wrong_path     the line's first request in gem5 was short too (the line was there) and a squashed
                     (wrong-path) load of one of these loads' pcs sent its request before it
      warm           the line's first request in gem5 was short, no wrong-path instance before it: gem5's
                     cache held the line from before (its state differs from the model's here)"""
    by_pc = {}
    for q in squashed:
        if q.get("complete") is not None:
            by_pc.setdefault(q["pc"], []).append(q["complete"])
    kinds = ("younger_first", "older_first", "store_first", "wrong_path", "warm")
    out = {"misses": 0, "judged": 0, "hidden": 0, "examples": []}
    out.update({k: 0 for k in kinds})

    def line_of(e):
        return int(e["addr"], 16) // line_bytes if e.get("addr") else None

    for k, (g, e) in enumerate(pairs):
        if e.get("mem_level") != "mem" or e.get("class") not in ("load", "atomic") or not e.get("addr"):
            continue
        out["misses"] += 1
        if g.get("writeback") is None or g.get("complete") is None:
            continue
        out["judged"] += 1
        eg, ee = g["writeback"] - g["complete"], e["mem_done"] - e["mem_req"]
        if eg >= 0.5 * ee:
            continue
        out["hidden"] += 1
        line, req = line_of(e), g["complete"]
        near = [(j, g2, e2) for j, (g2, e2) in enumerate(pairs[max(0, k - window):k + 1 + window], max(0, k - window))
                if line_of(e2) == line]
        loads = [(j, g2) for j, g2, e2 in near if e2.get("class") in ("load", "atomic") and
                 g2.get("complete") is not None and g2.get("writeback") is not None]
        j0, first = min(loads, key=lambda x: x[1]["complete"])
        why = None
        if first["writeback"] - first["complete"] >= 0.5 * ee:
            why = "younger_first" if j0 > k else "older_first"
        elif any(e2.get("class") == "store" and j < k and g2.get("store") is not None and g2["store"] < req
                 for j, g2, e2 in near):
            why = "store_first"
        elif any(t < req and req - t < 4 * ee for j, g2 in loads for t in by_pc.get(g2["pc"], ())):
            why = "wrong_path"
        else:
            why = "warm"
        out[why] += 1
        if len(out["examples"]) < 8:
            out["examples"].append({"i": k, "pc": e["pc"], "insn": e.get("insn", ""), "edan_latency": ee,
                                    "gem5_latency": eg, "why": why})
    return out


def compare(pairs, tolerance=20.0, top=10, squashed=()):
    """The comparison of aligned pairs: per instruction, aggregated, per static instruction."""
    if not pairs:
        raise Bad("no instruction in common: the traces start at different places")
    g0, e0 = pairs[0][0]["commit"], pairs[0][1]["commit"]
    # each schedule from its region's first commit: the growth of commit time
    rows, diverge = [], None
    prev_g, prev_e = g0, e0
    per_pc = {}
    sums = {name: [0.0, 0.0, 0] for name, _, _ in SPANS}
    for k, (g, e) in enumerate(pairs):
        gc, ec = g["commit"] - g0, e["commit"] - e0
        d = ec - gc
        if diverge is None and abs(d) > tolerance:
            diverge = k
        step_g, step_e = g["commit"] - prev_g, e["commit"] - prev_e
        prev_g, prev_e = g["commit"], e["commit"]
        row = {"i": k, "pc": e["pc"], "insn": e.get("insn", ""), "gem5_commit": gc, "edan_commit": ec,
               "diff": d, "step_diff": step_e - step_g, "mem_level": e.get("mem_level", ""),
               "why": "/".join(e.get(w, "") for w in ("fetch_why", "dispatch_why", "issue_why", "commit_why"))}
        for name, a, b in SPANS:
            sg, se = span(g, a, b), span(e, a, b)
            row[name] = (se - sg) if sg is not None and se is not None else None
            if row[name] is not None:
                sums[name][0] += sg
                sums[name][1] += se
                sums[name][2] += 1
        rows.append(row)
        p = per_pc.setdefault(e["pc"], {"pc": e["pc"], "insn": e.get("insn", ""), "count": 0, "step_diff": 0.0,
                                        "spans": {name: [0.0, 0] for name, _, _ in SPANS},
                                        "levels": {}})
        p["count"] += 1
        p["step_diff"] += row["step_diff"]
        for name, _, _ in SPANS:
            if row[name] is not None:
                p["spans"][name][0] += row[name]
                p["spans"][name][1] += 1
        if e.get("mem_level"):
            p["levels"][e["mem_level"]] = p["levels"].get(e["mem_level"], 0) + 1
    last = rows[-1]
    stage_means = {name: {"gem5": s[0] / s[2] if s[2] else None, "edan": s[1] / s[2] if s[2] else None,
                          "diff": (s[1] - s[0]) / s[2] if s[2] else None} for name, s in sums.items()}
    # loads by the level edan served them from: their request-to-data time in each (gem5: the L1d request,
    # its complete tick, to the writeback; edan: mem_req to mem_done)
    levels = {}
    for g, e in pairs:
        if e.get("mem_level") and e.get("class") in ("load", "atomic"):
            lv = levels.setdefault(e["mem_level"], [0, 0.0, 0.0])
            sg, se = span(g, "complete", "writeback"), span(e, "mem_req", "mem_done")
            if sg is not None and se is not None:
                lv[0] += 1
                lv[1] += sg
                lv[2] += se
    by_level = {k: {"loads": v[0], "gem5_mean": v[1] / v[0], "edan_mean": v[2] / v[0]}
                for k, v in levels.items() if v[0]}
    # where the difference grew: from the divergence on, which span's difference is largest on average
    tail = rows[diverge:] if diverge is not None else rows
    culprit = None
    tail_means = {}
    for name, _, _ in SPANS:
        vals = [r[name] for r in tail if r[name] is not None]
        tail_means[name] = sum(vals) / len(vals) if vals else 0.0
    if tail_means:
        culprit = max(tail_means, key=lambda n: abs(tail_means[n]))
    static = sorted(per_pc.values(), key=lambda p: -abs(p["step_diff"]))[:top]
    for p in static:
        p["spans"] = {n: (s / c if c else None) for n, (s, c) in p["spans"].items()}
    return {"instructions": len(rows), "gem5_cycles": last["gem5_commit"], "edan_cycles": last["edan_commit"],
            "diff_cycles": last["diff"],
            "diff_percent": 100.0 * last["diff"] / last["gem5_commit"] if last["gem5_commit"] else None,
            "diverge_at": diverge, "tolerance": tolerance, "stage_means": stage_means,
            "after_divergence": tail_means, "culprit": culprit, "loads_by_level": by_level,
            "static": static, "hidden_misses": hidden_misses(pairs, squashed), "rows": rows}


def fmt(x, w=9):
    return ("%*.1f" % (w, x)) if isinstance(x, (int, float)) else "%*s" % (w, "-")


def report(res, out=sys.stdout, context=8):
    w = out.write
    w("instructions compared  %d\n" % res["instructions"])
    w("commit growth          gem5 %.1f cycles, edan %.1f: %+.1f (%s)\n"
      % (res["gem5_cycles"], res["edan_cycles"], res["diff_cycles"],
         "%+.1f %%" % res["diff_percent"] if res["diff_percent"] is not None else "-"))
    if res["diverge_at"] is None:
        w("divergence             none beyond %g cycles\n" % res["tolerance"])
    else:
        w("divergence             from instruction %d (|difference| > %g cycles)\n"
          % (res["diverge_at"], res["tolerance"]))
    w("\nmean cycles per instruction, by stage        gem5      edan      diff  (after divergence)\n")
    for name, m in res["stage_means"].items():
        w("  %-36s %s %s %s %s\n" % (name, fmt(m["gem5"]), fmt(m["edan"]), fmt(m["diff"]),
                                     fmt(res["after_divergence"][name])))
    w("  the stage that accounts for it: %s\n" % res["culprit"])
    if res["loads_by_level"]:
        w("\nloads by the level edan served them from: request to data, mean cycles\n")
        w("  level     loads      gem5      edan\n")
        for lvl, v in sorted(res["loads_by_level"].items()):
            w("  %-6s %8d %s %s\n" % (lvl, v["loads"], fmt(v["gem5_mean"]), fmt(v["edan_mean"])))
    h = res["hidden_misses"]
    w("\nloads edan served from memory: %d (%d with gem5's writeback); gem5 did %d of them in less than half "
      "edan's request-to-data time: %d the line's miss taken by a younger load first, %d by an older load, %d "
      "after an older store of the line wrote it, %d the line there already after a wrong-path load, %d the line "
      "there already otherwise (warm in gem5)\n"
      % (h["misses"], h["judged"], h["hidden"], h["younger_first"], h["older_first"], h["store_first"],
         h["wrong_path"], h["warm"]))
    for x in h["examples"]:
        w("  %6d 0x%-8x edan %7.1f gem5 %7.1f  %-13s %s\n" % (x["i"], x["pc"], x["edan_latency"], x["gem5_latency"],
                                                          x["why"], x["insn"]))
    w("\nstatic instructions whose commit steps differ most (sum of edan's step - gem5's)\n")
    w("  pc          count   step diff  %s  insn\n" % "  ".join("%9s" % n[:9] for n, _, _ in SPANS))
    for p in res["static"]:
        w("  0x%-8x %6d %11.1f  %s  %s\n" % (p["pc"], p["count"], p["step_diff"],
                                            "  ".join(fmt(p["spans"][n]) for n, _, _ in SPANS), p["insn"]))
    if res["diverge_at"] is not None:
        k = res["diverge_at"]
        w("\naround the divergence (commit from the region's first; diffs are edan - gem5)\n")
        w("  %6s %-10s %9s %9s %9s %s  %-5s %s\n" % ("i", "pc", "gem5", "edan", "diff",
                                                 "  ".join("%9s" % n[:9] for n, _, _ in SPANS), "mem", "edan why"))
        for r in res["rows"][max(0, k - context):k + context]:
            w("  %6d 0x%-8x %s %s %s %s  %-5s %s\n" % (r["i"], r["pc"], fmt(r["gem5_commit"]), fmt(r["edan_commit"]),
                                                   fmt(r["diff"]), "  ".join(fmt(r[n]) for n, _, _ in SPANS),
                                                   r["mem_level"] or "", r["why"]))


# ---------------------------------------------------------------------------------------------------------
# edan alone: where its time grows with the memory latency
# ---------------------------------------------------------------------------------------------------------

def growth(lo, hi, top=10, line_bytes=64, window=192):
    """Two dumps of one window at two latencies (lo, hi): per static instruction the growth of its commit
    steps (the model's attribution, from the lower latency to the higher) and the reasons the higher one
    gives for those rows; and the misses from memory whose line a younger load in the next `window`
    instructions issued earlier (the model gives the miss to the older access in program order: gem5 to
    whichever reaches the cache first)."""
    if len(lo) != len(hi) or any(a["pc"] != b["pc"] for a, b in zip(lo, hi)):
        raise Bad("the two dumps are not of the same instructions")
    per, pa, pb = {}, 0.0, 0.0
    for a, b in zip(lo, hi):
        d = (b["commit"] - pb) - (a["commit"] - pa)
        pa, pb = a["commit"], b["commit"]
        p = per.setdefault(b["pc"], {"pc": b["pc"], "insn": b.get("insn", ""), "count": 0, "growth": 0.0,
                                     "why": {}})
        p["count"] += 1
        p["growth"] += d
        if d > 0:
            key = "/".join([b.get("mem_level") or "-"] + [b.get(w, "") for w in
                                                          ("fetch_why", "dispatch_why", "issue_why", "commit_why")])
            p["why"][key] = p["why"].get(key, 0.0) + d
    total = hi[-1]["commit"] - lo[-1]["commit"]
    static = sorted(per.values(), key=lambda p: -p["growth"])[:top]
    for p in static:
        p["why"] = sorted(p["why"].items(), key=lambda kv: -kv[1])[:3]
    early, misses = [], 0
    for k, r in enumerate(hi):
        if r.get("mem_level") != "mem" or r.get("class") != "load":
            continue
        misses += 1
        line = int(r["addr"], 16) // line_bytes
        first = None
        for y in hi[k + 1:k + 1 + window]:
            if y.get("class") == "load" and y.get("addr") and int(y["addr"], 16) // line_bytes == line and \
                    y["issue"] < r["mem_req"] and (first is None or y["issue"] < first["issue"]):
                first = y
        if first is not None:
            early.append({"seq": r["seq"], "pc": r["pc"], "request": r["mem_req"], "younger_seq": first["seq"],
                          "younger_pc": first["pc"], "younger_issue": first["issue"],
                          "earlier_by": r["mem_req"] - first["issue"]})
    return {"growth_cycles": total, "static": static, "load_misses": misses, "younger_first": early}


def report_growth(res, out=sys.stdout):
    w = out.write
    w("commit growth from the lower latency to the higher: %.1f cycles\n" % res["growth_cycles"])
    w("\nstatic instructions whose commit steps grow most, and what the higher latency's rows say\n")
    w("  pc          count     growth  share  reasons (mem/fetch/dispatch/issue/commit: cycles)\n")
    for p in res["static"]:
        share = 100.0 * p["growth"] / res["growth_cycles"] if res["growth_cycles"] else 0.0
        w("  0x%-8x %6d %10.1f %5.1f%%  %s  %s\n" % (p["pc"], p["count"], p["growth"], share,
                                                   "; ".join("%s: %.0f" % kv for kv in p["why"]), p["insn"]))
    e = res["younger_first"]
    w("\nloads from memory: %d; %d of them have a younger load of their line that issued before their "
      "request" % (res["load_misses"], len(e)))
    if e:
        w(", by %.1f cycles on average (gem5 would have sent the younger one's miss first)\n"
          % (sum(x["earlier_by"] for x in e) / len(e)))
        for x in e[:5]:
            w("  seq %d (0x%x) requested at %.1f; seq %d (0x%x) issued at %.1f\n"
              % (x["seq"], x["pc"], x["request"], x["younger_seq"], x["younger_pc"], x["younger_issue"]))
    else:
        w("\n")


# ---------------------------------------------------------------------------------------------------------
# Running gem5 for a region's trace
# ---------------------------------------------------------------------------------------------------------

def kernel_range(binary, kernel):
    sys.path.insert(0, HERE)
    import sweep  # noqa: E402  (the one nm lookup of a kernel's symbol)
    try:
        return sweep.kernel_range(binary, kernel)
    except sweep.Failure as e:
        raise Bad(str(e))


def run_gem5(a):
    """gem5 with O3PipeView into a FIFO (gem5_fifo.py); keep a.count retired instructions from the kernel's first on."""
    lo, hi = kernel_range(a.cmd[0], a.kernel)
    flags = ["--debug-flags=O3PipeView,IEW"]
    if a.debug_start is not None:
        flags.append("--debug-start=%d" % a.debug_start)
    kept, state = [], {"retired": 0, "started": False}

    def consume(f):
        # lines of one instruction come together; an instruction is kept from the first kernel fetch on
        # (printed out of order: keep a margin of those fetched before it, dropped by seq at the end)
        # IEW's writeback lines (the only ones of that flag kept) wait by sequence number for their
        # instruction, which is printed later, when it is destroyed
        buf, wbs = [], {}
        for line in f:
            if not line.startswith("O3PipeView:"):
                k = line.find(WB_MARK)
                if k > 0:
                    seq = line[k + len(WB_MARK):].split("]", 1)[0]
                    wbs.setdefault(seq, line)
                continue
            buf.append(line)
            if not line.startswith("O3PipeView:retire:"):
                continue
            one = parse_pipeview(buf, "<gem5's pipeline trace>")[0]
            wb = wbs.pop(str(one["seq"]), None)
            text, buf = ([wb] if wb else []) + buf, []
            if len(wbs) > 65536:  # instructions that never print (none expected): keep it bounded
                wbs.clear()
            if not state["started"]:
                if one["commit"] and lo <= one["pc"] < hi:
                    state["started"] = True
                    state["seq0"] = one["seq"]
                else:
                    kept.append((one, text))
                    del kept[:-512]  # the margin
                    continue
            kept.append((one, text))
            state["retired"] += 1 if one["commit"] else 0
            if state["retired"] >= a.count + 64:
                return  # the region's instructions are in: gem5 is stopped, the rest of the run is not needed
    try:
        status, err, error = gem5_fifo.run(a.gem5, flags, a.machine, a.latency, a.cmd, consume, True, "pipeview-")
    except gem5_fifo.Gem5Missing as e:
        raise Bad(str(e))
    if error:
        raise Bad("reading gem5's pipeline trace: %s" % error)
    if not state["started"]:
        raise Bad("gem5 retired no instruction of %s (exit %s): %s" % (a.kernel, status, err.strip()[-400:]))
    with open(a.out, "w", encoding="utf-8") as f:
        for one, text in sorted(kept, key=lambda x: x[0]["seq"]):
            if one["seq"] >= state["seq0"]:  # the margin before the region's first instruction is not kept
                f.writelines(text)
    sys.stderr.write("pipeview.py: %d retired instructions of the region in %s (kernel at [0x%x, 0x%x))\n"
                     % (state["retired"], a.out, lo, hi))


def main(argv):
    ap = argparse.ArgumentParser(description="gem5's O3PipeView against edan's --schedule-dump")
    sub = ap.add_subparsers(dest="cmd_name", required=True)
    r = sub.add_parser("run")
    r.add_argument("--machine", required=True)
    r.add_argument("--gem5", default=os.environ.get("GEM5", "/opt/gem5src/build/RISCV/gem5.opt"))
    r.add_argument("--latency", type=float)
    r.add_argument("--kernel", required=True)
    r.add_argument("--count", type=int, default=10000)
    r.add_argument("--debug-start", type=int)
    r.add_argument("--out", required=True)
    r.add_argument("cmd", nargs=argparse.REMAINDER)
    c = sub.add_parser("compare")
    c.add_argument("pipeview")
    c.add_argument("dump")
    c.add_argument("--machine", required=True)
    c.add_argument("--kernel-range")
    c.add_argument("--binary")
    c.add_argument("--kernel")
    c.add_argument("--tolerance", type=float, default=20.0)
    c.add_argument("--top", type=int, default=10)
    c.add_argument("--json", action="store_true")
    gr = sub.add_parser("growth")
    gr.add_argument("dump_lo")
    gr.add_argument("dump_hi")
    gr.add_argument("--top", type=int, default=10)
    gr.add_argument("--json", action="store_true")
    p = sub.add_parser("parse")
    p.add_argument("pipeview")
    p.add_argument("--machine", required=True)
    a = ap.parse_args(argv)
    try:
        if a.cmd_name == "run":
            a.cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
            if not a.cmd:
                raise Bad("no program: give -- BINARY [ARGS...]")
            if a.count < 1:
                raise Bad("--count must be at least 1")
            run_gem5(a)
            return 0
        if a.cmd_name == "growth":
            res = growth(read_dump(a.dump_lo), read_dump(a.dump_hi), a.top)
            if a.json:
                json.dump(res, sys.stdout, indent=1)
                sys.stdout.write("\n")
            else:
                report_growth(res)
            return 0
        ghz = clock_ghz(a.machine)
        try:
            with open(a.pipeview, encoding="utf-8", errors="replace") as f:
                every = parse_pipeview(f, a.pipeview)
            insts = to_cycles(retired(every), ghz)
            squashed = to_cycles([dict(i) for i in every if not i["commit"]], ghz)
        except OSError as e:
            raise Bad("%s: %s" % (a.pipeview, e.strerror))
        if a.cmd_name == "parse":
            w = csv.writer(sys.stdout, lineterminator="\n")
            w.writerow(("seq", "pc", "insn") + STAGES + ("writeback", "commit", "store"))
            for i in insts:
                w.writerow([i["seq"], "0x%x" % i["pc"], i["insn"]] +
                           ["" if i[k] is None else "%.4f" % i[k] for k in STAGES + ("writeback", "commit", "store")])
            return 0
        lo = hi = None
        if a.kernel_range:
            try:
                lo, hi = (int(x, 0) for x in a.kernel_range.split(","))
            except ValueError:
                raise Bad("--kernel-range takes LO,HI (addresses)")
        elif a.binary and a.kernel:
            lo, hi = kernel_range(a.binary, a.kernel)
        pairs, cut = align(insts, read_dump(a.dump), lo, hi)
        res = compare(pairs, a.tolerance, a.top, squashed)
        res["paths_differ_at"] = cut
        if a.json:
            json.dump(res, sys.stdout, indent=1)
            sys.stdout.write("\n")
        else:
            report(res)
            if cut is not None:
                sys.stdout.write("\nthe paths differ from instruction %d on (another pc): compared up to there\n"
                                 % cut)
        return 0
    except Bad as e:
        die(str(e))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
