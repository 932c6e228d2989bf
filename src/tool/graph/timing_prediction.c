/*
 * timing_prediction.c - the prediction tool's (timing_tool.c) section and
 * --csv-dir tables: the finished model's numbers gathered into a view
 * (pred_view: the scalars, a row per latency, a row per data level), and
 * the tables declared here, which the one renderer (report/table.h) writes
 * as text (through forms), JSON and CSV.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/table.h"
#include "tool/graph/timing_tool.h"
#include "util/symbols/symbols.h"

#define MAXK EDAN_TIMING_MAX_LATENCIES
#define MAXL EDAN_MACHINE_MAX_DATA_LEVELS
#define TEXT_ROWS 10  /* functions and lines the text lists */
#define JSON_LINES 20 /* lines the JSON lists (the functions: all) */
#define TEXT (EDAN_NO_JSON | EDAN_NO_CSV)

/* ===================================================================== */
/* The view                                                               */
/* ===================================================================== */

/* A latency: a row of NAME-prediction.csv and NAME-dram.csv, and of the text's lanes. */
typedef struct pred_lane {
    double mem_latency_ns, cycles, cycles_low, cycles_high, seconds, mem_stall_share; /* NaN: unknown */
    double slope, slope_low, slope_high, slowdown;                                    /* NaN: one latency */
    const char *schedule;
    uint64_t prefetch_late, prefetch_dropped;
    uint64_t reads, row_hits, row_misses, row_conflicts, writes, drains;
    double read_queue_wait_ns;
    /* text */
    double half, half_pct, hit_pct, miss_pct, conflict_pct;
    bool ci; /* the cycles' interval known */
    const char *few, *scheduled, *sep;
} pred_lane;

/* A data level: its hits and misses, and its prefetcher's counts. */
typedef struct pred_level {
    const char *level, *type, *label;
    uint64_t hits, misses, issued, useful, useless;
} pred_level;

/* The section's scalars (the JSON object "prediction", its arrays a value per latency) and its tables' rows. */
typedef struct pred_view {
    const char *name, *file, *memory;
    double clock_ghz;
    size_t k, k_ci; /* latencies (lanes); k when the cycles' intervals are known, else 0 */
    double slope, slowdown;
    double page_fault_ns, fault_seconds; /* the faults' time: per page, and in all (the same at every latency) */
    edan_timing_counts c;
    const edan_table *levels, *prefetch_levels, *functions, *lines;
    edan_timing_sample_info si;
    bool exact;
    double confidence, low[MAXK], high[MAXK];
    bool has_prefetch, dram; /* the objects "prefetch" (else null) and "dram" (else absent) */
    bool has_tlb;            /* the object "dtlb" (else null) */
    /* text */
    bool several, ci, slope_ci;
    uint64_t channels, ranks, banks, from;
    const char *plural;
    double measured_pct, scheduled_pct;
    pred_lane lanes[MAXK];
    pred_level lv[MAXL];
    size_t n_levels;
} pred_view;

static double pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

static void view_lane(pred_view *v, const edan_timing *m, int k)
{
    const edan_timing_lane l = edan_timing_lane_get(m, k);
    pred_lane *r = &v->lanes[k];
    const double half = v->si.cycles_half[k];
    r->mem_latency_ns = l.mem_latency_ns;
    r->cycles = l.cycles;
    r->seconds = l.seconds;
    r->mem_stall_share = l.cycles > 0 ? l.mem_stall_cycles / l.cycles : 0;
    r->ci = v->ci && isfinite(half);
    v->low[k] = l.cycles - half;
    v->high[k] = l.cycles + half;
    r->cycles_low = r->ci ? v->low[k] : NAN;
    r->cycles_high = r->ci ? v->high[k] : NAN;
    r->slope = r->slope_low = r->slope_high = r->slowdown = NAN;
    if (v->several) {
        r->slope = v->slope;
        r->slope_low = v->slope_ci ? v->slope - v->si.slope_half : NAN;
        r->slope_high = v->slope_ci ? v->slope + v->si.slope_half : NAN;
        r->slowdown = v->slowdown;
    }
    r->schedule = !v->si.sampled ? "exact" : v->si.covered ? "sampled, every instruction" : "sampled";
    r->prefetch_late = l.prefetch_late;
    r->prefetch_dropped = l.prefetch_dropped;
    const edan_dram_counts *d = &l.dram;
    r->reads = d->reads;
    r->row_hits = d->row_hits;
    r->row_misses = d->row_misses;
    r->row_conflicts = d->row_conflicts;
    r->writes = d->writes;
    r->drains = d->drains;
    r->read_queue_wait_ns = d->reads ? d->wait_ns / (double)d->reads : 0.0;
    r->half = half;
    r->half_pct = pct(half, l.cycles);
    r->hit_pct = pct((double)d->row_hits, (double)d->reads);
    r->miss_pct = pct((double)d->row_misses, (double)d->reads);
    r->conflict_pct = pct((double)d->row_conflicts, (double)d->reads);
    r->few = v->ci && !r->ci ? "   (too few units)" : "";
    r->scheduled = v->ci ? " scheduled" : "";
    r->sep = k ? "; " : "";
}

/* The finished model's numbers, the view's tables read. */
static void view_new(pred_view *v, const edan_timing *m, const char *path)
{
    static const char *const level[] = {"l1d", "l2", "l3"}, *const label[] = {"L1d", "L2", "L3"};
    _Static_assert(MAXL == 3, "a name for every data level");
    const edan_machine *mc = edan_timing_machine(m);
    memset(v, 0, sizeof *v);
    v->name = mc->name;
    v->file = path;
    v->clock_ghz = mc->clock_ghz;
    v->dram = mc->dram.present;
    v->has_tlb = mc->dtlb.entries != 0;
    v->memory = v->dram ? "dram" : NULL;
    v->k = (size_t)edan_timing_lanes(m);
    v->several = v->k > 1;
    v->slope = edan_timing_slope(m);
    v->slowdown = edan_timing_slowdown(m);
    v->c = *edan_timing_counts_get(m);
    v->page_fault_ns = mc->page_zeroing == EDAN_ZEROING_FIRST_STORE ? mc->page_fault_ns : 0;
    v->fault_seconds = (double)v->c.pages_zeroed * v->page_fault_ns * 1e-9;
    edan_timing_sample_info_get(m, &v->si);
    v->ci = v->si.sampled && !v->si.covered;
    v->slope_ci = v->ci && isfinite(v->si.slope_half);
    v->exact = v->si.covered;
    v->confidence = 0.95;
    v->k_ci = v->k;
    for (size_t k = 0; k < v->k; k++) {
        view_lane(v, m, (int)k);
        v->k_ci = isfinite(v->si.cycles_half[k]) ? v->k_ci : 0;
    }
    const uint64_t n = v->c.instructions;
    v->from = v->si.cfg.regime ? v->si.cfg.unit : v->si.cfg.period;
    v->measured_pct = n ? 100.0 * (double)v->si.measured / (double)n : 0.0;
    v->scheduled_pct = n ? 100.0 * (double)v->si.detailed / (double)n : 0.0;
    v->channels = mc->dram.channels;
    v->ranks = mc->dram.ranks;
    v->banks = mc->dram.banks;
    v->plural = mc->dram.channels == 1 ? "" : "s";
    v->n_levels = (size_t)(mc->n_data_levels < MAXL ? mc->n_data_levels : MAXL);
    for (size_t l = 0; l < v->n_levels; l++) {
        const edan_prefetch_kind kind = mc->data[l].prefetch.kind;
        v->has_prefetch |= kind != EDAN_PREFETCH_NONE;
        v->lv[l] = (pred_level){level[l],
                                kind == EDAN_PREFETCH_STRIDE ? "stride" : "tagged",
                                label[l],
                                v->c.level_hits[l],
                                v->c.level_misses[l],
                                v->c.prefetch[l].issued,
                                v->c.prefetch[l].useful,
                                v->c.prefetch[l].useless};
    }
}

/* ===================================================================== */
/* Tables                                                                 */
/* ===================================================================== */

#define V_COL(m, key, unit, doc) EDAN_COL_FIELD(pred_view, m, key, unit, doc, 0, NULL, 0, 0)
/* A number per latency: each lane's member m (pred_lane), one JSON array. */
#define V_ARR(m, key, unit, doc) EDAN_COL_EACH(pred_view, lanes, m, k, key, unit, doc, 0)
#define V_TEXT(m, key, flags, width, precision)                                                                        \
    EDAN_COL_FIELD(pred_view, m, key, "", "text", TEXT | flags, NULL, width, precision)
#define PER_LATENCY " per latency"
static const edan_column pred_cols[] = {
    V_COL(name, "machine.name", "", "the machine's name"),
    V_COL(file, "machine.file", "", "the machine file, as --machine names it"),
    V_COL(clock_ghz, "machine.clock_ghz", "GHz", "the core's clock"),
    V_COL(page_fault_ns, "machine.page_fault_ns", "ns",
          "a page fault's time ([machine] page_fault_ns; 0 when the model zeroes no page)"),
    EDAN_COL_FIELD(pred_view, memory, "machine.memory", "",
                   "\"dram\" with [dram]: mem_latency_ns is then a link's, on top of the DRAM's own time",
                   EDAN_COL_OPTIONAL, NULL, 0, 0),
    V_ARR(mem_latency_ns, "mem_latency_ns", "ns", "the memory latencies, in option order"),
    V_ARR(cycles, "cycles", "cycles", "the predicted run time" PER_LATENCY),
    V_ARR(seconds, "seconds", "seconds", "the predicted run time at the clock" PER_LATENCY),
    V_ARR(mem_stall_share, "mem_stall_share", "ratio",
          "the share of the time commit waited on memory (data, code lines, a full store queue)" PER_LATENCY),
    EDAN_COL_FIELD(pred_view, slope, "slope_ns_per_ns", "ratio",
                   "least-squares slope of run time against memory latency (0 with one latency)", EDAN_COL_G, NULL, 0,
                   4),
    EDAN_COL_FIELD(pred_view, slowdown, "slowdown", "ratio", "run time at the highest latency / at the lowest",
                   EDAN_COL_G, NULL, 0, 4),
    V_COL(c.instructions, "counts.instructions", "instructions", "the instructions scheduled or counted"),
    V_COL(c.loads, "counts.loads", "instructions", "the loads"),
    V_COL(c.stores, "counts.stores", "instructions", "the stores"),
    V_COL(c.l1i_misses, "counts.l1i_misses", "accesses", "the instruction cache's misses"),
    V_COL(levels, "counts.levels", "", "per data level, L1d first"),
    V_COL(c.ram_lines, "counts.memory_lines", "lines", "the lines read from memory, prefetched ones included"),
    V_COL(c.ram_bytes, "counts.memory_bytes", "bytes", "the bytes moved to and from memory"),
    V_COL(c.branches, "counts.branches", "instructions", "the branches"),
    V_COL(c.mispredicts, "counts.mispredicts", "instructions", "the branches mispredicted"),
    V_COL(c.serializing, "counts.serializing", "instructions",
          "the serializing instructions (CSR accesses, ecall, sc)"),
    V_COL(c.unaddressed, "counts.unaddressed", "instructions", "the instructions without an address (a text trace)"),
    V_COL(c.pages_zeroed, "counts.pages_zeroed", "pages",
          "the pages the kernel zeroed through the caches at the first store to each ([machine] page_zeroing)"),
    EDAN_COL_FIELD(pred_view, fault_seconds, "fault_seconds", "seconds",
                   "of the predicted run time at every latency, the page faults': pages_zeroed x page_fault_ns",
                   EDAN_COL_G, NULL, 0, 4),
    EDAN_COL_GROUP_FIELD(pred_view, has_prefetch, "prefetch",
                         "the data caches' prefetchers (null: the machine has none)", 0),
    V_COL(prefetch_levels, "prefetch.levels", "", "a data level with a prefetcher"),
    V_ARR(prefetch_late, "prefetch.late", "lines", "the prefetches that came too late" PER_LATENCY),
    V_ARR(prefetch_dropped, "prefetch.dropped", "lines", "the prefetches dropped" PER_LATENCY),
    EDAN_COL_GROUP_FIELD(pred_view, has_tlb, "dtlb",
                         "the data TLB's translations in the region (null: the machine has no [dtlb])", 0),
    V_COL(c.tlb_translations, "dtlb.translations", "accesses",
          "the translations: one per memory instruction (its load and store share one)"),
    V_COL(c.tlb_misses, "dtlb.misses", "accesses", "the translations that missed the first-level TLB"),
    V_COL(c.tlb_walks, "dtlb.walks", "accesses",
          "of those, the ones that missed the second level too: a page walk each"),
    EDAN_COL_GROUP_FIELD(pred_view, dram, "dram",
                         "the DRAM's reads by row-buffer outcome, per latency (only with [dram])", EDAN_COL_OPTIONAL),
    V_ARR(reads, "dram.reads", "accesses", "the reads"),
    V_ARR(row_hits, "dram.row_hits", "accesses", "the reads that hit an open row"),
    V_ARR(row_misses, "dram.row_misses", "accesses", "the reads to a closed bank"),
    V_ARR(row_conflicts, "dram.row_conflicts", "accesses", "the reads that closed another row"),
    V_ARR(writes, "dram.writes", "accesses", "the write-backs queued"),
    V_ARR(drains, "dram.drains", "", "the turns of the bus to the writes"),
    V_ARR(read_queue_wait_ns, "dram.read_queue_wait_ns", "ns",
          "the mean wait of a read from arrival to its column command"),
    EDAN_COL_GROUP_FIELD(pred_view, si.sampled, "sampling",
                         "the sampled schedule (null: --exact, every instruction scheduled)", 0),
    V_COL(si.cfg.unit, "sampling.unit", "instructions", "a unit's instructions"),
    V_COL(si.cfg.warmup, "sampling.warmup", "instructions", "the warm-up before each unit"),
    V_COL(si.cfg.period, "sampling.period", "instructions", "the longest period between units"),
    V_COL(si.cfg.regime, "sampling.regime", "", "the periods per regime before the period doubles (0: fixed)"),
    V_COL(si.units, "sampling.units", "", "the units measured"),
    V_COL(si.measured, "sampling.measured", "instructions", "the instructions in the measured units"),
    V_COL(si.detailed, "sampling.scheduled", "instructions", "the instructions scheduled: measured and warm-up"),
    V_COL(exact, "sampling.exact", "", "every instruction measured: the unsampled model's results"),
    EDAN_COL_FIELD(pred_view, confidence, "sampling.confidence", "ratio", "the intervals' confidence", EDAN_COL_JSON_G,
                   NULL, 0, 2),
    EDAN_COL_ARRAY(pred_view, low, k_ci, "sampling.cycles_low", "cycles",
                   "per latency, the cycles' interval's low end (null: too few units to tell)", EDAN_COL_EMPTY_NULL),
    EDAN_COL_ARRAY(pred_view, high, k_ci, "sampling.cycles_high", "cycles", "its high end", EDAN_COL_EMPTY_NULL),
    EDAN_COL_FIELD(pred_view, si.slope_half, "sampling.slope_half_width", "ratio",
                   "the slope's interval's half-width (null: unknown)", EDAN_COL_G, NULL, 0, 2),
    V_COL(functions, "functions", "", "per function, most time first (null: no symbols)"),
    V_COL(lines, "lines", "", "the 20 source lines with the largest slope (null: no symbols)"),
    /* text */
    V_TEXT(several, "several", 0, 0, 0),
    V_TEXT(ci, "ci", 0, 0, 0),
    V_TEXT(slope_ci, "slope_ci", 0, 0, 0),
    V_TEXT(channels, "channels", 0, 0, 0),
    V_TEXT(ranks, "ranks", 0, 0, 0),
    V_TEXT(banks, "banks", 0, 0, 0),
    V_TEXT(plural, "plural", 0, 0, 0),
    V_TEXT(from, "from", 0, 0, 0),
    V_TEXT(measured_pct, "measured_pct", 0, 0, 1),
    V_TEXT(scheduled_pct, "scheduled_pct", 0, 0, 1),
};

static const edan_column level_cols[] = {
    EDAN_COL_FIELD(pred_level, hits, "hits", "accesses", "the accesses that hit in the level", 0, NULL, 0, 0),
    EDAN_COL_FIELD(pred_level, misses, "misses", "accesses", "the accesses that missed it", 0, NULL, 0, 0),
    EDAN_COL_FIELD(pred_level, label, "label", "", "text", TEXT | EDAN_COL_LEFT, NULL, 4, 0),
};

static const edan_column prefetch_cols[] = {
    EDAN_COL_FIELD(pred_level, level, "level", "", "the level: l1d, l2 or l3", 0, NULL, 0, 0),
    EDAN_COL_FIELD(pred_level, type, "type", "", "the prefetcher: stride or tagged", EDAN_COL_LEFT, NULL, 6, 0),
    EDAN_COL_FIELD(pred_level, issued, "issued", "lines", "the lines it sent for", 0, NULL, 0, 0),
    EDAN_COL_FIELD(pred_level, useful, "useful", "lines", "the lines an access used", 0, NULL, 0, 0),
    EDAN_COL_FIELD(pred_level, useless, "useless", "lines", "the lines evicted unused", 0, NULL, 0, 0),
    EDAN_COL_FIELD(pred_level, label, "label", "", "text", TEXT | EDAN_COL_LEFT, NULL, 4, 0),
};

/* A function's or a source line's time (edan_timing_attr). */
#define A_ARR(m, key, doc) EDAN_COL_ARRAY(edan_timing_attr, m, lanes, key, "cycles", doc PER_LATENCY, 0)
#define A_COMMON                                                                                                       \
    EDAN_COL_FIELD(edan_timing_attr, instructions, "instructions", "instructions", "the instructions executed", 0,     \
                   NULL, 0, 0),                                                                                        \
        A_ARR(cycles, "cycles", "the time of its instructions"),                                                       \
        A_ARR(stall, "mem_stall_cycles", "the cycles commit waited on memory at its instructions"),                    \
        EDAN_COL_FIELD(edan_timing_attr, slope, "slope_ns_per_ns", "ratio",                                            \
                       "the slope of its time against memory latency", 0, NULL, 0, 0)
static const edan_column function_cols[] = {
    EDAN_COL_FIELD(edan_timing_attr, name, "name", "", "the function (null: code outside every symbol)", 0, NULL, 0, 0),
    A_COMMON,
};
static const edan_column line_cols[] = {
    EDAN_COL_FIELD(edan_timing_attr, name, "file", "", "the source file (null: no line information)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(edan_timing_attr, line, "line", "", "the line in it", 0, NULL, 0, 0),
    EDAN_COL_FIELD(edan_timing_attr, function, "function", "", "the function the line is in", 0, NULL, 0, 0),
    A_COMMON,
};

/* NAME-prediction.csv: a row per latency, the slope and slowdown (empty with one latency) in every row. */
/* A latency's numbers: in text (forms) too, the cycles, seconds and stall share as lane_form lays them out. */
#define L_COL(m, key, unit, doc) EDAN_COL_FIELD(pred_lane, m, key, unit, doc, 0, NULL, 0, 0)
#define L_LATENCY                                                                                                      \
    EDAN_COL_FIELD(pred_lane, mem_latency_ns, "mem_latency_ns", "ns", "the memory latency", EDAN_COL_G, NULL, 0, 6)
static const edan_column lane_cols[] = {
    L_LATENCY,
    EDAN_COL_FIELD(pred_lane, cycles, "cycles", "cycles", "the predicted run time", 0, NULL, 16, 0),
    L_COL(cycles_low, "cycles_low", "cycles", "its 95 % interval's low end (empty: exact or unknown)"),
    L_COL(cycles_high, "cycles_high", "cycles", "its high end"),
    EDAN_COL_FIELD(pred_lane, seconds, "seconds", "seconds", "the run time at the clock", EDAN_COL_G, NULL, 16, 6),
    EDAN_COL_FIELD_AS(pred_lane, mem_stall_share, "mem_stall_share", "ratio", "the share of the time stalled on memory",
                      EDAN_COL_PERCENT, NULL, 12, 1, .text = {EDAN_AS_PERCENT}),
    L_COL(slope, "slope_ns_per_ns", "ratio", "the region's slope"),
    L_COL(slope_low, "slope_low", "ratio", "its 95 % interval's low end"),
    L_COL(slope_high, "slope_high", "ratio", "its high end"),
    L_COL(slowdown, "slowdown", "ratio", "the region's slowdown"),
    L_COL(schedule, "schedule", "", "exact, sampled, or sampled, every instruction"),
    L_COL(prefetch_late, "prefetch_late", "lines", "the prefetches too late"),
    L_COL(prefetch_dropped, "prefetch_dropped", "lines", "the prefetches dropped"),
    /* text */
    EDAN_COL_FIELD(pred_lane, sep, "sep", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(pred_lane, half, "half", "", "text", TEXT, NULL, 12, 0),
    EDAN_COL_FIELD(pred_lane, half_pct, "half_pct", "", "text", TEXT, NULL, 0, 2),
    EDAN_COL_FIELD(pred_lane, ci, "ci", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(pred_lane, few, "few", "", "text", TEXT, NULL, 0, 0),
};

/* NAME-dram.csv, with [dram]: a row per latency, the numbers of the JSON's "dram". */
static const edan_column dram_cols[] = {
    L_LATENCY,
    L_COL(reads, "reads", "accesses", "the reads"),
    L_COL(row_hits, "row_hits", "accesses", "the reads that hit an open row"),
    L_COL(row_misses, "row_misses", "accesses", "the reads to a closed bank"),
    L_COL(row_conflicts, "row_conflicts", "accesses", "the reads that closed another row"),
    L_COL(writes, "writes", "accesses", "the write-backs queued"),
    L_COL(drains, "drains", "", "the turns of the bus to the writes"),
    EDAN_COL_FIELD(pred_lane, read_queue_wait_ns, "read_queue_wait_ns", "ns", "a read's mean wait", 0, NULL, 0, 1),
    /* text */
    EDAN_COL_FIELD(pred_lane, scheduled, "scheduled", "", "text", TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(pred_lane, hit_pct, "hit_pct", "", "text", TEXT, NULL, 0, 1),
    EDAN_COL_FIELD(pred_lane, miss_pct, "miss_pct", "", "text", TEXT, NULL, 0, 1),
    EDAN_COL_FIELD(pred_lane, conflict_pct, "conflict_pct", "", "text", TEXT, NULL, 0, 1),
};

/* The text's functions and lines: their cycles' headings are the latencies' (set when it runs). */
static const edan_column attr_text_cols[] = {
    {"name", EDAN_T_STR, "", "text", TEXT | EDAN_COL_NAME, NULL, 40, 0, NULL, EDAN_CELL},
    EDAN_COL_FIELD(edan_timing_attr, instructions, "instructions", "", "text", TEXT, NULL, 12, 0),
    {"at_lo", EDAN_T_F64, "", "text", TEXT | EDAN_COL_OPTIONAL, NULL, 14, 0, NULL, EDAN_CELL},
    {"at_hi", EDAN_T_F64, "", "text", TEXT, NULL, 14, 0, NULL, EDAN_CELL},
    {"slope", EDAN_T_F64, "", "text", TEXT | EDAN_COL_G | EDAN_COL_OPTIONAL, NULL, 10, 4, NULL, EDAN_CELL},
    {"share", EDAN_T_F64, "", "text", TEXT | EDAN_COL_PERCENT, NULL, 7, 1, NULL, EDAN_CELL},
};
static const edan_table_decl attr_text_decl =
    EDAN_TABLE_DECL("prediction.functions", NULL, false, "text: a function's or a line's time", attr_text_cols);

const edan_table_decl edan_timing_tables[] = {
    EDAN_TABLE_DECL("prediction", NULL, true, "the prediction on the machine; arrays: per latency, in option order",
                    pred_cols),
    EDAN_TABLE_DECL("prediction.counts.levels", NULL, false, "a data level, L1d first", level_cols),
    EDAN_TABLE_DECL("prediction.prefetch.levels", "prefetch", false, "a data level with a prefetcher", prefetch_cols),
    EDAN_TABLE_DECL("prediction.functions", NULL, false, "a function's time", function_cols),
    EDAN_TABLE_DECL("prediction.lines", NULL, false, "a source line's time", line_cols),
    EDAN_CSV_TABLE_DECL("prediction.lanes", "prediction", "a memory latency's prediction", lane_cols),
    EDAN_CSV_TABLE_DECL("prediction.dram", "dram", "a memory latency's DRAM reads", dram_cols),
    {NULL}};
enum { T_PRED, T_LEVELS, T_PREFETCH, T_FUNCTIONS, T_LINES, T_LANES, T_DRAM, T_N };

/* ===================================================================== */
/* Text forms                                                             */
/* ===================================================================== */

static const char head_form[] =
    "\nprediction on machine {machine.name} ({machine.file})\n"
    "{?dram}  memory: DRAM, {channels} channel{plural} x {ranks} ranks x {banks} banks; mem latency = a link's, "
    "added to every read on top of the DRAM's own time\n";
static const char dram_form[] =
    "    at {mem_latency_ns} ns: {reads} reads{scheduled}, {hit_pct}% row hits, {miss_pct}% misses, "
    "{conflict_pct}% conflicts; {drains} write drains; read queue wait "
    "{read_queue_wait_ns} ns mean\n";
static const char lanes_head_form[] =
    "  mem latency ns           cycles          seconds    mem stall{?ci}       +- 95%\n";
static const char lane_form[] =
    "  {mem_latency_ns:14} {cycles} {seconds} {mem_stall_share}{few}{?ci} {half} ({half_pct}%)\n";
static const char counts_form[] =
    "{?several}{?slope_ci}  slope                     {slope_ns_per_ns} +- {sampling.slope_half_width} ns of run "
    "time per ns of memory latency\n"
    "{?several}{!slope_ci}  slope                     {slope_ns_per_ns} ns of run time per ns of memory latency\n"
    "{?several}  slowdown                  {slowdown}x (highest latency against lowest)\n"
    "{?sampling}  sampled                   unit {sampling.unit}, warm-up {sampling.warmup}, period up to "
    "{sampling.period} (from {from} measured)\n"
    "{?sampling}                            {sampling.units} units, {measured_pct}% of instructions measured, "
    "{scheduled_pct}% scheduled{?sampling.exact}: every instruction, exact\n"
    "{?ci}                            cycles, slope and the tables below are estimates; +-: 95% confidence\n"
    "  instructions              {counts.instructions} ({counts.loads} loads, {counts.stores} stores)\n"
    "  L1i misses                {counts.l1i_misses}\n";
static const char level_form[] = "  {label} hits / misses        {hits} / {misses}\n";
static const char memory_form[] =
    "  memory lines read         {counts.memory_lines} ({counts.memory_bytes} bytes moved)\n"
    "{?dtlb}  data TLB misses / walks   {dtlb.misses} / {dtlb.walks} (of {dtlb.translations} translations)\n";
static const char prefetch_form[] =
    "  {label} {type} prefetcher    {issued} issued, {useful} useful, {useless} useless (evicted unused)\n";
static const char late_form[] = "{sep}{prefetch_late}, {prefetch_dropped} at {mem_latency_ns} ns";
static const char branch_form[] =
    "{?prefetch}\n"
    "  branches / mispredicted   {counts.branches} / {counts.mispredicts}\n"
    "{?counts.serializing}  serializing instructions  {counts.serializing} (CSR accesses such as frflags, ecall, "
    "sc: each drains the window)\n"
    "{?counts.pages_zeroed}  pages zeroed              {counts.pages_zeroed} (by the kernel at the first store to "
    "each: "
    "their lines in the caches, dirty)\n"
    "{?fault_seconds}  page faults               {fault_seconds} s of the time at every latency ({counts.pages_zeroed} "
    "x "
    "{machine.page_fault_ns} ns)\n";
static const char note_form[] =
    "{?counts.unaddressed}  note: {counts.unaddressed} instructions have no address (a text trace): instruction "
    "fetch and branch\n"
    "{?counts.unaddressed}        prediction are not modelled for them\n";

/* ===================================================================== */
/* Rendering                                                              */
/* ===================================================================== */

typedef struct pred_tables {
    pred_view v;
    edan_table t[T_N];
} pred_tables;

static void tables_free(pred_tables *p)
{
    for (int i = 0; i < T_N; i++)
        edan_table_free(&p->t[i]);
    free(p);
}

/* The view and its tables; funcs and lines (NULL: no symbols) become the JSON's rows. */
static pred_tables *tables_new(const edan_timing *m, const char *path, const edan_timing_attr *funcs, size_t n_funcs,
                               const edan_timing_attr *lines, size_t n_lines)
{
    pred_tables *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pred_view *v = &p->v;
    view_new(v, m, path);
    for (int i = 0; i < T_N; i++)
        edan_table_init(&p->t[i], &edan_timing_tables[i]);
    edan_table_rows_of(&p->t[T_LEVELS], v->lv, v->n_levels, sizeof *v->lv);
    for (size_t l = 0; l < v->n_levels; l++)
        if (edan_timing_machine(m)->data[l].prefetch.kind != EDAN_PREFETCH_NONE)
            edan_table_row_of(&p->t[T_PREFETCH], 0, &v->lv[l], NULL);
    edan_table_rows_of(&p->t[T_LANES], v->lanes, v->k, sizeof *v->lanes);
    edan_table_rows_of(&p->t[T_DRAM], v->lanes, v->k, sizeof *v->lanes);
    v->levels = &p->t[T_LEVELS];
    v->prefetch_levels = &p->t[T_PREFETCH];
    if (funcs) {
        edan_table_rows_of(&p->t[T_FUNCTIONS], funcs, n_funcs, sizeof *funcs);
        edan_table_rows_of(&p->t[T_LINES], lines, n_lines < JSON_LINES ? n_lines : JSON_LINES, sizeof *lines);
        v->functions = &p->t[T_FUNCTIONS];
        v->lines = &p->t[T_LINES];
    }
    edan_table_row_of(&p->t[T_PRED], 0, v, NULL);
    if (!v->dram)
        edan_table_omit_group(&p->t[T_PRED], "dram");
    if (!v->memory)
        edan_table_omit(&p->t[T_PRED], "machine.memory");
    return p;
}

/* The text's functions or lines: the first TEXT_ROWS, the cycles at the lowest and the highest latency. */
static void attr_text(FILE *f, const edan_timing *m, const edan_timing_attr *rows, size_t n, bool lines, bool wide)
{
    int lo = 0, hi = 0;
    for (int k = 1; k < edan_timing_lanes(m); k++) {
        lo = edan_timing_lane_get(m, k).mem_latency_ns < edan_timing_lane_get(m, lo).mem_latency_ns ? k : lo;
        hi = edan_timing_lane_get(m, k).mem_latency_ns > edan_timing_lane_get(m, hi).mem_latency_ns ? k : hi;
    }
    const double total = edan_timing_lane_get(m, hi).cycles;
    /* 1 / (ns of run time per ns of latency that one cycle over the range of latencies is) */
    const double range_ns = edan_timing_lane_get(m, hi).mem_latency_ns - edan_timing_lane_get(m, lo).mem_latency_ns;
    const double resolution_inv = range_ns * edan_timing_machine(m)->clock_ghz;
    edan_column cols[sizeof attr_text_cols / sizeof *attr_text_cols];
    memcpy(cols, attr_text_cols, sizeof cols);
    char at_lo[32], at_hi[32];
    snprintf(at_lo, sizeof at_lo, "cycles@%gns", edan_timing_lane_get(m, lo).mem_latency_ns);
    snprintf(at_hi, sizeof at_hi, "cycles@%gns", edan_timing_lane_get(m, hi).mem_latency_ns);
    const bool one = edan_timing_lanes(m) == 1; /* one cycles column and no slope: nothing to compare with */
    cols[0].title = !lines ? "function (by time)" : one ? "source line (by time)" : "source line (by slope)";
    cols[2].title = at_lo;
    cols[3].title = at_hi;
    edan_table t;
    edan_table_init_cols(&t, &attr_text_decl, cols, sizeof cols / sizeof *cols);
    if (one) {
        edan_table_omit(&t, "at_lo");
        edan_table_omit(&t, "slope");
    }
    for (size_t i = 0; i < n; i++) {
        const edan_timing_attr *a = &rows[i];
        edan_value *r = edan_table_row_of(&t, 0, a, NULL);
        if (!r)
            break;
        char name[1100];
        if (lines && !a->name && a->function) /* code without line information: its function's own row */
            snprintf(name, sizeof name, a->function[0] == '(' ? "?? %s" : "?? (%s)", a->function); /* a span */
        else if (lines && !a->name)
            snprintf(name, sizeof name, "?? %s", EDAN_NO_FUNCTION);
        else if (lines)
            snprintf(name, sizeof name, "%s:%u (%s)", edan_srcmap_file_name(a->name), a->line,
                     a->function ? a->function : "?");
        r[0].s = lines ? edan_table_str(&t, name) : a->name ? a->name : EDAN_NO_FUNCTION;
        r[2].f = a->cycles[lo];
        r[3].f = a->cycles[hi];
        /* a slope finer than a cycle over the latencies' range is below what the cycles columns show (a sampled
         * estimate's rounding, e.g. -3.5e-06 for a line whose cycles are equal at both): 0 */
        r[4].f = fabs(a->slope) * resolution_inv < 0.5 ? 0.0 : a->slope;
        r[5].f = total > 0 ? 100.0 * a->cycles[hi] / total : 0.0;
    }
    edan_table_text(f, &t,
                    &(edan_text_view){.max_rows = TEXT_ROWS,
                                      .heading_always = true,
                                      .wide = wide,
                                      .more = lines ? "; --json lists the top 20" : "; --json lists all"});
    edan_table_free(&t);
}

void edan_timing_report(FILE *f, const edan_timing *m, const char *path, const edan_timing_attr *funcs, size_t n_funcs,
                        const edan_timing_attr *lines, size_t n_lines, bool json, bool wide)
{
    pred_tables *p = tables_new(m, path, funcs, n_funcs, lines, n_lines);
    if (!p) {
        fputs(json ? ",\"prediction\":null" : "\nprediction: out of memory\n", f);
        return;
    }
    if (json) {
        edan_table_json_object(f, &p->t[T_PRED]);
        tables_free(p);
        return;
    }
    const edan_table *t = p->t;
    edan_table_form(f, &t[T_PRED], head_form);
    if (p->v.dram)
        edan_table_form(f, &t[T_DRAM], dram_form);
    edan_table_form(f, &t[T_PRED], lanes_head_form);
    edan_table_form(f, &t[T_LANES], lane_form);
    edan_table_form(f, &t[T_PRED], counts_form);
    edan_table_form(f, &t[T_LEVELS], level_form);
    edan_table_form(f, &t[T_PRED], memory_form);
    edan_table_form(f, &t[T_PREFETCH], prefetch_form);
    if (p->v.has_prefetch) {
        fputs("  prefetches late, dropped ", f);
        edan_table_form(f, &t[T_LANES], late_form);
    }
    edan_table_form(f, &t[T_PRED], branch_form);
    if (funcs) {
        attr_text(f, m, funcs, n_funcs, false, wide);
        attr_text(f, m, lines, n_lines, true, wide);
    }
    edan_table_form(f, &t[T_PRED], note_form);
    tables_free(p);
}

int edan_timing_prediction_csv(const edan_timing *m, const char *dir, const char *name, edan_error *err)
{
    pred_tables *p = tables_new(m, "", NULL, 0, NULL, 0);
    if (!p) {
        edan_error_set(err, "out of memory");
        return -1;
    }
    int rc = edan_table_csv(&p->t[T_LANES], dir, name, err);
    if (!rc && p->v.dram)
        rc = edan_table_csv(&p->t[T_DRAM], dir, name, err);
    if (!rc && p->v.has_prefetch)
        rc = edan_table_csv(&p->t[T_PREFETCH], dir, name, err);
    tables_free(p);
    return rc;
}
