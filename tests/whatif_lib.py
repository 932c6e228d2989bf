#!/usr/bin/env python3
"""What the what-if tests share (whatif_test.py, whatif_machine_test.py): the stencils' binaries, tiles and cache
sizes, the projection of a run, and the checks of the what-if's rows against measured traffic."""
import csv
import json
import os

from realrun_lib import EX, check, edan, share, validate_schema


MACHINES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "machines")
GEM5 = os.path.join(MACHINES, "gem5-validation.ini")
STENCILS = os.path.join(EX, "stencils")
STENCILS_PC = os.path.join(EX, "stencils_pc")
TILES = [4, 8, 16, 32]
CACHES = [8192, 16384, 32768, 65536]
# The hand-blocked stencils' nests (kernel, n, levels blocked): blocking, timing, assoc and assoc_sweep run each. In the
# sanitizer build (EDAN_TEST_SANITIZED=1) the 7-point and the 5-point ones: the 27-point stencil's nest is blocked
# in the same two levels as the 7-point one's, through the same code; the normal build checks all three.
STENCIL_NESTS = share((("st7", 40, "2,3"), ("st27", 32, "2,3"), ("st5", 256, "2")), every=2)


def projection(kernel, *args, opts=(), binary=STENCILS):
    p = edan("run", "--json", "--filter=" + kernel, "--projection", "--machine=" + GEM5, *opts, binary, kernel,
             *map(str, args))
    check(p.returncode == 0, f"edan run stencils {kernel}: exit {p.returncode}: {p.stderr}")
    r = json.loads(p.stdout.strip().splitlines()[-1])
    validate_schema(r, f"stencils {kernel}")
    return r["projection"]


def measured(curve, cache):
    i = curve["cache_bytes"].index(cache)
    return curve["read_bytes"][i] + curve["write_bytes"][i]


def read_csv(path):
    """The what-if's CSV: the plans' rows, and the "as run" rows (the nests as they ran, after each cache's plans)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [x for x in rows if x["scheme"] != "as run"], [x for x in rows if x["scheme"] == "as run"]


def check_unblocked(label, w, caches, as_run_csv=None):
    """The nests as they ran, per cache: their traffic the rows' as_run_dram_bytes, time_s ExaSAT's bound of it plus
    exposed_s (as each row's), best when no legal row is faster; with the LRU caches (no cache_model, time "bound")
    nothing is exposed. as_run_csv: the CSV's "as run" rows, one per cache, against them (the plans' columns: no
    tile, legal, no halo, nothing added)."""
    check([u["cache_bytes"] for u in w["unblocked"]] == caches, f"{label}: unblocked per cache {w['unblocked']}")
    check(w["time"] == ("bound+exposed" if w["cache_model"] else "bound"), f"{label}: time {w['time']}")
    if as_run_csv is not None:
        check(len(as_run_csv) == len(caches), f"{label}: one CSV as-run row per cache: {as_run_csv}")
        for c, u in zip(as_run_csv, w["unblocked"]):
            x = next(x for x in w["rows"] if x["cache_bytes"] == u["cache_bytes"])
            check(float(c["cache_bytes"]) == u["cache_bytes"] and c["tile"] == "0" and c["legal"] == "1" and
                  abs(float(c["traffic_gb"]) * 1e9 - u["dram_bytes"]) <= 1e-6 * u["dram_bytes"] and
                  abs(float(c["time_ms"]) * 1e-3 - u["time_s"]) <= 1e-5 * u["time_s"] and
                  (c["best"] == "1") == u["best"] and
                  abs(float(c["as_run_traffic_gb"]) * 1e9 - x["as_run_dram_bytes"]) <= 1e-6 * u["dram_bytes"] and
                  abs(float(c["weighted_gflop"]) * 1e9 - x["weighted_flops"] + x["halo_weighted_flops"]) <=
                  1e-6 * x["weighted_flops"] and c["bound"] in ("memory", "compute") and
                  float(c["halo_iterations"]) == float(c["added_instructions"]) == 0 and c["illegal_reason"] == "",
                  f"{label}: CSV as-run row {c} against JSON {u}")
    for u in w["unblocked"]:
        rows = [x for x in w["rows"] if x["cache_bytes"] == u["cache_bytes"]]
        legal = [x for x in rows if x["legal"]]
        check(all(x["as_run_dram_bytes"] == u["dram_bytes"] for x in rows), f"{label}: unblocked {u} against {rows}")
        check(u["best"] == all(u["time_s"] <= x["time_s"] for x in legal), f"{label}: unblocked best {u}")
        for x in legal + [u]:
            check(x["exposed_s"] >= 0 and (w["cache_model"] or x["exposed_s"] == 0), f"{label}: exposed {x}")
        # the bound is the same function of traffic for both (the region's flops; a row's halo adds its own)
        for x in legal:
            if x["halo_iterations"] == 0 and x["dram_bytes"] == u["dram_bytes"]:
                check(abs((x["time_s"] - x["exposed_s"]) - (u["time_s"] - u["exposed_s"])) <= 1e-9 * u["time_s"],
                      f"{label}: equal traffic, equal bound: {x} {u}")


def check_tiles(label, rows, meas, by_traffic=False):
    """Each cache's predicted traffic per tile within 10 % of the hand-blocked builds' (meas: tile -> their
    traffic curves), and the predicted best tile the measured one; the worst relative error. by_traffic: the tile
    of least predicted traffic (the cache model's best adds the loads' exposed latency to the bound)."""
    worst = 0.0
    for cache in CACHES:
        pred = {x["tile"]: x for x in rows if x["cache_bytes"] == cache}
        for t in TILES:
            m = measured(meas[t], cache)
            e = (pred[t]["dram_bytes"] - m) / m
            worst = max(worst, abs(e))
            check(abs(e) <= 0.10, f"{label} tile {t} cache {cache}: predicted {pred[t]['dram_bytes']:.0f}, "
                  f"measured {m} ({100 * e:+.1f} %)")
        best_pred = [t for t in TILES if pred[t]["best"]]
        if by_traffic:
            best_pred = [min(TILES, key=lambda t: (pred[t]["dram_bytes"], t))]
        best_meas = min(TILES, key=lambda t: (measured(meas[t], cache), t))
        check(best_pred == [best_meas], f"{label} cache {cache}: best tile predicted {best_pred}, "
              f"measured {best_meas}")
    return worst
