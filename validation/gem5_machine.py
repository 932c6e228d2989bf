# gem5 (v22.1) configuration built from an edan machine description (machines/*.ini), so that the
# simulator and edan's timing model read one description of the machine.
#
#   gem5.opt -q --outdir=DIR validation/gem5_machine.py --machine machines/gem5-validation.ini \
#       [--latency NS] [--cpu o3|timing] [--stats-window T0,T1] -- BINARY [ARGS...]
#   python3 validation/gem5_machine.py --machine FILE --check    (no gem5: check the file, print the plan)
#
# Syscall emulation of one static RISC-V binary on: [machine] clock_ghz; a RiscvO3CPU whose widths,
# reorder buffer and load/store queues come from [core]; L1i, L1d, L2 (and [l3] if present) classic
# caches from their sections; a SimpleMemory with latency --latency (default [memory] latency_ns) and
# bandwidth [memory] bandwidth_gbs x 10^9 bytes/s, or with [dram] in place of [memory] one MemCtrl a
# channel, each with a DRAMInterface of the section's values (a DDR4_2400_8x8 for what the section does
# not give: device size, the rank switch tCS, power), channels interleaved as gem5's MemConfig does, and
# --latency (default [dram] link_latency_ns) added to each controller's static_frontend_latency, so
# that it adds to every read's response as edan's model adds it. With machines/gem5-validation.ini this is the system
# of validation/gem5_latency.py (the EDAN paper's validation machine); the one documented
# difference is the bandwidth unit (gem5 reads "16GB/s" as 16 GiB/s, the machine file means 10^9 B/s).
#
# Keys gem5 has no parameter for, or that this script leaves at gem5's defaults, are checked: the
# [latency] cycles, the divider units and their [issue_interval] against the functional-unit pool (O3's unpipelined
# units are busy for their opLat, MinorCPU's for their issueLat), frontend_cycles against the O3 stage
# delays, fetch_taken_limit against O3's fetch (it ends a cycle at a predicted-taken branch: 1),
# write/alloc against the classic cache (write-back, write-allocate); fetch_block_bytes sets the
# fetch buffer (fetchBufferSize), mshr_targets each cache's tgts_per_mshr. A file that asks for
# anything else is refused with exit status 2. [core] predictor: tournament is gem5's TournamentBP
# (global and choice tables of predictor_entries, local ones a quarter), bimodal its LocalBP (2-bit
# counters by pc); mispredict_penalty and serialize_cycles have no gem5 parameter and are reported,
# not set.
# [l1d.prefetcher], [l2.prefetcher], [l3.prefetcher] attach gem5's StridePrefetcher (its PC table LRU,
# as the model's) or TaggedPrefetcher to that cache with the file's degree, latency, queue_size and
# table; mshr_reserve is the cache's demand_mshr_reserve, on_access its prefetch_on_access, and
# prefetch_on_pf_hit is set: a prefetcher trains on misses and on the first use of a line it brought,
# the model's rule (docs/model.md).
# [core] model = inorder (optional; o3 when not given) builds a RiscvMinorCPU in place of the O3CPU: its
# decode and execute input widths from dispatch_width, executeIssueLimit from issue_width, executeCommitLimit
# from commit_width, executeMaxAccessesInMemory and executeLSQTransfersQueueSize from lq_entries,
# executeLSQStoreBufferSize from sq_entries, fetch1LineWidth from fetch_block_bytes; the [latency] cycles, the
# divider units, rob_entries (its in-flight queue), frontend_cycles and fetch_width are checked against
# MinorCPU's functional units and stage delays, store_set_bytes must be 0 (minor_plan()).
# After m5.simulate() the script prints "EXIT <cause> code=<status> ticks=<tick>".
# A region's pipeline trace, to compare with edan's --schedule-dump (validation/pipeview.py): gem5.opt's own
# options before the script, gem5.opt --debug-flags=O3PipeView --debug-file=trace.out [--debug-start=TICK]
# [--debug-end=TICK] -q --outdir=DIR validation/gem5_machine.py --machine FILE -- BINARY (docs/accuracy.md).
import argparse
import configparser
import re
import sys

# Every key the machine format has, per section (an unknown key is an error, as in edan's parser).
SECTIONS = {
    "machine": {"name", "description", "clock_ghz", "pages", "page_zeroing"},
    "core": {"model", "fetch_width", "dispatch_width", "issue_width", "commit_width", "rob_entries",
             "lq_entries", "sq_entries", "iq_entries", "frontend_cycles", "fetch_taken_limit", "fetch_block_bytes",
             "mispredict_penalty", "serialize_cycles",
             "predictor", "predictor_entries", "int_div_units", "fp_div_units", "store_set_bytes"},
    "latency": {"int", "mul", "div", "fadd", "fmul", "ffma", "fdiv", "fsqrt", "branch"},
    # cycles a divider is busy per operation (optional; each key the class's latency when not given)
    "issue_interval": {"div", "fdiv", "fsqrt"},
    "l1i": {"size", "line", "ways", "hit_latency", "mshrs", "mshr_targets"},
    "l1d": {"size", "line", "ways", "hit_latency", "mshrs", "mshr_targets", "write", "alloc"},
    "l2": {"size", "line", "ways", "hit_latency", "mshrs", "mshr_targets", "write", "alloc"},
    "l3": {"size", "line", "ways", "hit_latency", "mshrs", "mshr_targets", "write", "alloc"},
    "memory": {"latency_ns", "bandwidth_gbs"},
    # the model's data TLB (optional): gem5_machine.py refuses it (the runs here give gem5 no TLB timing to match)
    "dtlb": {"entries", "ways", "l2_entries", "l2_ways", "l2_hit_cycles", "walk_cycles"},
    # DRAM timing in place of [memory] (docs/machines.md): gem5's DRAMInterface and MemCtrl
    "dram": {"channels", "ranks", "banks", "bank_groups", "devices_per_rank", "device_bus_width", "burst_length",
             "device_rowbuffer_size", "tck_ns", "tburst_ns", "tccd_l_ns", "trcd_ns", "tcl_ns", "trp_ns", "tras_ns",
             "twr_ns", "trtp_ns", "trtw_ns", "twtr_ns", "trrd_ns", "trrd_l_ns", "txaw_ns", "activation_limit",
             "trfc_ns", "trefi_ns", "read_queue", "write_queue", "write_high_percent",
             "write_low_percent", "min_writes_per_switch", "page_policy", "address_map", "scheduler", "frontend_ns",
             "backend_ns", "link_latency_ns"},
    # ExaSAT's machine model for edan's --projection; gem5 has nothing to build from it
    "projection": {"peak_gflops", "cores", "div_weight", "sqrt_weight", "transcendental_weight"},
}
# A data cache's prefetcher ([l1d.prefetcher], ...): keys of every type, and those of the stride one only.
PREFETCH_KEYS = {"type", "degree", "latency", "queue_size", "mshr_reserve", "on_access"}
STRIDE_KEYS = {"table_entries", "table_assoc", "confidence_bits", "initial_confidence", "confidence_threshold"}
for _lv in ("l1d", "l2", "l3"):
    SECTIONS[_lv + ".prefetcher"] = PREFETCH_KEYS | STRIDE_KEYS
OPTIONAL_SECTIONS = {"l3", "l1d.prefetcher", "l2.prefetcher", "l3.prefetcher", "issue_interval", "dtlb"}
# keys a file may leave out (as edan's parser): [core] model, o3 when not given; each [issue_interval] key
OPTIONAL_KEYS = {"machine": {"pages", "page_zeroing"}, "core": {"model"}, "issue_interval": SECTIONS["issue_interval"]}
# prefetcher type -> gem5 v22.1 SimObject (src/mem/cache/prefetch/Prefetcher.py)
PREFETCHER_CLASS = {"stride": "StridePrefetcher", "tagged": "TaggedPrefetcher"}
# exactly one of these: the memory model
MEMORY_SECTIONS = ("memory", "dram")
DRAM_WORDS = {"page_policy": ("open", "open_adaptive", "close", "close_adaptive"),
              "address_map": ("RoRaBaCoCh", "RoRaBaChCo", "RoCoRaBaCh"), "scheduler": ("frfcfs", "fcfs")}
# [dram] integers that may be 0
DRAM_ZERO_OK = {"bank_groups", "write_low_percent", "activation_limit"}
# [dram] times that may be 0 (tCK and tBURST may not)
DRAM_NS_ZERO_OK = {"tccd_l_ns", "trcd_ns", "tcl_ns", "trp_ns", "tras_ns", "twr_ns", "trtp_ns", "trtw_ns", "twtr_ns",
                   "trrd_ns", "trrd_l_ns", "txaw_ns",
                   "frontend_ns", "backend_ns", "link_latency_ns"}

# [latency] class -> gem5 OpClass whose functional-unit latency it must equal (RISC-V branches
# decode as IntAlu in gem5).
LATENCY_OPCLASS = {"int": "IntAlu", "mul": "IntMult", "div": "IntDiv", "fadd": "FloatAdd",
                   "fmul": "FloatMult", "ffma": "FloatMultAcc", "fdiv": "FloatDiv",
                   "fsqrt": "FloatSqrt", "branch": "IntAlu"}

# gem5 v22.1 DefaultFUPool latencies (src/cpu/o3/FuncUnitConfig.py), used by --check without gem5.
GEM5_DEFAULT_OPLAT = {"IntAlu": 1, "IntMult": 3, "IntDiv": 20, "FloatAdd": 2, "FloatMult": 4,
                      "FloatMultAcc": 5, "FloatDiv": 12, "FloatSqrt": 24}

# gem5 v22.1 DefaultFUPool: functional units that serve the dividers' classes (IntMultDiv x2,
# FP_MultDiv x2); [core] int_div_units and fp_div_units must equal them.
GEM5_DEFAULT_UNITS = {"IntDiv": 2, "FloatDiv": 2, "FloatSqrt": 2}
DIV_UNITS = {"int_div_units": ("IntDiv",), "fp_div_units": ("FloatDiv", "FloatSqrt")}

# O3 stage delays from fetch to execute: fetchToDecode + decodeToRename + renameToIEW + issueToExecute.
FRONTEND_DELAYS = ("fetchToDecodeDelay", "decodeToRenameDelay", "renameToIEWDelay",
                   "issueToExecuteDelay")
# O3 delays from the commit of a serializing instruction (IsSerializeAfter: a CSR access, ecall,
# fence.i; a store-conditional) to the dispatch of the next, which waits at rename for it to commit.
SERIALIZE_DELAYS = ("commitToRenameDelay", "renameToIEWDelay", "issueToExecuteDelay")
GEM5_DEFAULT_DELAYS = {"fetchToDecodeDelay": 1, "decodeToRenameDelay": 1, "renameToIEWDelay": 2,
                       "issueToExecuteDelay": 1, "commitToRenameDelay": 1}


# gem5 v22.1 MinorDefaultFUPool (src/cpu/minor/BaseMinorCPU.py): (op classes, opLat, issueLat, the last of its
# timing's srcRegsRelativeLats: how early the unit's users read their operands), for --check without gem5.
MINOR_DEFAULT_FUS = (
    (("IntAlu",), 3, 1, 2), (("IntAlu",), 3, 1, 2), (("IntMult",), 3, 1, 0), (("IntDiv",), 9, 9, 0),
    (("FloatAdd", "FloatCmp", "FloatCvt", "FloatMisc", "FloatMult", "FloatMultAcc", "FloatDiv", "FloatSqrt"), 6, 1, 2),
    (("SimdPredAlu",), 3, 1, 2), (("MemRead", "MemWrite", "FloatMemRead", "FloatMemWrite"), 1, 1, 1),
    (("IprAccess", "InstPrefetch"), 1, 1, 0))
# MinorCPU's stage delays from fetch to execute
MINOR_FRONTEND_DELAYS = ("fetch1ToFetch2ForwardDelay", "fetch2ToDecodeForwardDelay", "decodeToExecuteForwardDelay")
MINOR_DEFAULT_DELAYS = {d: 1 for d in MINOR_FRONTEND_DELAYS}


class MachineError(Exception):
    pass


def issue_interval(machine, cls):
    """Cycles a unit of class cls (div, fdiv, fsqrt) is busy per operation: [issue_interval] cls, or the class's
    latency when the file gives none (edan's edan_machine_issue_interval())."""
    return machine.get("issue_interval", {}).get(cls, machine["latency"][cls])


def parse_size(text, where):
    m = re.fullmatch(r"(\d+)\s*([KMG]?)(i?B)?", text.strip(), re.IGNORECASE)
    if not m:
        raise MachineError("%s: '%s' is not a size (a number with an optional K, M or G)" % (where, text))
    return int(m.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2).upper()]


def parse_int(text, where, minimum=1):
    try:
        v = int(text, 10)
    except ValueError:
        raise MachineError("%s: '%s' is not an integer" % (where, text)) from None
    if v < minimum:
        raise MachineError("%s: %d is below %d" % (where, v, minimum))
    return v


def parse_float(text, where):
    try:
        v = float(text)
    except ValueError:
        raise MachineError("%s: '%s' is not a number" % (where, text)) from None
    if not v > 0 or v != v or v == float("inf"):
        raise MachineError("%s: %s must be a positive finite number" % (where, text))
    return v


def read_machine(path):
    """The machine file as {section: {key: value}}, with every key checked and typed."""
    cp = configparser.ConfigParser(inline_comment_prefixes=("#", ";"), interpolation=None,
                                   empty_lines_in_values=False)
    cp.optionxform = str
    try:
        with open(path, encoding="utf-8") as f:
            cp.read_file(f)
    except OSError as e:
        raise MachineError("%s: %s" % (path, e.strerror)) from None
    except configparser.Error as e:
        raise MachineError("%s: %s" % (path, str(e).replace("\n", " "))) from None
    out = {}
    for sec in cp.sections():
        if sec not in SECTIONS:
            raise MachineError("%s: unknown section [%s]" % (path, sec))
        keys = set(cp[sec].keys())
        want = SECTIONS[sec]
        if sec.endswith(".prefetcher") and cp[sec].get("type", "").split("#")[0].strip() == "tagged":
            want = PREFETCH_KEYS  # a tagged prefetcher has no stride table
        unknown = sorted(keys - want)
        missing = sorted(want - keys - OPTIONAL_KEYS.get(sec, set()))
        if unknown:
            raise MachineError("%s: [%s] has unknown key(s) %s" % (path, sec, ", ".join(unknown)))
        if missing:
            raise MachineError("%s: [%s] lacks %s" % (path, sec, ", ".join(missing)))
        raw = {k: cp[sec][k].strip() for k in keys}
        for k, v in raw.items():
            if v == "":
                raise MachineError("%s: [%s] %s has no value" % (path, sec, k))
        where = lambda k: "%s: [%s] %s" % (path, sec, k)  # noqa: E731
        d = {}
        for k, v in raw.items():
            if sec == "machine" and k == "pages":
                # gem5's syscall emulation gives a page the next free frame at its first touch
                # (MemState::fixupFault): the only placement it can build; the plan has no parameter for it
                if v != "first-touch":
                    raise MachineError("%s: '%s': gem5's syscall emulation places pages at first touch "
                                       "(pages = first-touch)" % (where(k), v))
                d[k] = v
            elif sec == "machine" and k == "page_zeroing":
                # gem5's syscall emulation gives a frame without any access: no zeroing through the caches
                if v != "none":
                    raise MachineError("%s: '%s': gem5's syscall emulation zeroes no page through the caches "
                                       "(page_zeroing = none)" % (where(k), v))
                d[k] = v
            elif sec == "machine":
                d[k] = parse_float(v, where(k)) if k == "clock_ghz" else v
            elif sec == "dram":
                d[k] = parse_dram(k, v, where(k))
            elif sec == "memory" or (sec == "projection" and k != "cores"):
                d[k] = parse_float(v, where(k))
            elif k == "size":
                d[k] = parse_size(v, where(k))
            elif k == "model":
                if v not in ("o3", "inorder"):
                    raise MachineError("%s: '%s' is not o3 or inorder" % (where(k), v))
                d[k] = v
            elif k == "predictor":
                if v not in ("bimodal", "tournament"):
                    raise MachineError("%s: '%s' is not bimodal or tournament" % (where(k), v))
                d[k] = v
            elif sec.endswith(".prefetcher") and k == "type":
                if v not in PREFETCHER_CLASS:
                    raise MachineError("%s: '%s' is not %s" % (where(k), v, " or ".join(sorted(PREFETCHER_CLASS))))
                d[k] = v
            elif k == "on_access":
                if v not in ("yes", "no"):
                    raise MachineError("%s: '%s' is not yes or no" % (where(k), v))
                d[k] = v == "yes"
            elif k in ("write", "alloc"):
                allowed = ("back", "through") if k == "write" else ("yes", "no")
                if v not in allowed:
                    raise MachineError("%s: '%s' is not %s" % (where(k), v, " or ".join(allowed)))
                d[k] = v
            else:
                d[k] = parse_int(v, where(k),
                                 0 if k in ("mispredict_penalty", "serialize_cycles", "frontend_cycles", "store_set_bytes",
                                            "fetch_taken_limit", "fetch_block_bytes", "latency", "mshr_reserve",
                                            "initial_confidence", "confidence_threshold") else 1)
        out[sec] = d
    for sec in SECTIONS:
        if sec not in out and sec not in OPTIONAL_SECTIONS and sec not in MEMORY_SECTIONS:
            raise MachineError("%s: section [%s] is missing" % (path, sec))
    given = [sec for sec in MEMORY_SECTIONS if sec in out]
    if len(given) != 1:
        raise MachineError("%s: %s (one memory model: [memory] or [dram])"
                           % (path, "[memory] and [dram] both given" if given else "section [memory] is missing"))
    for cls, v in out.get("issue_interval", {}).items():
        if v > out["latency"][cls]:
            raise MachineError("%s: [issue_interval] %s = %d is above [latency] %s = %d (a unit is busy at most an "
                               "operation's latency)" % (path, cls, v, cls, out["latency"][cls]))
    for sec in out:
        if sec.endswith(".prefetcher") and sec.split(".")[0] not in out:
            raise MachineError("%s: [%s] without an [%s] section" % (path, sec, sec.split(".")[0]))
    return out


def prefetcher_plan(machine, lv, problems):
    """gem5 parameters of the prefetcher of cache level lv and of the cache's own prefetch keys, or None."""
    pf = machine.get(lv + ".prefetcher")
    if pf is None:
        return None
    if pf["mshr_reserve"] + 2 > machine[lv]["mshrs"]:  # gem5's canPrefetch(): 2 free beyond the reserve
        problems.append("[%s.prefetcher] mshr_reserve = %d leaves fewer than 2 MSHRs of %d to a prefetch"
                        % (lv, pf["mshr_reserve"], machine[lv]["mshrs"]))
    params = {"degree": pf["degree"], "latency": pf["latency"], "queue_size": pf["queue_size"]}
    if pf["type"] == "stride":
        params.update({"table_entries": str(pf["table_entries"]), "table_assoc": pf["table_assoc"],
                       "confidence_counter_bits": pf["confidence_bits"],
                       "initial_confidence": pf["initial_confidence"],
                       "confidence_threshold": pf["confidence_threshold"]})
    # the cache's side: MSHRs kept for demand misses; training on every access or on misses and on the first
    # use of a prefetched line (prefetch_on_pf_hit: the model's rule, docs/model.md)
    return {"class": PREFETCHER_CLASS[pf["type"]], "params": params,
            "cache": {"demand_mshr_reserve": pf["mshr_reserve"], "prefetch_on_access": pf["on_access"],
                      "prefetch_on_pf_hit": True}}


def parse_dram(k, v, where):
    """One [dram] value, typed and checked (the ranges of edan's src/config/machine_dram.c)."""
    if k in DRAM_WORDS:
        if v not in DRAM_WORDS[k]:
            raise MachineError("%s: '%s' is not one of %s" % (where, v, ", ".join(DRAM_WORDS[k])))
        return v
    if k == "device_rowbuffer_size":
        n = parse_size(v, where)
        if n < 1 or n & (n - 1):
            raise MachineError("%s: %s is not a power of two" % (where, v))
        return n
    if k.endswith("_ns"):
        try:
            x = float(v)
        except ValueError:
            raise MachineError("%s: '%s' is not a number" % (where, v)) from None
        if not (x > 0 or (x == 0 and k in DRAM_NS_ZERO_OK)) or x == float("inf"):
            raise MachineError("%s: %s is out of range" % (where, v))
        return x
    return parse_int(v, where, 0 if k in DRAM_ZERO_OK else 1)


def dram_plan(d, line, link_ns, problems, notes):
    """gem5 parameters of [dram]: the DRAMInterface's, the MemCtrl's, and the channels' interleaving."""
    burst = d["burst_length"] * d["device_bus_width"] * d["devices_per_rank"] // 8
    if burst != line:
        problems.append("[dram] a burst is %d bytes, the cache line %d: edan's model takes a line a burst" % (burst, line))
    ch = d["channels"]
    if ch & (ch - 1):
        problems.append("[dram] channels = %d is not a power of two (gem5 interleaves by address bits)" % ch)
    if d["bank_groups"] and (d["banks"] % d["bank_groups"] or d["tccd_l_ns"] <= d["tburst_ns"]):
        problems.append("[dram] bank_groups = %d: they must divide banks and tccd_l_ns exceed tburst_ns"
                        % d["bank_groups"])
    if d["write_low_percent"] >= d["write_high_percent"] or d["write_high_percent"] > 100:
        problems.append("[dram] write_low_percent must be below write_high_percent (at most 100)")
    if d["bank_groups"] and d["trrd_l_ns"] < d["trrd_ns"]:
        problems.append("[dram] trrd_l_ns must not be below trrd_ns with bank groups (gem5 refuses it)")
    if d["activation_limit"] > 8:
        problems.append("[dram] activation_limit = %d: at most 8" % d["activation_limit"])
    if d["trefi_ns"] <= d["trfc_ns"] + 2 * d["trp_ns"]:
        problems.append("[dram] trefi_ns must exceed trfc_ns + 2 x trp_ns (a refresh ends before the next is due)")
    row = d["device_rowbuffer_size"] * d["devices_per_rank"]
    notes.append("[dram] gem5 also switches ranks (tCS) and has power states with DDR4_2400_8x8's values; "
                 "edan's model has neither")
    ns = lambda x: "%gns" % x  # noqa: E731
    return {
        "channels": ch,
        # gem5's MemConfig: channels interleave at the row buffer for RoRaBaChCo, else at the cache line
        "interleave_bytes": row if d["address_map"] == "RoRaBaChCo" else line,
        "interface": {"ranks_per_channel": d["ranks"], "banks_per_rank": d["banks"],
                      "bank_groups_per_rank": d["bank_groups"], "devices_per_rank": d["devices_per_rank"],
                      "device_bus_width": d["device_bus_width"], "burst_length": d["burst_length"],
                      "device_rowbuffer_size": "%dB" % d["device_rowbuffer_size"],
                      "tCK": ns(d["tck_ns"]), "tBURST": ns(d["tburst_ns"]), "tCCD_L": ns(d["tccd_l_ns"]),
                      "tRCD": ns(d["trcd_ns"]), "tCL": ns(d["tcl_ns"]), "tRP": ns(d["trp_ns"]),
                      "tRAS": ns(d["tras_ns"]), "tWR": ns(d["twr_ns"]), "tRTP": ns(d["trtp_ns"]),
                      "tRTW": ns(d["trtw_ns"]), "tWTR": ns(d["twtr_ns"]), "tRRD": ns(d["trrd_ns"]),
                      "tRRD_L": ns(d["trrd_l_ns"]), "tXAW": ns(d["txaw_ns"]),
                      "activation_limit": d["activation_limit"], "tRFC": ns(d["trfc_ns"]),
                      "tREFI": ns(d["trefi_ns"]),
                      "read_buffer_size": d["read_queue"], "write_buffer_size": d["write_queue"],
                      "page_policy": d["page_policy"], "addr_mapping": d["address_map"]},
        "ctrl": {"write_high_thresh_perc": d["write_high_percent"], "write_low_thresh_perc": d["write_low_percent"],
                 "min_writes_per_switch": d["min_writes_per_switch"], "mem_sched_policy": d["scheduler"],
                 # the link's latency rides on the front end's: both are added to every response
                 "static_frontend_latency": ns(d["frontend_ns"] + link_ns),
                 "static_backend_latency": ns(d["backend_ns"])},
    }


def minor_plan(core, latency, line, problems, notes, fus=None, delays=None, intervals=None):
    """MinorCPU's parameters for [core] model = inorder; what MinorCPU cannot express goes to problems.
    fus: MinorCPU's functional units as (op classes, opLat, issueLat, the users' srcRegsRelativeLats' last) tuples
    (MINOR_DEFAULT_FUS without gem5); delays: its stage delays (MINOR_DEFAULT_DELAYS); intervals: the dividers'
    issue intervals, {class: cycles} (issue_interval(); the latencies without)."""
    fus = fus or MINOR_DEFAULT_FUS
    delays = delays or MINOR_DEFAULT_DELAYS
    intervals = intervals or {cls: latency[cls] for cls in SECTIONS["issue_interval"]}
    # a class's latency to a user on the same unit: opLat less what its users read early (srcRegsRelativeLats)
    lat, units, busy = {}, {}, {}
    for classes, op_lat, issue_lat, early in fus:
        for c in classes:
            lat.setdefault(c, op_lat - early)
            units[c] = units.get(c, 0) + (1 if issue_lat >= op_lat else max(op_lat - early, 1) // max(issue_lat, 1))
            # an unpipelined unit is busy its issueLat; a pipelined one is units each busy the latency
            busy.setdefault(c, issue_lat if issue_lat >= op_lat else op_lat - early)
    for cls, opclass in LATENCY_OPCLASS.items():
        if lat.get(opclass) != latency[cls]:
            problems.append("[latency] %s = %d, but MinorCPU's functional units give %s %s cycles to a user on the "
                            "same unit (opLat - srcRegsRelativeLats)" % (cls, latency[cls], opclass, lat.get(opclass)))
    # a pipelined unit (issueLat below opLat) is as many of the model's unpipelined units as its latency
    for key, classes in DIV_UNITS.items():
        for opclass in classes:
            if units.get(opclass) != core[key]:
                problems.append("[core] %s = %d, but MinorCPU's functional units give %s the throughput of %s "
                                "unpipelined unit(s)" % (key, core[key], opclass, units.get(opclass)))
    for cls in sorted(intervals):
        opclass = LATENCY_OPCLASS[cls]
        if busy.get(opclass) != intervals[cls]:
            problems.append("[issue_interval] %s = %d, but MinorCPU's functional units give %s the throughput of "
                            "units busy %s cycles each (an unpipelined unit: its issueLat; a pipelined one: the "
                            "latency, as that many units)" % (cls, intervals[cls], opclass, busy.get(opclass)))
    slots = sum(op_lat for _, op_lat, _, _ in fus)
    if core["rob_entries"] != slots or core["iq_entries"] != slots:
        problems.append("[core] rob_entries = %d and iq_entries = %d must be MinorCPU's in-flight queue, the sum of "
                        "its functional units' opLat (%d)" % (core["rob_entries"], core["iq_entries"], slots))
    front = sum(delays[d] for d in MINOR_FRONTEND_DELAYS)
    if core["frontend_cycles"] != front:
        problems.append("[core] frontend_cycles = %d, but MinorCPU's stage delays (%s) add up to %d"
                        % (core["frontend_cycles"], " + ".join(MINOR_FRONTEND_DELAYS), front))
    if core["fetch_width"] != core["dispatch_width"]:
        problems.append("[core] fetch_width = %d: MinorCPU's Fetch2 hands Decode dispatch_width (decodeInputWidth) "
                        "instructions a cycle" % core["fetch_width"])
    if core["fetch_taken_limit"] != 1:
        problems.append("[core] fetch_taken_limit = %d, but MinorCPU's Fetch2 drops the rest of a line after a "
                        "predicted-taken branch (1)" % core["fetch_taken_limit"])
    if core["store_set_bytes"] != 0:
        problems.append("[core] store_set_bytes = %d: MinorCPU has no memory-dependence prediction (0)"
                        % core["store_set_bytes"])
    fb = core["fetch_block_bytes"]
    if fb < 1 or fb & (fb - 1) or (line and line % fb):
        problems.append("[core] fetch_block_bytes = %d: MinorCPU's fetch1LineWidth must be a power of two that "
                        "divides the line size (%d)" % (fb, line))
    notes.append("[core] model = inorder: MinorCPU; the model bounds neither its functional units (2 integer, 1 "
                 "multiplier, 1 FP/SIMD, 1 memory) nor its one memory instruction issued and committed a cycle")
    return {"decodeInputWidth": core["dispatch_width"], "executeInputWidth": core["dispatch_width"],
            "executeIssueLimit": core["issue_width"], "executeCommitLimit": core["commit_width"],
            "executeMaxAccessesInMemory": core["lq_entries"], "executeLSQTransfersQueueSize": core["lq_entries"],
            "executeLSQStoreBufferSize": core["sq_entries"], "fetch1LineSnapWidth": fb, "fetch1LineWidth": fb}


def plan(machine, path, latency_ns=None, oplat=None, delays=None, units=None, minor_fus=None, minor_delays=None):
    """gem5 parameters for the machine: a dict of plain values; refuses what gem5 cannot express.
    oplat maps gem5 OpClass names to the FU pool's latencies, units to its unit counts, delays
    holds the O3 stage delays; minor_fus and minor_delays are MinorCPU's (minor_plan())."""
    oplat = oplat or GEM5_DEFAULT_OPLAT
    delays = delays or GEM5_DEFAULT_DELAYS
    units = units or GEM5_DEFAULT_UNITS
    problems, notes = [], []
    core = machine["core"]
    if "dtlb" in machine:
        problems.append("[dtlb]: a data TLB with its own timing, which these gem5 runs do not model")
    levels = [lv for lv in ("l1i", "l1d", "l2", "l3") if lv in machine]
    lines = {machine[lv]["line"] for lv in levels}
    if len(lines) != 1:
        problems.append("gem5 has one cache line size for the system; the file gives %s"
                        % ", ".join("[%s] line = %d" % (lv, machine[lv]["line"]) for lv in levels))
    for lv in levels:
        c = machine[lv]
        if c.get("write", "back") != "back":
            problems.append("[%s] write = %s: gem5's classic cache is write-back only" % (lv, c["write"]))
        if c.get("alloc", "yes") != "yes":
            problems.append("[%s] alloc = %s: gem5's classic cache allocates on writes" % (lv, c["alloc"]))
        if c["size"] % (c["ways"] * c["line"]):
            problems.append("[%s] size %d is not a multiple of ways x line" % (lv, c["size"]))
    prefetchers = {lv: prefetcher_plan(machine, lv, problems) for lv in ("l1d", "l2", "l3") if lv in machine}
    prefetchers = {lv: v for lv, v in prefetchers.items() if v}
    inorder = core.get("model", "o3") == "inorder"
    if inorder:
        cpu = minor_plan(core, machine["latency"], min(lines) if lines else 0, problems, notes, minor_fus,
                         minor_delays, {cls: issue_interval(machine, cls) for cls in SECTIONS["issue_interval"]})
    else:
        for cls, opclass in LATENCY_OPCLASS.items():
            want, have = machine["latency"][cls], oplat.get(opclass)
            if have != want:
                problems.append("[latency] %s = %d, but gem5's functional-unit pool gives %s %s cycles "
                                "(this script keeps gem5's pool)" % (cls, want, opclass, have))
        # O3's OpDesc has no issue latency: an unpipelined op (pipelined=False) holds its unit for its opLat
        for cls in sorted(machine.get("issue_interval", {})):
            want, have = issue_interval(machine, cls), oplat.get(LATENCY_OPCLASS[cls])
            if want != have:
                problems.append("[issue_interval] %s = %d, but gem5's O3 pool holds an unpipelined unit for %s for "
                                "its opLat, %s cycles (this script keeps gem5's pool)"
                                % (cls, want, LATENCY_OPCLASS[cls], have))
        for key, classes in DIV_UNITS.items():
            for opclass in classes:
                if units.get(opclass) != core[key]:
                    problems.append("[core] %s = %d, but gem5's functional-unit pool has %s unit(s) for %s "
                                    "(this script keeps gem5's pool)" % (key, core[key], units.get(opclass), opclass))
        front = sum(delays[d] for d in FRONTEND_DELAYS)
        if core["frontend_cycles"] != front:
            problems.append("[core] frontend_cycles = %d, but gem5's O3 stage delays (%s) add up to %d "
                            "(this script keeps them)" % (core["frontend_cycles"], " + ".join(FRONTEND_DELAYS), front))
        if core["fetch_taken_limit"] != 1:
            problems.append("[core] fetch_taken_limit = %d, but gem5's O3 fetch always ends its cycle at a "
                            "predicted-taken branch (1)" % core["fetch_taken_limit"])
        fb, line = core["fetch_block_bytes"], min(lines) if lines else 0
        if fb < 1 or fb & (fb - 1) or (line and line % fb):
            problems.append("[core] fetch_block_bytes = %d: gem5's fetchBufferSize must be a power of two that "
                            "divides the line size (%d)" % (fb, line))
    n = core["predictor_entries"]
    if n & (n - 1) or n < 4:
        problems.append("[core] predictor_entries = %d is not a power of two of at least 4" % n)
    if core["predictor"] == "tournament":
        predictor = {"type": "TournamentBP", "localPredictorSize": n // 4, "localHistoryTableSize": n // 4,
                     "globalPredictorSize": n, "choicePredictorSize": n}
    else:
        predictor = {"type": "LocalBP", "localPredictorSize": n}
    notes.append("[core] mispredict_penalty = %d describes gem5's pipeline for edan's model; gem5 has no "
                 "such parameter" % core["mispredict_penalty"])
    if inorder:
        notes.append("[core] serialize_cycles = %d describes gem5's pipeline for edan's model; MinorCPU has no such "
                     "parameter (it refetches after a SerializeAfter instruction)" % core["serialize_cycles"])
    else:
        notes.append("[core] serialize_cycles = %d describes gem5's pipeline for edan's model (validation/calibrate.py "
                     "measures it); gem5 has no such parameter: its delays %s alone add up to %d"
                     % (core["serialize_cycles"], " + ".join(SERIALIZE_DELAYS),
                        sum(delays[d] for d in SERIALIZE_DELAYS)))
    dram = None
    if "dram" in machine:
        link = machine["dram"]["link_latency_ns"] if latency_ns is None else latency_ns
        dram = dram_plan(machine["dram"], min(lines) if lines else 0, link, problems, notes)
    if problems:
        raise MachineError("%s: gem5 cannot build this machine as described:\n  %s"
                           % (path, "\n  ".join(problems)))
    # store sets check load/store order in blocks of 2^LSQDepCheckShift bytes; gem5 cannot turn them off
    ssb = core["store_set_bytes"]
    if not inorder and (ssb < 1 or ssb & (ssb - 1)):
        raise MachineError("%s: [core] store_set_bytes = %d: gem5's store sets need a power of two >= 1"
                           % (path, ssb))
    if dram is None:
        mem = machine["memory"]
        lat = mem["latency_ns"] if latency_ns is None else latency_ns
        memory = {"latency": "%gns" % lat, "bandwidth": "%.3fB/s" % (mem["bandwidth_gbs"] * 1e9)}
    p = {
        "clock": "%gGHz" % machine["machine"]["clock_ghz"],
        "cache_line_size": lines.pop(),
        "cpu": cpu if inorder else {"fetchWidth": core["fetch_width"], "decodeWidth": core["dispatch_width"],
                "renameWidth": core["dispatch_width"], "dispatchWidth": core["dispatch_width"],
                "issueWidth": core["issue_width"], "wbWidth": core["issue_width"],
                "commitWidth": core["commit_width"], "numROBEntries": core["rob_entries"],
                "LQEntries": core["lq_entries"], "SQEntries": core["sq_entries"],
                "numIQEntries": core["iq_entries"],
                "fetchBufferSize": core["fetch_block_bytes"],
                "LSQDepCheckShift": ssb.bit_length() - 1},
        "predictor": predictor,
        "caches": {lv: {"size": "%dB" % machine[lv]["size"], "assoc": machine[lv]["ways"],
                        "tag_latency": machine[lv]["hit_latency"],
                        "data_latency": machine[lv]["hit_latency"],
                        "response_latency": machine[lv]["hit_latency"],
                        "mshrs": machine[lv]["mshrs"],
                        "tgts_per_mshr": machine[lv]["mshr_targets"]}
                   for lv in levels},
        # one of "memory" and "dram" (a [memory] machine's plan, and so validation/sweep.py's digest, as before)
        "memory" if dram is None else "dram": memory if dram is None else dram,
        "notes": notes,
    }
    if prefetchers:  # only then: a plan without prefetchers (and so sweep.py's digest) stays as before
        p["prefetchers"] = prefetchers
    if inorder:  # likewise: an O3 machine's plan has no cpu_model
        p["cpu_model"] = "minor"
    return p


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="gem5 system from an edan machine file (see the header of this script)")
    ap.add_argument("--machine", required=True, help="machine description (INI)")
    ap.add_argument("--latency", type=float, default=None,
                    help="memory latency in ns [the file's [memory] latency_ns]; with [dram], the link's latency "
                         "added to every read [its link_latency_ns]")
    ap.add_argument("--cpu", choices=["o3", "timing"], default="o3",
                    help="o3: the file's core (RiscvO3CPU, or RiscvMinorCPU with [core] model = inorder); "
                         "timing: RiscvTimingSimpleCPU")
    ap.add_argument("--stats-window", default=None, metavar="T0,T1",
                    help="reset gem5's statistics at tick T0 and dump them at T1 (a region's own counts: "
                         "take the ticks from a run with --debug-flags=SyscallBase, e.g. PolyBench's two "
                         "clock_gettime calls); the first block of stats.txt is the window")
    ap.add_argument("--check", action="store_true",
                    help="check the file and print the gem5 parameters, without gem5")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    a.cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    if a.stats_window is not None:
        try:
            a.stats_window = tuple(int(x, 10) for x in a.stats_window.split(","))
        except ValueError:
            ap.error("--stats-window takes two ticks, T0,T1")
        if len(a.stats_window) != 2 or not 0 <= a.stats_window[0] < a.stats_window[1]:
            ap.error("--stats-window takes two ticks, T0,T1 with T0 < T1")
    if a.latency is not None and not 0 <= a.latency < float("inf"):
        ap.error("--latency must be a number of ns, 0 or more")
    return a


def fail(msg):
    sys.stderr.write("gem5_machine.py: %s\n" % msg)
    sys.exit(2)


def gem5_fu_latencies(cpu):
    """{OpClass: latency} of the CPU's functional-unit pool (the first unit that serves a class)."""
    out = {}
    for fu in cpu.fuPool.FUList:
        for od in fu.opList:
            out.setdefault(str(od.opClass), int(od.opLat))
    return out


def gem5_fu_units(cpu):
    """{OpClass: number of functional units that serve it} of the CPU's pool."""
    out = {}
    for fu in cpu.fuPool.FUList:
        for od in fu.opList:
            out[str(od.opClass)] = out.get(str(od.opClass), 0) + int(fu.count)
    return out


def gem5_minor_fus(cpu):
    """MinorCPU's functional units as minor_plan() takes them: (op classes, opLat, issueLat, the last of the
    first timing's srcRegsRelativeLats, 0 without one)."""
    out = []
    for fu in cpu.executeFuncUnits.funcUnits:
        classes = tuple(str(c.opClass) for c in fu.opClasses.opClasses)
        rel = [int(x) for x in fu.timings[0].srcRegsRelativeLats] if len(fu.timings) else []
        out.append((classes, int(fu.opLat), int(fu.issueLat), rel[-1] if rel else 0))
    return out


def build(p, a):
    import m5
    from m5.objects import (AddrRange, Cache, L2XBar, LocalBP, Process, Root, RiscvO3CPU,
                            RiscvTimingSimpleCPU, SEWorkload, SimpleMemory, SrcClockDomain,
                            System, SystemXBar, TournamentBP, VoltageDomain)

    def cache(lv):
        c = Cache()
        for k, v in p["caches"][lv].items():
            setattr(c, k, v)
        pf = p.get("prefetchers", {}).get(lv)
        if pf:
            from m5.objects import LRURP, StridePrefetcher, TaggedPrefetcher
            cls = {"StridePrefetcher": StridePrefetcher, "TaggedPrefetcher": TaggedPrefetcher}[pf["class"]]
            c.prefetcher = cls(**pf["params"])
            if pf["class"] == "StridePrefetcher":
                c.prefetcher.table_replacement_policy = LRURP()  # the model's table is LRU (gem5's default: random)
            for k, v in pf["cache"].items():
                setattr(c, k, v)
        return c

    system = System()
    system.clk_domain = SrcClockDomain(clock=p["clock"], voltage_domain=VoltageDomain())
    system.cache_line_size = p["cache_line_size"]
    system.mem_mode = "timing"
    system.mem_ranges = [AddrRange("4GB")]
    if a.cpu == "o3":  # the file's core: O3CPU, or MinorCPU for [core] model = inorder
        if p.get("cpu_model") == "minor":
            from m5.objects import RiscvMinorCPU
            system.cpu = RiscvMinorCPU()
        else:
            system.cpu = RiscvO3CPU()
        for k, v in p["cpu"].items():
            setattr(system.cpu, k, v)
        bp = dict(p["predictor"])
        cls = {"TournamentBP": TournamentBP, "LocalBP": LocalBP}[bp.pop("type")]
        system.cpu.branchPred = cls(**bp)
    else:
        system.cpu = RiscvTimingSimpleCPU()
    system.membus = SystemXBar()
    system.cpu.icache = cache("l1i")
    system.cpu.dcache = cache("l1d")
    system.cpu.icache.cpu_side = system.cpu.icache_port
    system.cpu.dcache.cpu_side = system.cpu.dcache_port
    system.l2bus = L2XBar()
    system.cpu.icache.mem_side = system.l2bus.cpu_side_ports
    system.cpu.dcache.mem_side = system.l2bus.cpu_side_ports
    system.l2cache = cache("l2")
    system.l2cache.cpu_side = system.l2bus.mem_side_ports
    if "l3" in p["caches"]:
        system.l3bus = L2XBar()
        system.l3cache = cache("l3")
        system.l2cache.mem_side = system.l3bus.cpu_side_ports
        system.l3cache.cpu_side = system.l3bus.mem_side_ports
        system.l3cache.mem_side = system.membus.cpu_side_ports
    else:
        system.l2cache.mem_side = system.membus.cpu_side_ports
    system.cpu.createInterruptController()
    if "dram" not in p:
        system.mem_ctrl = SimpleMemory(range=system.mem_ranges[0], latency=p["memory"]["latency"],
                                       bandwidth=p["memory"]["bandwidth"])
        system.mem_ctrl.port = system.membus.mem_side_ports
    else:
        system.mem_ctrls = build_dram(p["dram"], system.mem_ranges[0], AddrRange)
        for c in system.mem_ctrls:
            c.port = system.membus.mem_side_ports
    system.system_port = system.membus.cpu_side_ports
    system.workload = SEWorkload.init_compatible(a.cmd[0])
    process = Process()
    process.cmd = a.cmd
    system.cpu.workload = process
    system.cpu.createThreads()
    return m5, Root(full_system=False, system=system)


def build_dram(d, r, AddrRange):
    """One MemCtrl a channel, each with a DDR4_2400_8x8 given the file's values, interleaved as MemConfig does."""
    import math
    from m5.objects import DDR4_2400_8x8, MemCtrl
    bits = int(math.log2(d["channels"]))
    low = int(math.log2(d["interleave_bytes"]))
    ctrls = []
    for i in range(d["channels"]):
        intf = DDR4_2400_8x8(**d["interface"])
        intf.range = r if bits == 0 else AddrRange(r.start, size=r.size(), intlvHighBit=low + bits - 1,
                                                   xorHighBit=0, intlvBits=bits, intlvMatch=i)
        ctrls.append(MemCtrl(dram=intf, **d["ctrl"]))
    return ctrls


def main(argv):
    a = parse_args(argv)
    try:
        machine = read_machine(a.machine)
    except MachineError as e:
        fail(str(e))
    try:
        import m5  # noqa: F401  (present only inside gem5)
        in_gem5 = True
    except ImportError:
        in_gem5 = False
    try:
        p = plan(machine, a.machine, a.latency)
    except MachineError as e:
        fail(str(e))
    if a.check or not in_gem5:
        if not a.check:
            fail("not running inside gem5: run it as gem5.opt %s ..., or with --check" % sys.argv[0])
        import json
        print(json.dumps({k: v for k, v in p.items()}, indent=1))
        return 0
    if not a.cmd:
        fail("no program: give -- BINARY [ARGS...]")
    for n in p["notes"]:
        sys.stderr.write("gem5_machine.py: note: %s\n" % n)
    m5, root = build(p, a)
    if a.cpu == "o3":
        # the same checks against the CPU gem5 built, not the tables of gem5 v22.1 above
        cpu = root.system.cpu
        try:
            if p.get("cpu_model") == "minor":
                plan(machine, a.machine, a.latency, minor_fus=gem5_minor_fus(cpu),
                     minor_delays={d: int(getattr(cpu, d)) for d in MINOR_FRONTEND_DELAYS})
            else:
                plan(machine, a.machine, a.latency, gem5_fu_latencies(cpu),
                     {d: int(getattr(cpu, d)) for d in FRONTEND_DELAYS + SERIALIZE_DELAYS}, gem5_fu_units(cpu))
        except MachineError as e:
            fail(str(e))
    m5.instantiate()
    if a.stats_window:
        t0, t1 = a.stats_window
        ev = m5.simulate(t0)
        if m5.curTick() == t0:
            m5.stats.reset()
            ev = m5.simulate(t1 - t0)
            if m5.curTick() == t1:
                m5.stats.dump()
                ev = m5.simulate()
    else:
        ev = m5.simulate()
    print("EXIT %s code=%d ticks=%d" % (ev.getCause(), ev.getCode(), m5.curTick()))
    return 0


if __name__ == "__m5_main__" or __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
