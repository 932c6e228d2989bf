#!/usr/bin/env python3
# gem5's prefetcher trace (--debug-flags=HWPrefetch,Cache) against edan's (EDAN_PREFETCH_TRACE), per cache level
# and per pc: what each prefetcher was trained on, what it named, sent, dropped, and how its lines were used.
#
#   python3 validation/pftrace.py window --machine FILE [--gem5 PATH] [--latency NS] -- BINARY [ARGS...]
#       gem5 with --debug-flags=SyscallBase: prints the ticks of the program's clock_gettime calls and, as
#       "window T0,T1", the first and the last (PolyBench's and kernel_timer.h's timers read the clock just
#       before and after the kernel): the ticks for `run`'s --debug-start and --debug-end.
#   python3 validation/pftrace.py run --machine FILE [--gem5 PATH] [--latency NS] [--debug-start T0]
#           [--debug-end T1] --out FILE -- BINARY [ARGS...]
#       gem5 with --debug-flags=HWPrefetch,Cache through a FIFO; keeps in FILE the lines `gem5` reads (the
#       prefetchers' and the caches' prefetch lines, fills): a MINI kernel's are a few MB.
#   python3 validation/pftrace.py gem5 TRACE [--kernel-range LO,HI | --binary B --kernel K] [--json]
#   python3 validation/pftrace.py edan TRACE [--kernel-range LO,HI | --binary B --kernel K] [--json]
#       one side's figures per level and pc (the pcs of the kernel's range when one is given).
#   python3 validation/pftrace.py compare GEM5_TRACE EDAN_TRACE [--kernel-range ... | --binary --kernel]
#           [--pc PC [--level L] [--rows N]] [--json]
#       the two side by side; with --pc, that pc's trainings at the level, one row each, in each one's order.
#
# edan's side: EDAN_PREFETCH_TRACE=FILE edan run --exact --machine=FILE --real-path --no-kernel-writes
# --filter=KERNEL ... (src/analysis/prefetch/prefetch.c names its lines; the times are the highest latency's
# lane, so run it at the one latency gem5 ran).
#
# The figures, per level (0 the L1d) and pc (a prefetch carries the pc of the access that trained it, gem5's
# tag_prefetch; an L1d prefetch arriving at the L2 trains it with that pc):
#   train     trainings of the pc's entry (gem5's "Hit:"/"Miss:" lines, edan's T lines); new: entries made
#   named     candidates the trainings named; page: of them in another page, ignored (gem5 has no TLB here)
#   held      named but not sent because the level had the line or was fetching it: gem5's candidate already in
#             its queue, or popped and found in the cache, an MSHR or the write buffer; edan's H lines
#   squashed  gem5: removed from the queue by an access to its line (queue_squash); edan: the access came
#             before the prefetch was sent (its F/Q lines)
#   full      dropped for a full queue
#   sent      prefetches that went out as misses of the level
#   used      sent prefetches whose line an access used: ontime (found it there: gem5's "Hit on prefetch",
#             edan's U without a later fill) and late (its prefetch still on its way: gem5, a training of the
#             level on the line before its fill; edan, an F late line below the L1d, an in-flight A line at it)
# gem5's lines: "TICK: OBJECT: MESSAGE", OBJECT system.cpu.dcache[.prefetcher] (level 0), system.l2cache[...]
# (1), system.l3cache[...] (2); the messages are gem5 v22.1's (src/mem/cache/prefetch/stride.cc, queued.cc,
# src/mem/cache/base.cc). Errors: a message naming the file and line, exit status 2.
import argparse
import json
import os
import re
import sys

import gem5_fifo

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = {"system.cpu.dcache": 0, "system.l2cache": 1, "system.l3cache": 2}
KEYS = ("train", "new", "named", "page", "held", "squashed", "full", "sent", "ontime", "late")
# the gem5 lines `run` keeps: every prefetcher line but its polling, and the caches' fills and prefetch hits
KEEP = re.compile(r"prefetch|Prefetch|Hit: PC|Miss: PC|pf candidate|Block for addr")
NOISE = ("Requesting a prefetch to issue.", "No hardware prefetches available.")
LINE = 64


class Bad(Exception):
    pass


def die(msg):
    sys.stderr.write("pftrace.py: %s\n" % msg)
    sys.exit(2)


def hexint(s, where):
    try:
        return int(s, 16)
    except ValueError:
        raise Bad("%s: '%s' is not a hexadecimal number" % (where, s))


def new_row():
    return {k: 0 for k in KEYS}


def row(out, lv, pc):
    return out.setdefault(lv, {}).setdefault(pc, new_row())


# ---------------------------------------------------------------------------------------------------------
# gem5
# ---------------------------------------------------------------------------------------------------------

GEM5_PATTERNS = [
    ("hit", re.compile(r"Hit: PC ([0-9a-fA-F]+) pkt_addr ([0-9a-fA-F]+) \(\w+\) stride (-?\d+) \((match|change)\), "
                       r"conf (\d+)")),
    ("miss", re.compile(r"Miss: PC ([0-9a-fA-F]+) pkt_addr ([0-9a-fA-F]+) ")),
    ("cand", re.compile(r"Found a pf candidate addr: (0x[0-9a-fA-F]+|0)")),
    ("page", re.compile(r"Ignoring page crossing prefetch")),
    ("queued", re.compile(r"Prefetch queued\. addr:(0x[0-9a-fA-F]+|0)")),
    ("inqueue", re.compile(r"Prefetch addr already in prefetch queue")),
    ("squash", re.compile(r"Removing pf candidate addr: (0x[0-9a-fA-F]+|0) ")),
    ("full", re.compile(r"Prefetch queue full, removing lowest priority oldest packet, addr: (0x[0-9a-fA-F]+|0)")),
    ("pop", re.compile(r"Generating prefetch for (0x[0-9a-fA-F]+|0)\.")),
    ("drop", re.compile(r"Prefetch (0x[0-9a-fA-F]+|0) has hit in (cache|a MSHR|the Write Buffer)")),
    ("pfhit", re.compile(r"Hit on prefetch for addr (0x[0-9a-fA-F]+|0) ")),
    ("fill", re.compile(r"Block for addr (0x[0-9a-fA-F]+|0) being updated in Cache")),
]


def outside(pc, lo, hi):
    """True when a kernel range [lo, hi) is given and pc is not in it."""
    return lo is not None and not lo <= pc < hi


def split_gem5(line):
    """(tick, object, message) of a gem5 debug line, or None."""
    parts = line.split(": ", 2)
    if len(parts) < 3:
        return None
    try:
        tick = int(parts[0].strip())
    except ValueError:
        return None
    return tick, parts[1].strip(), parts[2].rstrip("\n")


def level_of(obj):
    base = obj[:-len(".prefetcher")] if obj.endswith(".prefetcher") else obj
    return LEVELS.get(base)


def parse_gem5(lines, name="<gem5>", lo=None, hi=None):
    """{'levels': {lv: {pc: figures}}, 'trainings': {lv: {pc: [(tick, addr, stride or None, conf or None)]}}}
    from gem5's HWPrefetch (and Cache) lines. Candidates belong to the pc of the training before them in the
    same prefetcher; a queued prefetch keeps that pc until it is popped, squashed or dropped; a sent one
    until its line is used or filled and used."""
    out, trains = {}, {}
    last_pc = {}           # level -> pc of its last training
    queued = {}            # (level, line) -> pc
    sent = {}              # (level, line) -> [pc, filled]
    popped = {}            # level -> (line, pc) popped last, until a drop line says otherwise
    for no, text in enumerate(lines, 1):
        s = split_gem5(text)
        if s is None:
            continue
        tick, obj, msg = s
        lv = level_of(obj)
        if lv is None:
            continue
        where = "%s:%d" % (name, no)
        for kind, pat in GEM5_PATTERNS:
            m = pat.search(msg)
            if m:
                break
        else:
            continue
        if kind in ("hit", "miss"):
            pc, addr = hexint(m.group(1), where), hexint(m.group(2), where)
            last_pc[lv] = pc
            if outside(pc, lo, hi):
                continue
            r = row(out, lv, pc)
            r["train"] += 1
            r["new"] += kind == "miss"
            trains.setdefault(lv, {}).setdefault(pc, []).append(
                (tick, addr, int(m.group(3)) if kind == "hit" else None, int(m.group(5)) if kind == "hit" else None))
            # an access of the level to a line whose prefetch is still on its way: a late use (an MSHR hit)
            s_ = sent.get((lv, addr // LINE))
            if s_ is not None and not s_[1]:
                if not outside(s_[0], lo, hi):
                    row(out, lv, s_[0])["late"] += 1
                del sent[(lv, addr // LINE)]
            continue
        if kind in ("cand", "page", "inqueue"):
            pc = last_pc.get(lv)
            if pc is None or outside(pc, lo, hi):
                continue
            r = row(out, lv, pc)
            if kind == "cand":
                r["named"] += 1
            elif kind == "page":
                r["named"] += 1
                r["page"] += 1
            else:
                r["held"] += 1
            continue
        addr = hexint(m.group(1), where)
        ln = addr // LINE
        if kind == "queued":
            if last_pc.get(lv) is not None:
                queued[(lv, ln)] = last_pc[lv]
            continue
        if kind in ("squash", "full", "pop"):
            pc = queued.pop((lv, ln), None)
            if kind == "pop" and pc is not None:
                popped[lv] = (ln, pc)
                sent[(lv, ln)] = [pc, False]
            if pc is None or outside(pc, lo, hi):
                continue
            r = row(out, lv, pc)
            if kind == "squash":
                r["squashed"] += 1
            elif kind == "full":
                r["full"] += 1
            else:
                r["sent"] += 1
            continue
        if kind == "drop":  # the prefetch just popped found its line: not sent after all
            p = popped.pop(lv, None)
            if p is None or p[0] != ln:
                continue
            sent.pop((lv, ln), None)
            if not outside(p[1], lo, hi):
                r = row(out, lv, p[1])
                r["sent"] -= 1
                r["held"] += 1
            continue
        if kind == "fill":
            s_ = sent.get((lv, ln))
            if s_ is not None:
                s_[1] = True
            continue
        if kind == "pfhit":
            s_ = sent.pop((lv, ln), None)
            if s_ is not None and not outside(s_[0], lo, hi):
                row(out, lv, s_[0])["ontime"] += 1
    return {"levels": out, "trainings": trains}


# ---------------------------------------------------------------------------------------------------------
# edan (EDAN_PREFETCH_TRACE)
# ---------------------------------------------------------------------------------------------------------

def parse_edan(lines, name="<edan>", lo=None, hi=None):
    """The same figures from edan's trace (prefetch.c's and memtime_prefetch.c's lines), and per pc its L1d
    accesses by where they found their line ('access': {pc: {level or 'flight': n}})."""
    out, trains, access = {}, {}, {}
    issued = {}   # (level, line) -> pc of its last I line
    used = {}     # (level, line) -> pc: a U line whose F line (below the L1d) may follow
    flight = None  # the line of the last A line, if it found its line on its way
    # the L1d's U lines since the last A line: (level, line) -> (pc, "ontime" | "late"). The timing model writes
    # its Q line (the access came before the prefetch was sent) after the cache model's U line of the same access,
    # which popped the prefetch from `issued`: the Q takes the use back and counts the squash.
    u_access = {}
    for no, text in enumerate(lines, 1):
        f = text.split()
        if not f:
            continue
        where = "%s:%d" % (name, no)
        k = f[0]
        try:
            if k == "A":
                u_access = {}
                pc = hexint(f[1], where)
                flight = hexint(f[2], where) // LINE if f[4] == "1" else None
                if not outside(pc, lo, hi):
                    a = access.setdefault(pc, {})
                    key = "flight" if f[4] == "1" else "L%s" % f[3]
                    a[key] = a.get(key, 0) + 1
                continue
            lv = int(f[1])
            if k in ("T", "X", "H", "I", "U"):
                pc, addr = hexint(f[2], where), hexint(f[3], where)
                if k == "I":
                    issued[(lv, addr // LINE)] = pc
                if k == "U":
                    ipc = issued.pop((lv, addr // LINE), None)
                    if ipc is None or outside(ipc, lo, hi):
                        continue
                    if lv == 0:  # late: the access before it found the line on its way
                        use = "late" if flight == addr // LINE else "ontime"
                        row(out, lv, ipc)[use] += 1
                        u_access[(lv, addr // LINE)] = (ipc, use)
                    else:
                        used[(lv, addr // LINE)] = ipc
                        row(out, lv, ipc)["ontime"] += 1
                    continue
                if outside(pc, lo, hi):
                    continue
                r = row(out, lv, pc)
                if k == "T":
                    r["train"] += 1
                    if f[4] == "new":
                        r["new"] += 1
                        trains.setdefault(lv, {}).setdefault(pc, []).append((None, addr, None, None))
                    elif f[4] == "tagged":
                        trains.setdefault(lv, {}).setdefault(pc, []).append((None, addr, None, None))
                    else:
                        trains.setdefault(lv, {}).setdefault(pc, []).append((None, addr, int(f[4]), int(f[5])))
                elif k == "X":
                    r["named"] += 1
                    r["page"] += 1
                elif k == "H":
                    r["named"] += 1
                    r["held"] += 1
                else:
                    r["named"] += 1
                    r["sent"] += 1
                continue
            if k in ("S", "D", "F", "Q"):
                ln = hexint(f[2], where)
                pc = issued.get((lv, ln)) if k in ("S", "D", "Q") else used.pop((lv, ln), None)
                took_back = None
                if k == "Q":
                    issued.pop((lv, ln), None)
                    if pc is None and (lv, ln) in u_access:  # its access's U line came first: not a use
                        pc, took_back = u_access.pop((lv, ln))
                if pc is None or outside(pc, lo, hi):
                    continue
                if took_back:
                    row(out, lv, pc)[took_back] -= 1
                r = row(out, lv, pc)
                if k == "D":
                    r["full"] += 1
                    r["sent"] -= 1
                elif k == "Q":
                    r["squashed"] += 1
                    r["sent"] -= 1
                elif k == "F":
                    st = f[4]
                    if st == "late":
                        r["ontime"] -= 1
                        r["late"] += 1
                    elif st in ("squashed", "dropped"):
                        r["ontime"] -= 1
                        if st == "squashed":
                            r["squashed"] += 1
                            r["sent"] -= 1
                continue
        except (IndexError, ValueError):
            raise Bad("%s: not a line of EDAN_PREFETCH_TRACE: '%s'" % (where, text.strip()[:80]))
        raise Bad("%s: not a line of EDAN_PREFETCH_TRACE: '%s'" % (where, text.strip()[:80]))
    return {"levels": out, "trainings": trains, "access": access}


# ---------------------------------------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------------------------------------

def totals(levels):
    return {lv: {k: sum(r[k] for r in pcs.values()) for k in KEYS} for lv, pcs in levels.items()}


def report_one(res, out=sys.stdout):
    w = out.write
    for lv in sorted(res["levels"]):
        w("level %d (%s)\n" % (lv, "L1d" if lv == 0 else "L%d" % (lv + 1)))
        w("  %-10s %s\n" % ("pc", " ".join("%8s" % k for k in KEYS)))
        pcs = res["levels"][lv]
        for pc in sorted(pcs, key=lambda p: -pcs[p]["train"]):
            w("  0x%-8x %s\n" % (pc, " ".join("%8d" % pcs[pc][k] for k in KEYS)))
        t = totals(res["levels"])[lv]
        w("  %-10s %s\n" % ("all", " ".join("%8d" % t[k] for k in KEYS)))
    if res.get("access"):
        w("L1d accesses by where edan found their line (L0 hit, flight: on its way, L1 the L2, ... memory last)\n")
        for pc in sorted(res["access"]):
            w("  0x%-8x %s\n" % (pc, ", ".join("%s %d" % kv for kv in sorted(res["access"][pc].items()))))


def compare(g, e, out=sys.stdout):
    w = out.write
    for lv in sorted(set(g["levels"]) | set(e["levels"])):
        w("level %d (%s): gem5 / edan\n" % (lv, "L1d" if lv == 0 else "L%d" % (lv + 1)))
        w("  %-10s %s\n" % ("pc", " ".join("%11s" % k for k in KEYS)))
        gp, ep = g["levels"].get(lv, {}), e["levels"].get(lv, {})
        for pc in sorted(set(gp) | set(ep), key=lambda p: -(gp.get(p, {}).get("train", 0) + ep.get(p, {}).get("train",
                                                                                                               0))):
            a, b = gp.get(pc, new_row()), ep.get(pc, new_row())
            w("  0x%-8x %s\n" % (pc, " ".join("%11s" % ("%d/%d" % (a[k], b[k])) for k in KEYS)))
        ta, tb = totals({lv: gp}).get(lv, new_row()), totals({lv: ep}).get(lv, new_row())
        w("  %-10s %s\n" % ("all", " ".join("%11s" % ("%d/%d" % (ta[k], tb[k])) for k in KEYS)))


def trainings_side_by_side(g, e, pc, lv, rows, out=sys.stdout):
    w = out.write
    a = g["trainings"].get(lv, {}).get(pc, [])
    b = e["trainings"].get(lv, {}).get(pc, [])
    w("pc 0x%x at level %d: %d trainings in gem5, %d in edan (gem5 in time order, edan in trace order)\n"
      % (pc, lv, len(a), len(b)))
    w("  %5s  %-12s %10s %8s %4s   %18s %8s %4s\n" % ("#", "gem5 tick", "addr", "stride", "conf", "edan addr",
                                                       "stride", "conf"))

    def cell(t):
        if t is None:
            return ("", "", "")
        return ("%x" % t[1], "new" if t[2] is None else "%d" % t[2], "" if t[3] is None else "%d" % t[3])
    for i in range(min(rows, max(len(a), len(b)))):
        x = a[i] if i < len(a) else None
        y = b[i] if i < len(b) else None
        cx, cy = cell(x), cell(y)
        w("  %5d  %-12s %10s %8s %4s   %18s %8s %4s\n" % (i, x[0] if x else "", cx[0], cx[1], cx[2], cy[0], cy[1],
                                                          cy[2]))


# ---------------------------------------------------------------------------------------------------------
# Running gem5
# ---------------------------------------------------------------------------------------------------------

def run_fifo(a, flags, consume):
    """gem5 with its debug output read by consume(file) as gem5 runs (gem5_fifo.py); gem5's exit status."""
    try:
        status, err, error = gem5_fifo.run(a.gem5, flags, a.machine, a.latency, a.cmd, consume, False, "pftrace-")
    except gem5_fifo.Gem5Missing as e:
        raise Bad(str(e))
    if error:
        raise Bad("reading gem5's debug output: %s" % error)
    if status != 0:
        raise Bad("gem5 exited with status %d: %s" % (status, err[-400:]))
    return status


def run_window(a):
    ticks = []

    def consume(f):
        for line in f:
            if "Calling clock_gettime" in line:
                s = split_gem5(line)
                if s:
                    ticks.append(s[0])
    run_fifo(a, ["--debug-flags=SyscallBase"], consume)
    if len(ticks) < 2:
        raise Bad("the program read the clock %d times in gem5: no window" % len(ticks))
    for t in ticks:
        sys.stdout.write("clock_gettime at %d\n" % t)
    sys.stdout.write("window %d,%d\n" % (ticks[0], ticks[-1]))


def run_trace(a):
    flags = ["--debug-flags=HWPrefetch,Cache"]
    if a.debug_start is not None:
        flags.append("--debug-start=%d" % a.debug_start)
    if a.debug_end is not None:
        flags.append("--debug-end=%d" % a.debug_end)
    n = [0]
    with open(a.out, "w", encoding="utf-8") as out:
        def consume(f):
            for line in f:
                if KEEP.search(line) and not any(x in line for x in NOISE):
                    out.write(line)
                    n[0] += 1
        run_fifo(a, flags, consume)
    sys.stderr.write("pftrace.py: %d lines in %s\n" % (n[0], a.out))


# ---------------------------------------------------------------------------------------------------------

def kernel_range(a):
    if getattr(a, "kernel_range", None):
        try:
            lo, hi = (int(x, 0) for x in a.kernel_range.split(","))
        except ValueError:
            raise Bad("--kernel-range takes LO,HI (addresses)")
        return lo, hi
    if getattr(a, "binary", None) and getattr(a, "kernel", None):
        sys.path.insert(0, HERE)
        import sweep  # noqa: E402  (the one nm lookup of a kernel's symbol)
        try:
            return sweep.kernel_range(a.binary, a.kernel)
        except sweep.Failure as e:
            raise Bad(str(e))
    return None, None


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.readlines()
    except OSError as e:
        raise Bad("%s: %s" % (path, e.strerror))


def jsonable(res):
    return {k: ({str(lv): {"0x%x" % pc: v for pc, v in pcs.items()} for lv, pcs in res[k].items()}
                if k in ("levels", "trainings") else {"0x%x" % pc: v for pc, v in res[k].items()})
            for k in res}


def main(argv):
    ap = argparse.ArgumentParser(description="gem5's prefetcher trace against edan's, per level and pc")
    sub = ap.add_subparsers(dest="cmd_name", required=True)
    for name in ("window", "run"):
        r = sub.add_parser(name)
        r.add_argument("--machine", required=True)
        r.add_argument("--gem5", default=os.environ.get("GEM5", "/opt/gem5src/build/RISCV/gem5.opt"))
        r.add_argument("--latency", type=float)
        if name == "run":
            r.add_argument("--debug-start", type=int)
            r.add_argument("--debug-end", type=int)
            r.add_argument("--out", required=True)
        r.add_argument("cmd", nargs=argparse.REMAINDER)
    for name in ("gem5", "edan", "compare"):
        p = sub.add_parser(name)
        if name == "compare":
            p.add_argument("gem5_trace")
            p.add_argument("edan_trace")
            p.add_argument("--pc")
            p.add_argument("--level", type=int, default=1)
            p.add_argument("--rows", type=int, default=200)
        else:
            p.add_argument("trace")
        p.add_argument("--kernel-range")
        p.add_argument("--binary")
        p.add_argument("--kernel")
        p.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    try:
        if a.cmd_name in ("window", "run"):
            a.cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
            if not a.cmd:
                raise Bad("no program: give -- BINARY [ARGS...]")
            (run_window if a.cmd_name == "window" else run_trace)(a)
            return 0
        lo, hi = kernel_range(a)
        if a.cmd_name in ("gem5", "edan"):
            res = (parse_gem5 if a.cmd_name == "gem5" else parse_edan)(read_lines(a.trace), a.trace, lo, hi)
            if a.json:
                json.dump(jsonable(res), sys.stdout, indent=1)
                sys.stdout.write("\n")
            else:
                report_one(res)
            return 0
        g = parse_gem5(read_lines(a.gem5_trace), a.gem5_trace, lo, hi)
        e = parse_edan(read_lines(a.edan_trace), a.edan_trace, lo, hi)
        if a.json:
            json.dump({"gem5": jsonable(g), "edan": jsonable(e)}, sys.stdout, indent=1)
            sys.stdout.write("\n")
            return 0
        compare(g, e)
        if a.pc:
            try:
                pc = int(a.pc, 0)
            except ValueError:
                raise Bad("--pc takes an address")
            trainings_side_by_side(g, e, pc, a.level, a.rows)
        return 0
    except Bad as e:
        die(str(e))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
