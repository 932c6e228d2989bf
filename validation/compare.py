#!/usr/bin/env python3
# Compares a memory-latency sweep (validation/sweep.py's results file) with edan's predictions and
# prints markdown tables: per program, the measured slope (least-squares ns of kernel time per ns of
# memory latency) and relative slowdown (time at the highest over time at the lowest latency), the
# timing model's predicted slope and slowdown with the slope error and the time error at the lowest
# latency, and the paper's lambda and Lambda; then Spearman's rho and the mean |rank difference| of
# the model, lambda and Lambda, by slope and by slowdown, over all programs and per group.
#
#   python3 validation/compare.py [--results FILE] [--update-doc FILE --command TEXT] [--group REGEX]
#     --results FILE     sweep.py's results [build/validation/results.json]
#     --update-doc FILE  write the tables into FILE between the lines
#                        <!-- validation:begin --> and <!-- validation:end --> (else print them)
#     --command TEXT     the command recorded above the tables [python3 validation/compare.py ...]
#     --commit REV       the commit recorded with them [git rev-parse --short HEAD]
#     --group REGEX      a program's group is the regex's first group on its name, e.g. the size of
#                        "mini.gemm" with the default ^([^.]+)\. ; programs without one form no group
#     --compact          instead of the wide tables: issue 38's metrics (Spearman's rho by slope and by
#                        slowdown, median and 90th percentile |slope error|, median |time error at the
#                        lowest latency|, programs over +-50 %) for the sampled model and --exact, per
#                        group, against the targets; issue 37's sampled against exact; the per-program
#                        table in a collapsed <details> block
#     --marker NAME      --update-doc writes between <!-- NAME:begin --> and <!-- NAME:end --> [validation]
# Python 3 standard library only. Errors: a message and exit status 2.
import json
import math
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BEGIN, END = "<!-- validation:begin -->", "<!-- validation:end -->"


def die(msg):
    sys.stderr.write("compare.py: %s\n" % msg)
    sys.exit(2)


def lsq_slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def ranks(vals):
    """Average ranks (1 = smallest), ties sharing the mean of their positions."""
    order = sorted(range(len(vals)), key=lambda i: vals[i])
    r = [0.0] * len(vals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and vals[order[j + 1]] == vals[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    """Spearman's rho (Pearson on average ranks) and the mean |rank difference|; None below 3 points."""
    if len(a) < 3:
        return None, None
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    rho = cov / (va * vb) if va > 0 and vb > 0 else None
    return rho, sum(abs(x - y) for x, y in zip(ra, rb)) / n


def fmt(v, digits=3):
    if v is None:
        return "–"
    if isinstance(v, str):
        return v
    if v == 0:
        return "0"
    if abs(v) >= 10 ** digits or abs(v) < 10 ** -2:
        return "%.*g" % (digits, v)
    return "%.*g" % (max(digits, len(str(int(abs(v))))), v)


def pct(v):
    return "–" if v is None else "%+.1f" % v


def analyse(sweep):
    lats_all = [float(x) for x in sweep["latencies"]]
    rows = []
    for p in sweep["programs"]:
        r = {"name": p["name"], "kernel": p["kernel"], "source": p.get("time_source"),
             "notes": list(p.get("notes") or [])}
        pts = sorted((float(l), v["seconds"]) for l, v in p["gem5"].items() if v.get("seconds") is not None)
        r["n_lat"] = len(pts)
        if len(pts) >= 2:
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            r["lo"], r["hi"] = xs[0], xs[-1]
            r["t_lo"], r["t_hi"] = ys[0], ys[-1]
            r["slope"] = lsq_slope(xs, [y * 1e9 for y in ys])  # ns of time per ns of latency
            r["slowdown"] = ys[-1] / ys[0] if ys[0] > 0 else None
            if len(pts) < len(lats_all):
                r["notes"].append("gem5 at %d of %d latencies" % (len(pts), len(lats_all)))
        else:
            r["slope"] = r["slowdown"] = None
            r["notes"].append("gem5: %d latenc%s measured" % (len(pts), "y" if len(pts) == 1 else "ies"))
        lam = p.get("lambda")
        kin = {v.get("kernel_insts") for v in p["gem5"].values()} - {None}
        if lam and kin and any(abs(k - lam["vertices"]) > 0.01 * lam["vertices"] for k in kin):
            r["notes"].append("gem5 committed %s instructions in the kernel's own code, edan traced %d "
                              "(callees included)" % ("/".join(str(k) for k in sorted(kin)), lam["vertices"]))
        r["lambda"] = lam["lambda"] if lam else None
        r["Lambda"] = lam["Lambda"] if lam else None
        r["W"], r["D"] = (lam["W"], lam["D"]) if lam else (None, None)
        for prefix, key in (("", "model"), ("x_", "model_exact")):
            model_columns(r, pts, p.get(key), prefix)
        sampled_against_exact(r, p.get("model"), p.get("model_exact"))
        rows.append(r)
    return rows


def model_columns(r, pts, m, prefix):
    """The model's slope, slowdown and errors against gem5 in r, keys prefixed by prefix ("" for the
    sampled model, the sweep's "model"; "x_" for --exact, its "model_exact")."""
    for k in ("m_slope", "m_slowdown", "slope_err", "time_err"):
        r[prefix + k] = None
    if m and "missing" not in m and r["slope"] is not None:
        by = {float(l): v["seconds"] for l, v in m["by_latency"].items()}
        common = [x for x, _ in pts if x in by]
        if len(common) >= 2:
            r[prefix + "m_slope"] = lsq_slope(common, [by[x] * 1e9 for x in common])
            r[prefix + "m_slowdown"] = by[common[-1]] / by[common[0]] if by[common[0]] > 0 else None
        else:
            r[prefix + "m_slope"], r[prefix + "m_slowdown"] = m.get("slope_ns_per_ns"), m.get("slowdown")
            r["notes"].append("model: not at the measured latencies; its own slope and slowdown")
        if r[prefix + "m_slope"] is not None and r["slope"]:
            r[prefix + "slope_err"] = (r[prefix + "m_slope"] - r["slope"]) / abs(r["slope"]) * 100
        if r["lo"] in by and r["t_lo"]:
            r[prefix + "time_err"] = (by[r["lo"]] - r["t_lo"]) / r["t_lo"] * 100
    elif m and "missing" in m and not prefix:
        r["notes"].append("model: " + m["missing"])


def sampled_against_exact(r, s, x):
    """Issue 37's check of the sampled model against --exact on one program: the largest relative
    difference of the predicted time over the latencies, that of the slope, whether the sampled 95 %
    interval holds the exact cycles at every latency and the exact slope, and the latencies where it
    does not (None when either record is missing). Only two records of one trace are compared (sweep.py
    records the region once and analyses it in both modes): two runs of a program may differ (GAPBS's
    by up to 0.01 %), which the interval, of the sampling alone, does not describe; a pair of two traces
    (or of records without one) sets r["sx_separate"] and is left out."""
    r["sx_time"] = r["sx_slope"] = r["sx_covered"] = r["sx_slope_covered"] = None
    r["sx_separate"], r["sx_misses"] = False, []
    if not s or not x or "missing" in s or "missing" in x:
        return
    if s.get("trace") is None or s.get("trace") != x.get("trace"):
        r["sx_separate"] = True
        return
    bs, bx = s["by_latency"], x["by_latency"]
    lats = sorted((l for l in bs if l in bx), key=float)
    if not lats:
        return
    r["sx_time"] = max(abs(bs[l]["cycles"] - bx[l]["cycles"]) / bx[l]["cycles"] * 100
                       for l in lats if bx[l]["cycles"])
    if len(lats) >= 2:
        xs = [float(l) for l in lats]
        ss, sx = lsq_slope(xs, [bs[l]["seconds"] for l in lats]), lsq_slope(xs, [bx[l]["seconds"] for l in lats])
        r["sx_slope"] = abs(ss - sx) / abs(sx) * 100 if sx else None
    smp = s.get("sampling")
    if smp and smp.get("cycles_low") is not None:
        order = sorted(bs, key=float)  # the interval's arrays follow the latencies in order
        lo, hi = smp["cycles_low"], smp["cycles_high"]
        if len(lo) == len(order) == len(hi):
            for i, l in enumerate(order):
                if l not in bx:
                    continue
                c, half = bx[l]["cycles"], (hi[i] - lo[i]) / 2
                if not lo[i] <= c <= hi[i]:  # how far outside, in half-widths from the estimate
                    r["sx_misses"].append("@%g ns %+.2f" % (float(l), (c - bs[l]["cycles"]) / half if half else math.inf))
            r["sx_covered"] = not r["sx_misses"]
        hw, a, b = smp.get("slope_half_width"), s.get("slope_ns_per_ns"), x.get("slope_ns_per_ns")
        if hw is not None and a is not None and b is not None:
            r["sx_slope_covered"] = abs(a - b) <= hw
            if not r["sx_slope_covered"]:
                r["sx_misses"].append("slope %+.2f" % ((b - a) / hw if hw else math.inf))


def p90(vals):
    """The 90th percentile of vals, linear between the closest ranks (numpy's default, R's type 7)."""
    if len(vals) < 2:
        return vals[0] if vals else None
    return statistics.quantiles(vals, n=10, method="inclusive")[8]


# Issue 38's targets per machine, over at least 50 programs.
TARGETS = {"rho": 0.95, "median_slope": 5.0, "p90_slope": 25.0, "median_time": 10.0, "over": 50.0}


def metrics(rows, prefix=""):
    """Issue 38's metrics of the model (prefix "" sampled, "x_" exact) over the rows with gem5 and
    model values: n, Spearman's rho by slope and by slowdown, median and 90th percentile of |slope
    error|, median |time error at the lowest latency|, and the programs over +-50 % in slope error
    and in time error."""
    sl = [(r["slope"], r[prefix + "m_slope"]) for r in rows
          if r["slope"] is not None and r[prefix + "m_slope"] is not None]
    sd = [(r["slowdown"], r[prefix + "m_slowdown"]) for r in rows
          if r["slowdown"] is not None and r[prefix + "m_slowdown"] is not None]
    se = [abs(r[prefix + "slope_err"]) for r in rows if r[prefix + "slope_err"] is not None]
    te = [abs(r[prefix + "time_err"]) for r in rows if r[prefix + "time_err"] is not None]
    return {"n": len(sl), "rho_slope": spearman([a for a, _ in sl], [b for _, b in sl])[0],
            "rho_slowdown": spearman([a for a, _ in sd], [b for _, b in sd])[0],
            "median_slope": statistics.median(se) if se else None, "p90_slope": p90(se),
            "median_time": statistics.median(te) if te else None,
            "n_slope_err": len(se), "n_time_err": len(te),
            "over_slope": sum(1 for v in se if v > TARGETS["over"]),
            "over_time": sum(1 for v in te if v > TARGETS["over"])}


def metrics_table(rows, groups=()):
    """Issue 38's metrics, a row per model mode (and per group), with the targets' row."""
    out = ["| programs | model | n | ρ by slope | ρ by slowdown | median \\|slope err\\| | 90th pct "
           "\\|slope err\\| | median \\|time err @lo\\| | over ±50 % (slope / time) |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    t = TARGETS
    for label, rs in [("all", rows)] + list(groups):
        for mode, prefix in (("sampled", ""), ("exact", "x_")):
            m = metrics(rs, prefix)
            if not m["n"]:
                continue
            out.append("| %s | %s | %d | %s | %s | %s | %s | %s | %d / %d |" % (
                label, mode, m["n"], rho_cell(m["rho_slope"], t["rho"]), rho_cell(m["rho_slowdown"], t["rho"]),
                pct_cell(m["median_slope"], t["median_slope"]), pct_cell(m["p90_slope"], t["p90_slope"]),
                pct_cell(m["median_time"], t["median_time"]), m["over_slope"], m["over_time"]))
    out.append("| *target* | | ≥ 50 | ≥ %.2f | ≥ %.2f | ≤ %g %% | ≤ %g %% | ≤ %g %% | 0 (validation machine) |"
               % (t["rho"], t["rho"], t["median_slope"], t["p90_slope"], t["median_time"]))
    return out


def rho_cell(v, target):
    return "–" if v is None else ("**%.2f**" if v >= target else "%.2f") % v


def pct_cell(v, target):
    return "–" if v is None else ("**%s %%**" if v <= target else "%s %%") % fmt(v)


def sampled_exact_table(rows):
    """Issue 37's check, sampled against --exact on the same programs, each on one trace: the median and
    worst difference of time and of slope, the share of programs whose interval holds the exact
    cycles and the exact slope, and the programs where it does not (how far outside, in half-widths)."""
    tx = [r["sx_time"] for r in rows if r["sx_time"] is not None]
    sx = [r["sx_slope"] for r in rows if r["sx_slope"] is not None]
    cov = [r["sx_covered"] for r in rows if r["sx_covered"] is not None]
    scov = [r["sx_slope_covered"] for r in rows if r["sx_slope_covered"] is not None]
    sep = sum(1 for r in rows if r.get("sx_separate"))
    if not tx:
        return ["%d programs have both modes' records, none of one trace: no sampled-against-exact check "
                "(sweep.py --model-mode sampled,exact records each region once)." % sep] if sep else []
    misses = ["%s (%s)" % (r["name"], ", ".join(r["sx_misses"])) for r in rows if r["sx_misses"]]
    return ["| sampled against `--exact` (every program with both, on one trace, measured in gem5 or not) | n "
            "| median | worst |", "|---|---:|---:|---:|",
            "| \\|time difference\\| (largest over the latencies) | %d | %s %% | %s %% |"
            % (len(tx), fmt(statistics.median(tx)), fmt(max(tx))),
            "| \\|slope difference\\| | %d | %s %% | %s %% |"
            % (len(sx), fmt(statistics.median(sx)) if sx else "–", fmt(max(sx)) if sx else "–"),
            "",
            "The sampled 95 %% interval holds the exact cycles at every latency in %d of %d programs, the exact "
            "slope in %d of %d (targets: 2 %% median, 5 %% worst, 95 %% covered)%s%s" % (
                sum(cov), len(cov), sum(scov), len(scov),
                "; %d pair%s of two traces left out" % (sep, "" if sep == 1 else "s") if sep else "",
                ". Outside (the exact value's distance from the estimate in half-widths): " + "; ".join(misses) + "."
                if misses else ".")]


def ranking_table(rows, title):
    out = ["| %s | n | ρ by slope | mean \\|Δrank\\| | ρ by slowdown | mean \\|Δrank\\| |" % title,
           "|---|---:|---:|---:|---:|---:|"]
    for label, by_slope, by_slow in (("model", "m_slope", "m_slowdown"), ("λ", "lambda", "lambda"),
                                     ("Λ", "Lambda", "Lambda")):
        cells = []
        ns = set()
        for meas, pred in (("slope", by_slope), ("slowdown", by_slow)):
            pts = [(r[meas], r[pred]) for r in rows if r[meas] is not None and r[pred] is not None]
            rho, mad = spearman([a for a, _ in pts], [b for _, b in pts])
            ns.add(len(pts))
            cells += ["%.2f" % rho if rho is not None else "–", "%.2f" % mad if mad is not None else "–"]
        out.append("| %s | %s | %s |" % (label, "/".join(str(n) for n in sorted(ns)), " | ".join(cells)))
    return out


def compact_table(rows):
    """The per-program table in few columns, inside a collapsed <details> block: gem5's slope and
    slowdown, the model's errors sampled and (after a slash, when measured) exact."""
    def both(r, k):
        a, b = pct(r[k]), r["x_" + k]
        return a if b is None else "%s / %s" % (a, pct(b))
    out = ["<details><summary>Per program (%d)</summary>" % len(rows), "",
           "| program | time | t(lo) µs | slope ns/ns | model slope | slope err % | slowdown | model "
           "slowdown | time err @lo % |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["source"] or "–", fmt(r.get("t_lo") and r["t_lo"] * 1e6), fmt(r["slope"]),
            fmt(r["m_slope"]), both(r, "slope_err"), fmt(r["slowdown"], 4), fmt(r["m_slowdown"], 4),
            both(r, "time_err")))
    out += ["", "Errors: the sampled model's (edan's default), then `--exact`'s after the slash.", "",
            "</details>"]
    return out


def tables(sweep, group_re, compact=False):
    rows = analyse(sweep)
    lats = ", ".join(fmt(float(x)) for x in sweep["latencies"])
    out = ["Machine `%s`; memory latencies %s ns; λ and Λ with `--cache=%s --m=%d`."
           % (os.path.basename(sweep["machine"]), lats, sweep["cache"], sweep["m"]), ""]
    srcs = sorted({r["source"] for r in rows if r["source"]})
    if "trace" in srcs:
        out += ["Programs whose time source is `trace` are timed from gem5's commit trace: from the first "
                "committed instruction of the kernel's symbol to the last before the commit at the return "
                "address of its call (what it tail-calls included), plus one cycle.", ""]
    if "simseconds" in srcs:
        out += ["Programs whose time source is `simseconds` are timed by gem5's simulated seconds of the "
                "whole program (set-up included), not of the kernel that edan traces.", ""]
    if compact:
        return compact_tables(sweep, rows, out, group_re)
    out += ["| program | kernel | time | t(lo) µs | t(hi) µs | slope ns/ns | slowdown | model slope | "
            "slope err % | model slowdown | time err @lo % | λ | λ / slope | Λ | W | D |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ratio = r["lambda"] / r["slope"] if r["lambda"] is not None and r["slope"] else None
        out.append("| %s | `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["name"], r["kernel"], r["source"] or "–",
            fmt(r.get("t_lo") and r["t_lo"] * 1e6), fmt(r.get("t_hi") and r["t_hi"] * 1e6),
            fmt(r["slope"]), fmt(r["slowdown"], 4), fmt(r["m_slope"]), pct(r["slope_err"]),
            fmt(r["m_slowdown"], 4), pct(r["time_err"]), fmt(r["lambda"]), fmt(ratio), fmt(r["Lambda"]),
            fmt(r["W"]), fmt(r["D"])))
    out.append("")
    out += ranking_table(rows, "all programs")
    for g, grows in group_rows(rows, group_re):
        out.append("")
        out += ranking_table(grows, "group %s" % g)
    m = metrics(rows)
    out.append("")
    if m["n_slope_err"] or m["n_time_err"]:
        out.append("Model magnitude: median |slope error| %s %% over %d programs (90th percentile %s %%); "
                   "median |time error at the lowest latency| %s %% over %d programs; over ±50 %%: %d "
                   "by slope, %d by time."
                   % (fmt(m["median_slope"]) if m["n_slope_err"] else "–", m["n_slope_err"],
                      fmt(m["p90_slope"]), fmt(m["median_time"]) if m["n_time_err"] else "–",
                      m["n_time_err"], m["over_slope"], m["over_time"]))
    elif not sweep.get("model_supported"):
        out.append("Model columns: pending (this edan has no `--machine`/`--mem-latency`).")
    else:
        out.append("Model columns: pending (edan's JSON has no `prediction` object for these programs).")
    notes = [(r["name"], n) for r in rows for n in r["notes"]
             if not n.startswith("model: edan has no")]
    if notes or sweep.get("failures"):
        out += ["", "Notes:", ""]
        out += ["- %s: %s" % nn for nn in notes]
        out += ["- failed: %s" % f.replace("\n", " ") for f in sweep.get("failures") or []]
    return out


def group_rows(rows, group_re):
    groups = {}
    if group_re:
        for r in rows:
            m = re.search(group_re, r["name"])
            if m and m.groups():
                groups.setdefault(m.group(1), []).append(r)
    return [("`%s`" % g, groups[g]) for g in sorted(groups) if len(groups[g]) < len(rows)]


def compact_tables(sweep, rows, head, group_re):
    """--compact: issue 38's metrics per model mode and group against the targets, issue 37's sampled
    against exact, then the per-program table collapsed."""
    done = sum(1 for r in rows if r["slope"] is not None)
    out = head + ["gem5 measured at every latency: %d of %d programs." % (done, len(rows)), ""]
    if done:
        out += metrics_table(rows, group_rows(rows, group_re)) + [""]
    sx = sampled_exact_table(rows)
    if sx:
        out += sx + [""]
    if done:
        out += compact_table([r for r in rows if r["slope"] is not None])
    notes = [(r["name"], n) for r in rows for n in r["notes"] if r["slope"] is not None
             and not n.startswith("model: edan has no") and "instructions in the kernel's own code" not in n]
    if notes or sweep.get("failures"):
        out += ["", "Notes:", ""]
        out += ["- %s: %s" % nn for nn in notes]
        out += ["- failed: %s" % f.replace("\n", " ") for f in sweep.get("failures") or []]
    return out


def update_doc(path, body, begin=BEGIN, end=END):
    """The lines body between the lines begin and end of the file path (each once, in that order)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        die("%s: needs one line %s and, after it, one line %s" % (path, begin, end))
    a, b = text.index(begin) + len(begin), text.index(end)
    new = text[:a] + "\n" + "\n".join(body) + "\n" + text[b:]
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(new)
    os.replace(tmp, path)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="gem5 sweep against edan's predictions (see the header)")
    ap.add_argument("--results", default=os.path.join(ROOT, "build", "validation", "results.json"))
    ap.add_argument("--update-doc")
    ap.add_argument("--command", default=None)
    ap.add_argument("--commit", default=None)
    ap.add_argument("--group", default=r"^([^.]+)\.")
    ap.add_argument("--compact", action="store_true")
    ap.add_argument("--marker", default="validation")
    a = ap.parse_args(argv)
    try:
        with open(a.results, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        die("%s: %s (run validation/sweep.py first)" % (a.results, e.strerror))
    except ValueError as e:
        die("%s: not JSON: %s" % (a.results, e))
    sweep = data.get("sweep") if isinstance(data, dict) else None
    if not sweep or not sweep.get("programs"):
        die("%s: no sweep recorded (run validation/sweep.py first)" % a.results)
    try:
        re.compile(a.group)
    except re.error as e:
        die("--group: %s" % e)
    body = tables(sweep, a.group, a.compact)
    if a.update_doc:
        commit = a.commit
        if commit is None:
            commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    text=True).stdout.strip() or "unknown"
        cmd = a.command or "python3 validation/compare.py " + " ".join(argv)
        head = ["", "Generated by `%s` at commit `%s`." % (cmd, commit), ""]
        update_doc(a.update_doc, head + body + [""], "<!-- %s:begin -->" % a.marker,
                   "<!-- %s:end -->" % a.marker)
    else:
        print("\n".join(body))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
