#!/usr/bin/env python3
# Takes gem5's times back from a per-program table that compare.py wrote into docs/accuracy.md and
# writes them into a sweep.py results file as cached gem5 records, so that the model can be run
# against them (`sweep.py --no-gem5 ... --results FILE LIST`, then `compare.py`) where gem5's own
# results files are gone. The table gives, per program, t(lo) in µs to 3 significant digits, gem5's
# slope (ns of time per ns of latency, 3 digits) and slowdown (4 digits), and t(hi) when it is the wide
# table: each rounded, so each allows an interval; the times at the two latencies are taken at the
# centre of what all of them allow (the centroid of the region of both times that all the roundings
# allow, a convex polygon), which compare.py rounds back to the same cells.
#
#   python3 validation/gem5_from_doc.py --marker NAME --machine FILE --results FILE [options] LIST
#     --marker NAME    the table between <!-- NAME:begin --> and <!-- NAME:end -->, e.g.
#                      machines-gem5-validation-ddr4
#     --doc FILE       the document [docs/accuracy.md]
#     --commit REV     read the document as it was at REV (git show REV:FILE) instead of the file
#     --machine FILE   the machine file the table was measured on (its name must be the table's
#                      "Machine `...`"); gem5's records are keyed by its gem5 parameters
#     --results FILE   sweep.py's results file to write the records into (created if missing; records
#                      of real gem5 runs are never replaced)
#     --time SOURCE    sweep.py's --time for programs without time= in LIST [auto]
#     LIST             sweep.py's program list; every program of the table must be in it
#
# The records carry "recovered" (the document, commit, marker and line, the cells): sweep.py treats
# them as missing when it runs gem5, so a real sweep replaces them. Keys are sweep.py's own (gem5_key),
# from the binaries LIST names: use the binaries the table was measured with.
# Errors (a table that cannot be parsed, rounded values that allow no time, a program the list lacks,
# a time source that differs from the list's): a message naming the file and line, exit status 2.
import argparse
import decimal
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import sweep  # noqa: E402  (the results file, the list and the keys, as sweep.py has them)

# compare.py's digits: t(lo) and t(hi) in µs and the slope by fmt(v) (3 significant digits), the
# slowdown by fmt(v, 4)
DIGITS = {"t(lo) µs": 3, "t(hi) µs": 3, "slope ns/ns": 3, "slowdown": 4}
NEEDED = ("program", "time", "t(lo) µs", "slope ns/ns", "slowdown")


class TableError(Exception):
    pass


def die(msg):
    sys.stderr.write("gem5_from_doc.py: %s\n" % msg)
    sys.exit(2)


def rounding_interval(text, digits):
    """The closed interval of the numbers that "%.{digits}g" (compare.py's fmt) prints as text."""
    try:
        d = decimal.Decimal(text)
    except decimal.InvalidOperation:
        raise TableError("'%s' is not a number" % text)
    if not d.is_finite():
        raise TableError("'%s' is not a number" % text)
    if d == 0:
        return 0.0, 0.0  # fmt prints 0 for 0 alone
    a = abs(d)
    half = decimal.Decimal(5).scaleb(a.adjusted() - digits)
    # a power of ten (1e+03) may have been rounded up from below, at the next smaller exponent
    below = half / 10 if a.normalize().as_tuple().digits == (1,) else half
    lo, hi = float(a - below), float(a + half)
    return (lo, hi) if d > 0 else (-hi, -lo)


def clip(poly, c0, c1, c2):
    """The convex polygon poly (a list of (x, y)) cut to c0 + c1 x + c2 y >= 0 (Sutherland-Hodgman)."""
    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp, fq = c0 + c1 * p[0] + c2 * p[1], c0 + c1 * q[0] + c2 * q[1]
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def recover(cells, span):
    """(t(lo), t(hi)) in µs from a row's cells (column name: text) and the latencies' span in ns: the
    centroid of the region of (t(lo), t(hi)) that all cells allow (a convex polygon: each cell bounds
    t(lo), t(hi), their difference or their ratio), or, when it has no area, the middle of the t(lo)
    interval it allows and of the t(hi) interval at that t(lo)."""
    tlo = rounding_interval(cells["t(lo) µs"], DIGITS["t(lo) µs"])
    s = rounding_interval(cells["slope ns/ns"], DIGITS["slope ns/ns"])
    r = rounding_interval(cells["slowdown"], DIGITS["slowdown"])
    if tlo[0] <= 0:
        raise TableError("t(lo) %s µs: not a positive time" % cells["t(lo) µs"])
    k = span / 1000.0  # t(hi) - t(lo) in µs per ns/ns of slope
    # the box t(lo) x t(hi) that t(lo) and the slope allow, then cut by the slope and the slowdown
    poly = [(tlo[0], tlo[0] + s[0] * k), (tlo[1], tlo[0] + s[0] * k), (tlo[1], tlo[1] + s[1] * k),
            (tlo[0], tlo[1] + s[1] * k)]
    cuts = [(-s[0] * k, -1, 1), (s[1] * k, 1, -1),  # (t(hi) - t(lo)) / k within the slope's interval
            (0, -r[0], 1), (0, r[1], -1)]  # t(hi) / t(lo) within the slowdown's
    if "t(hi) µs" in cells:
        thi = rounding_interval(cells["t(hi) µs"], DIGITS["t(hi) µs"])
        cuts += [(-thi[0], 0, 1), (thi[1], 0, -1)]
    for c in cuts:
        poly = clip(poly, *c)
        if not poly:
            raise TableError("t(lo) %s µs, slope %s and slowdown %s allow no time at both latencies"
                             % (cells["t(lo) µs"], cells["slope ns/ns"], cells["slowdown"]))
    area = cx = cy = 0.0
    for i, p in enumerate(poly):  # the centroid of the polygon
        q = poly[(i + 1) % len(poly)]
        cross = p[0] * q[1] - q[0] * p[1]
        area, cx, cy = area + cross, cx + (p[0] + q[0]) * cross, cy + (p[1] + q[1]) * cross
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    if abs(area) > 1e-12 * (max(xs) - min(xs) + 1e-300) * (max(ys) - min(ys) + 1e-300):
        return cx / (3 * area), cy / (3 * area)
    # no area (a slope or slowdown printed exactly, a segment): its middle
    x = (min(xs) + max(xs)) / 2
    ys = []
    for i, p in enumerate(poly):  # where the polygon's edges cross t(lo) = x
        q = poly[(i + 1) % len(poly)]
        if min(p[0], q[0]) <= x <= max(p[0], q[0]):
            ys += [p[1], q[1]] if p[0] == q[0] else [p[1] + (x - p[0]) / (q[0] - p[0]) * (q[1] - p[1])]
    return x, (min(ys) + max(ys)) / 2


def read_doc(path, commit):
    """The document's lines and the name errors give it (PATH, or REV:PATH)."""
    if commit is None:
        try:
            with open(path, encoding="utf-8") as f:
                return f.read().splitlines(), path
        except OSError as e:
            die("%s: %s" % (path, e.strerror))
    d, base = os.path.split(os.path.abspath(path))
    p = subprocess.run(["git", "-C", d, "show", "%s:./%s" % (commit, base)], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if p.returncode != 0:
        die("git show %s:%s: %s" % (commit, path, p.stderr.strip() or "status %d" % p.returncode))
    return p.stdout.splitlines(), "%s:%s" % (commit, path)


def cells_of(line):
    if not line.startswith("|") or not line.rstrip().endswith("|"):
        return None
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def parse_table(lines, name, marker):
    """(machine file name, latencies, rows) of the table between the marker's lines; each row
    (line number, {column: cell})."""
    begin, end = "<!-- %s:begin -->" % marker, "<!-- %s:end -->" % marker
    at = [i for i, l in enumerate(lines) if l.strip() == begin]
    to = [i for i, l in enumerate(lines) if l.strip() == end]
    if len(at) != 1 or len(to) != 1 or at[0] > to[0]:
        die("%s: needs one line %s and, after it, one line %s" % (name, begin, end))
    machine = lats = head = None
    rows = []
    for i in range(at[0] + 1, to[0]):
        line, where = lines[i], "%s:%d" % (name, i + 1)
        m = re.match(r"Machine `([^`]+)`; memory latencies ([^;]+) ns;", line)
        if m:
            machine = m.group(1)
            try:
                lats = [float(x) for x in m.group(2).split(",")]
            except ValueError:
                die("%s: latencies '%s' are not numbers" % (where, m.group(2)))
            if len(lats) != 2:
                die("%s: %d latencies: only a table of two (the slope from two points) can be taken back"
                    % (where, len(lats)))
            continue
        c = cells_of(line)
        if c is None:
            if head is not None and rows:
                break  # the table's end
            continue
        if c[:1] == ["program"]:
            head = c
            missing = [n for n in NEEDED if n not in head]
            if missing:
                die("%s: the per-program table has no column %s" % (where, ", ".join(missing)))
            continue
        if head is None or all(re.fullmatch(r":?-+:?", x) for x in c):
            continue
        if len(c) != len(head):
            die("%s: %d cells, the header has %d" % (where, len(c), len(head)))
        rows.append((i + 1, dict(zip(head, c))))
    if machine is None:
        die("%s: no line 'Machine `...`; memory latencies ... ns;' between the lines %s and %s"
            % (name, begin, end))
    if not rows:
        die("%s: no per-program table between the lines %s and %s" % (name, begin, end))
    return machine, lats, rows


def main(argv):
    ap = argparse.ArgumentParser(description="gem5's times taken back from a table of docs/accuracy.md "
                                 "into a sweep.py results file (see the header)")
    ap.add_argument("list")
    ap.add_argument("--marker", required=True)
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "accuracy.md"))
    ap.add_argument("--commit", default=None)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--results", required=True)
    ap.add_argument("--time", choices=["auto", "output", "trace", "simseconds"], default="auto")
    a = ap.parse_args(argv)
    lines, name = read_doc(a.doc, a.commit)
    machine, lats, rows = parse_table(lines, name, a.marker)
    if machine != os.path.basename(a.machine):
        die("%s: the table was measured on %s, not on --machine %s" % (name, machine, a.machine))
    progs = {p["name"]: p for p in sweep.read_list(a.list)}
    gdig = sweep.gem5_machine_digest(os.path.abspath(a.machine))
    recs = []
    for no, cells in rows:
        where = "%s:%d" % (name, no)
        prog = progs.get(cells["program"])
        if prog is None:
            die("%s: program %s is not in %s" % (where, cells["program"], a.list))
        want, src = prog["time"] or a.time, cells["time"]
        if src not in ("output", "trace", "simseconds") or (want != "auto" and want != src) or (
                want == "auto" and src == "trace"):
            die("%s: %s's time is %s in the table, the list says time=%s" % (where, prog["name"], src, want))
        try:
            t_lo, t_hi = recover(cells, lats[1] - lats[0])
        except TableError as e:
            die("%s: %s: %s" % (where, prog["name"], e))
        bd = sweep.digest(prog["binary"])
        for lat, t in zip(lats, (t_lo * 1e-6, t_hi * 1e-6)):
            rec = {"output_seconds": t if src == "output" else None,
                   "simSeconds": t if src == "simseconds" else None, "simInsts": None, "cycles": None,
                   "wall_seconds": None,
                   "command": "validation/gem5_from_doc.py --marker %s %s" % (a.marker, name),
                   "recovered": {"doc": name, "marker": a.marker, "line": no,
                                 "cells": {k: cells[k] for k in DIGITS if k in cells}}}
            if src == "trace":
                rec["trace_seconds"], rec["trace_insts"] = t, None
            recs.append((sweep.gem5_key(prog, bd, gdig, lat, a.time), rec, where))
    results = sweep.Results(a.results)
    for key, rec, where in recs:
        old = results.get("gem5", key)
        if old is not None and "recovered" not in old:
            die("%s: %s holds gem5's own record for this program (%s): not replaced"
                % (where, a.results, old.get("command", key)))
    for key, rec, _ in recs:
        results.put("gem5", key, rec)
    left = sorted(set(progs) - {c["program"] for _, c in rows})
    sys.stderr.write("gem5_from_doc.py: %d programs at %s ns from %s (%s) into %s%s\n" % (
        len(rows), " and ".join("%g" % x for x in lats), name, a.marker, a.results,
        "; not in the table: %s" % ", ".join(left) if left else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
