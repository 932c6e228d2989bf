#!/usr/bin/env python3
"""Which of MemGaze's footprint-table rules (docs/locality.md, "The execution-interval tree" and "MemGaze's
quirks") a check case exercises, counted on its input files.

usage: memgaze_rules.py CASE_DIR...    (each CASE_DIR/NAME holds NAME.trace, .binanlys, .hpcstruct, .gold[-oe])

A plain model of the rules, written from docs/locality.md, for choosing and checking test data: it counts the
events each rule is about (a change from SAMPLE 0, constant loads moved, dropped or folded across a sample change,
a parent of one child, a row mixing windows inside and across samples...), and it checks itself against the case's
.gold: its node counts, multiplier and mean window size per level must be the table's. Used by
tests/memgaze_check_test.py (the vendored cases together must exercise every rule in RULES) and by
tests/data/memgaze/make_cuts.py (which made them).
"""
import os
import re
import sys
from collections import Counter

CONSTANT, STRIDED, IRREGULAR = 0, 1, 2

# every rule the vendored cases must exercise between them: (key, what)
RULES = [
    ("sample0", "1: a change from SAMPLE 0 starts no new sample"),
    ("const_next", "2: constant loads folded into the next traced load"),
    ("const_next_sample", "2: constant loads folded into the next sample's first traced load"),
    ("const_back", "2: constant loads at a sample change go back to the previous sample's last load"),
    ("const_dropped", "2: a second constant load at a sample change drops the waiting ones"),
    ("const_end", "2: constant loads after the last traced load are dropped"),
    ("mixed_leaf", "3: an address with loads of several classes (constant ones included) in one leaf"),
    ("one_child_inner", "5: a parent of one child inside a sample"),
    ("one_child_outer", "5: a parent of one child above the samples"),
    ("row_unscaled", "6, 8: a row of windows inside and across samples shown unscaled (last node inside)"),
    ("row_scaled", "6, 8: a row of windows inside and across samples scaled (last node across)"),
    ("m_above_1", "7: a multiplier above 1"),
    ("m_clamped", "7: a multiplier clamped to 1"),
    ("hex_skipped", "9: a SKIPPED count of 0xa or more (read as hexadecimal)"),
    ("unknown", "5: a traced load of an instruction the class file does not list (Unknown)"),
    ("func_one", "12: a function whose loads see no sample change (its multiplier 1)"),
    ("m2_negative", "12: a negative M2"),
]


class Node:
    __slots__ = ("size", "kids")

    def __init__(self, size, kids=()):
        self.size, self.kids = size, kids


def join(elems, ev, key):
    """MemGaze's rounds: pairs (0,1), (2,3)...; the odd last of three or more gets a parent of one child."""
    while len(elems) > 1:
        nxt = []
        for i in range(0, len(elems), 2):
            if i + 1 < len(elems):
                nxt.append(Node(elems[i].size + elems[i + 1].size, (elems[i], elems[i + 1])))
            else:
                nxt.append(Node(elems[i].size, (elems[i],)))
                ev[key] += 1
        elems = nxt
    return elems[0]


def read_classes(path):
    classes = {}
    with open(path) as f:
        for line in f:
            fs = line.split()
            classes[int(fs[0], 16)] = (int(fs[1], 16), int(fs[4], 16))
    return classes


def fold(trace, classes, ev):
    """MemGaze's reading loop: the traced loads as [sample number, ip, address, class, constant loads]."""
    recs = []
    prev_id, sample, missing, missing_id, held, started = 0, 0, 0, None, False, False
    with open(trace) as f:
        for line in f:
            fs = line.split()
            if len(fs) < 5 or not fs[0][:1].isalnum() or fs[0].endswith(":"):
                continue  # a DSO:/TRACE: header line
            ip, addr, sid = int(fs[0], 16), int(fs[1], 16), int(fs[4])
            cls, skipped = classes.get(ip, (None, 0))
            if cls == CONSTANT:
                if prev_id != 0 and prev_id != sid:
                    if held:
                        ev["const_back"] += missing > 0
                        recs[-1][4] += missing
                        held = False
                    else:
                        ev["const_dropped"] += missing > 0
                    missing = 0
                if not missing:
                    missing_id = sid
                missing += skipped + 1
                continue
            ev["unknown"] += cls is None
            ev["hex_skipped"] += skipped >= 10
            if prev_id == 0:
                ev["sample0"] += started and sid != 0
                prev_id = sid
            elif prev_id != sid:
                sample += 1
                prev_id = sid
            if missing:
                ev["const_next"] += 1
                ev["const_next_sample"] += missing_id != sid
            recs.append([sample, ip, addr, cls, skipped + missing])
            missing, held, started = 0, True, True
    ev["const_end"] += missing > 0
    return recs


def analyse(d, name, period):
    """The rule counts of case NAME in folder D, and its rows: {level: (nodes, multiplier, mean size)}."""
    ev = Counter()
    recs = fold(f"{d}/{name}.trace", read_classes(f"{d}/{name}.binanlys"), ev)
    samples = []
    for r in recs:
        if not samples or samples[-1][0][0] != r[0]:
            samples.append([])
        samples[-1].append(r)
    roots = []
    for rs in samples:
        leaves = []
        for i in range(0, len(rs), 8):
            leaf = rs[i:i + 8]
            leaves.append(Node(sum(1 + r[4] for r in leaf)))
            kinds = {}
            for r in leaf:
                kinds.setdefault(r[2], set()).update([r[3]] + ([CONSTANT] if r[4] else []))
            ev["mixed_leaf"] += any(len(k) > 1 for k in kinds.values())
        roots.append(join(leaves, ev, "one_child_inner"))
    top = join(roots, ev, "one_child_outer")
    sample_roots = set(map(id, roots))
    rows = {}  # level: [nodes, nodes inside a sample, sum of sizes, last visited inside]
    stack = [(top, False)]
    while stack:  # preorder; a sample's root is across, the nodes below it inside
        nd, inside = stack.pop()
        row = rows.setdefault(max(3, (nd.size - 1).bit_length()), [0, 0, 0, False])
        row[0] += 1
        row[1] += inside
        row[2] += nd.size
        row[3] = inside
        for k in reversed(nd.kids):
            stack.append((k, inside or id(nd) in sample_roots))
    total = sum(1 + r[4] for r in recs)
    m = (len(samples) - 1) * period / total
    ev["m_above_1" if m >= 1 else "m_clamped"] += 1
    m = max(m, 1.0)
    for n, inside, _, last in rows.values():
        if 0 < inside < n:
            ev["row_unscaled" if last else "row_scaled"] += 1
    with open(f"{d}/{name}.gold-oe", errors="replace") as f:
        for line in f:
            if " StartIP: " in line:
                kind = line.split(" StartIP: ")[0].split()[-1]
                mult = float(line.rsplit("=", 1)[1])
                ev["m2_negative"] += kind == "M2" and mult < 0
                ev["func_one"] += kind not in ("M2", "Med", "Mean", "tot") and mult == 1
    table = {lv: (r[0], 1.0 if r[3] else m, r[2] / r[0] * (1.0 if r[3] else m)) for lv, r in rows.items()}
    return ev, table


def check_gold(d, name, table):
    """The model's rows against the .gold: an empty list when its levels, node counts, multipliers and mean
    window sizes are the table's (as MemGaze prints them, %g)."""
    with open(f"{d}/{name}.gold") as f:
        gold = {int(fs[0]): (fs[1], fs[2], fs[3]) for fs in (line.split() for line in list(f)[1:])}
    ours = {lv: (str(n), "%g" % m, "%g" % ws) for lv, (n, m, ws) in table.items()}
    return [f"level {lv}: model {ours.get(lv)}, .gold {gold.get(lv)}" for lv in sorted(set(gold) | set(ours))
            if ours.get(lv) != gold.get(lv)]


def period_of(name):
    return int(re.search(r"-p(\d+)", name).group(1))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    status = 0
    for d in sys.argv[1:]:
        name = os.path.basename(os.path.normpath(d))
        ev, table = analyse(d, name, period_of(name))
        bad = check_gold(d, name, table)
        status |= bool(bad)
        print(f"{name}: the model {'differs from' if bad else 'agrees with'} its .gold")
        for b in bad:
            print("  " + b)
        for key, what in RULES:
            print(f"  {ev[key]:6d}  {what}")
    sys.exit(status)


if __name__ == "__main__":
    main()
