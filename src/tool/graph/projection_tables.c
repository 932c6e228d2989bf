/*
 * projection_tables.c - the projection's tables of ExaSAT's Table 1, the
 * sweep and the memory regions, declared once for text, CSV and JSON
 * (projection_tables.h, report/table.h).
 */
#include "tool/graph/projection_tables.h"

#include <stddef.h>

/* ===================================================================== */
/* The region, its functions, loops and the code outside loops            */
/* ===================================================================== */

#define PJ_MIX(m, key, unit, doc) EDAN_COL_OF(1, proj_row, mix.m, key, unit, doc, EDAN_NO_TEXT, NULL, 0, 0)
#define PJ_V(m, key, unit, doc) EDAN_COL_OF(0, proj_row_view, m, key, unit, doc, EDAN_NO_TEXT, NULL, 0, 0)
/* A number text shows too: %.0f, or %g of precision p (G) */
#define PJ_SHOWN(m, key, unit, doc, title, w, p, g) EDAN_COL_OF(0, proj_row_view, m, key, unit, doc, g, title, w, p)
#define PJ_CLASS(k, c) PJ_MIX(cls[k], "classes." c, "instructions", "executed instructions of the cost class")
#define PJ_FP(k, key, doc) PJ_MIX(fp[k], "fp." key, "instructions", doc)

/* Every row's numbers (proj_row_view, the proj_row's mix): its operation mix, traffic and bounds, in text the common
 * columns. */
#define PJ_ROW                                                                                                         \
    EDAN_COL_OF(1, proj_row, mix.instructions, "instructions", "instructions", "executed instructions", 0,             \
                "instructions", 12, 0),                                                                                \
        PJ_CLASS(0, "int"), PJ_CLASS(1, "mul"), PJ_CLASS(2, "div"), PJ_CLASS(3, "fadd"), PJ_CLASS(4, "fmul"),          \
        PJ_CLASS(5, "ffma"), PJ_CLASS(6, "fdiv"), PJ_CLASS(7, "fsqrt"), PJ_CLASS(8, "branch"), PJ_CLASS(9, "load"),    \
        PJ_CLASS(10, "store"), PJ_CLASS(11, "atomic"), PJ_FP(EDAN_FP_ADD, "add", "fadd, fsub"),                        \
        PJ_FP(EDAN_FP_MUL, "mul", "fmul"), PJ_FP(EDAN_FP_FMA, "fma", "fused multiply-adds"),                           \
        PJ_FP(EDAN_FP_DIV, "div", "fdiv"), PJ_FP(EDAN_FP_SQRT, "sqrt", "fsqrt"),                                       \
        PJ_FP(EDAN_FP_OTHER, "other", "other FP instructions (no flops)"),                                             \
        PJ_MIX(transcendentals, "transcendentals", "calls", "calls of libm's transcendental functions"),               \
        PJ_MIX(sqrt_calls, "sqrt_calls", "calls", "calls of libm's sqrt"),                                             \
        PJ_MIX(in_calls, "in_calls.instructions", "instructions", "executed inside those calls"),                      \
        PJ_MIX(in_calls_flops, "in_calls.flops", "flops", "their flops, kept apart"),                                  \
        PJ_MIX(loads, "loads", "accesses", "loads"), PJ_MIX(stores, "stores", "accesses", "stores"),                   \
        PJ_MIX(atomics, "atomics", "accesses", "atomics"), PJ_MIX(load_bytes, "load_bytes", "bytes", "bytes loaded"),  \
        PJ_MIX(store_bytes, "store_bytes", "bytes", "bytes stored"),                                                   \
        PJ_MIX(stack_loads, "stack.loads", "accesses", "sp-relative loads"),                                           \
        PJ_MIX(stack_stores, "stack.stores", "accesses", "sp-relative stores"),                                        \
        PJ_MIX(stack_load_bytes, "stack.load_bytes", "bytes", "their bytes"),                                          \
        PJ_MIX(stack_store_bytes, "stack.store_bytes", "bytes", "their bytes"),                                        \
        PJ_SHOWN(p.flops, "flops", "flops", "flops (a fused multiply-add two)", "flops", 12, 0, 0),                    \
        PJ_SHOWN(p.weighted_flops, "weighted_flops", "flops", "divisions, roots, transcendentals weighted",            \
                 "weighted", 12, 0, 0),                                                                                \
        PJ_V(rd, "dram_read_bytes", "bytes", "DRAM reads"), PJ_V(wr, "dram_write_bytes", "bytes", "DRAM writes"),      \
        PJ_V(fl, "dirty_at_end_bytes", "bytes", "of the writes, the final flush"),                                     \
        PJ_SHOWN(p.dram_bytes, "dram_bytes", "bytes", "DRAM traffic", "DRAM bytes", 13, 0, 0),                         \
        PJ_SHOWN(p.bytes_per_flop, "bytes_per_flop", "bytes per flop", "DRAM bytes per weighted flop", "B/F", 7, 3,    \
                 EDAN_COL_G),                                                                                          \
        EDAN_COL_OF(1, proj_row, lru.accesses, "block_accesses", "accesses", "accesses to lines", EDAN_NO_TEXT, NULL,  \
                    0, 0),                                                                                             \
        PJ_V(working_set, "working_set_bytes", "bytes", "the smallest cache that holds its lines' reuses"),            \
        PJ_V(peak, "peak_flops_per_s", "flops per s", "the machine's peak"),                                           \
        PJ_V(bandwidth, "bandwidth_bytes_per_s", "bytes per s", "the machine's bandwidth"),                            \
        PJ_SHOWN(p.time_compute, "time_compute_s", "s", "weighted flops / peak", "T_c s", 10, 3, EDAN_COL_G),          \
        PJ_SHOWN(p.time_memory, "time_memory_s", "s", "DRAM bytes / bandwidth", "T_d s", 10, 3, EDAN_COL_G),           \
        PJ_SHOWN(p.time, "time_s", "s", "the larger", "T s", 10, 3, EDAN_COL_G),                                       \
        PJ_SHOWN(bound, "bound", "", "memory or compute", NULL, 7, 0, EDAN_COL_LEFT),                                  \
        EDAN_COL_GROUP_FIELD(proj_row_view, has_model, "model_time", "the timing model's time (null without it)", 0),  \
        EDAN_COL_ARRAY(proj_row_view, cycles, n_model, "model_time.cycles", "cycles", "per --mem-latency", 0),         \
        EDAN_COL_ARRAY(proj_row_view, sec, n_model, "model_time.seconds", "s", "per --mem-latency", 0),                \
        PJ_SHOWN(model_s, "model_s", "s", "the timing model's at its first latency (text)", "model s", 10, 3,          \
                 EDAN_NO_JSON | EDAN_COL_G)
#define PJ_LABEL                                                                                                       \
    EDAN_COL_FIELD(proj_row_view, label, "label", "", "the row's name in text", EDAN_NO_JSON | EDAN_COL_NAME,          \
                   "loop (by time)", 34, 0)

#define PJ_SUM(m, key, unit, doc) EDAN_COL_OF(0, proj_total_view, sum.m, key, unit, doc, EDAN_NO_TEXT, NULL, 0, 0)
/* Text (forms) as %g. */
#define PJ_MACHINE(m, key, unit, doc)                                                                                  \
    EDAN_COL_OF(0, proj_total_view, sum.machine.m, "machine." key, unit, doc, EDAN_NO_TEXT | EDAN_COL_G, NULL, 0, 6)
#define PJ_ARRAY(m, n, key, unit, doc) EDAN_COL_ARRAY(proj_total_view, sum.m, sum.n, key, unit, doc, 0)

static const edan_column total_cols[] = {
    PJ_LABEL,
    PJ_MACHINE(name, "name", "", "the machine's name"),
    PJ_SUM(machine_file, "machine.file", "", "its file"),
    PJ_MACHINE(peak_gflops, "peak_gflops_per_core", "Gflop/s", "one core's peak"),
    PJ_MACHINE(mem_bandwidth_gbs, "bandwidth_gbs_per_core", "GB/s", "one core's memory bandwidth"),
    PJ_MACHINE(cores, "cores", "", "cores sharing the work"),
    PJ_MACHINE(div_weight, "div_weight", "flops", "a division's weight"),
    PJ_MACHINE(sqrt_weight, "sqrt_weight", "flops", "a square root's weight"),
    PJ_MACHINE(transcendental_weight, "transcendental_weight", "flops", "a transcendental call's weight"),
    PJ_SUM(source, "traffic.source", "", "lru: the LRU cache of the machine's last level; cache: the first --cache"),
    PJ_SUM(cache, "traffic.cache", "", "the cache the traffic is counted at"),
    EDAN_COL_OF_AS(0, proj_total_view, sum.cache_bytes, "traffic.cache_bytes", "bytes",
                   "the LRU cache's size (null: a cache model)", EDAN_NO_TEXT, NULL, 0, 0, .text = {EDAN_AS_KIB}),
    PJ_SUM(line_bytes, "traffic.line_bytes", "bytes", "the line"),
    PJ_ROW,
    EDAN_COL_OF(0, proj_total_view, sum.time_sum_of_parts, "time_sum_of_parts_s", "s",
                "ExaSAT's time: the sum over loops and the code outside", EDAN_NO_TEXT | EDAN_COL_G, NULL, 0, 4),
    PJ_SUM(lambda, "lambda", "", "lambda of each eDAG configuration at the first m"),
    EDAN_COL_GROUP_FIELD(proj_total_view, sum.has_prediction, "prediction",
                         "the timing model's (null without --mem-latency)", 0),
    EDAN_COL_EACH(proj_total_view, sum.prediction, mem_latency_ns, sum.n_prediction, "prediction.mem_latency_ns", "ns",
                  "per --mem-latency", 0),
    EDAN_COL_EACH(proj_total_view, sum.prediction, seconds, sum.n_prediction, "prediction.seconds", "s",
                  "its predicted time", 0),
    PJ_ARRAY(curve[0], n_curve, "traffic_curve.cache_bytes", "bytes",
             "fully associative LRU caches up to one that holds every line"),
    PJ_ARRAY(curve[1], n_curve, "traffic_curve.read_bytes", "bytes", "DRAM reads at each"),
    PJ_ARRAY(curve[2], n_curve, "traffic_curve.write_bytes", "bytes", "DRAM writes at each"),
    PJ_ARRAY(curve[3], n_curve, "traffic_curve.dirty_at_end_bytes", "bytes", "of the writes, the final flush"),
    PJ_SUM(levels, "levels", "", "the traffic below each data level of the machine"),
    PJ_SUM(caches, "caches", "", "the region's bound at each --cache configuration"),
    PJ_SUM(functions, "functions", "", "per function (null without the program's symbols)"),
    PJ_SUM(loops, "loops", "", "per loop"),
    /* text */
    EDAN_COL_OF(0, proj_total_view, sum.cores_s, "cores_s", "", "text", EDAN_NO_JSON, NULL, 0, 0),
    EDAN_COL_OF(0, proj_total_view, sum.libm_calls, "libm_calls", "", "text", EDAN_NO_JSON, NULL, 0, 0),
    EDAN_COL_OF(0, proj_total_view, sum.stack_bytes, "stack_bytes", "", "text", EDAN_NO_JSON, NULL, 0, 0),
};
_Static_assert(sizeof total_cols / sizeof total_cols[0] == TOT_N, "the whole region's cells");

static const edan_column lambda_cols[] = {
    EDAN_COL_FIELD(proj_lambda_row, configuration, "configuration", "", "the eDAG configuration", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_lambda_row, m, "m", "", "the first m", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_lambda_row, W, "W", "vertices", "memory work", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_lambda_row, D, "D", "vertices", "memory depth", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_lambda_row, lambda, "lambda", "cycles", "lambda at m", 0, NULL, 0, 0),
};
static const edan_column level_cols[] = {
    EDAN_COL_FIELD(proj_level_row, name, "name", "", "l1d, l2 or l3", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_level_row, cache_bytes, "cache_bytes", "bytes", "its size", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_level_row, read_bytes, "read_bytes", "bytes", "reads below it", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_level_row, write_bytes, "write_bytes", "bytes", "writes below it", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_level_row, dirty_at_end_bytes, "dirty_at_end_bytes", "bytes", "of the writes, the final flush",
                   0, NULL, 0, 0),
};
#define PJ_CACHE(m, key, unit, doc) EDAN_COL_FIELD(proj_cache_row, m, key, unit, doc, 0, NULL, 0, 0)
static const edan_column cache_cols[] = {
    PJ_CACHE(cache, "cache", "", "the --cache configuration"),
    PJ_CACHE(dram_read_bytes, "dram_read_bytes", "bytes", "DRAM reads"),
    PJ_CACHE(dram_write_bytes, "dram_write_bytes", "bytes", "DRAM writes"),
    PJ_CACHE(dirty_at_end_bytes, "dirty_at_end_bytes", "bytes", "of the writes, the final flush"),
    PJ_CACHE(dram_bytes, "dram_bytes", "bytes", "DRAM traffic"),
    PJ_CACHE(time_memory_s, "time_memory_s", "s", "DRAM bytes / bandwidth"),
    PJ_CACHE(time_s, "time_s", "s", "the projected time"),
    PJ_CACHE(bound, "bound", "", "memory or compute"),
};
static const edan_column named_cols[] = {PJ_LABEL, PJ_V(name, "name", "", "the code outside every loop's"), PJ_ROW};
static const edan_column function_cols[] = {
    PJ_LABEL,
    PJ_V(name, "name", "", "the function"),
    PJ_ROW,
    EDAN_COL_GROUP_FIELD(proj_row_view, has_lambda, "lambda", "lambda of --per-function's row (null: none)", 0),
    PJ_V(lambda[0], "lambda.exclusive", "cycles", "of its own vertices"),
    PJ_V(lambda[1], "lambda.inclusive", "cycles", "while it is active"),
};
static const edan_column loop_cols[] = {
    PJ_LABEL,
    EDAN_COL_OF(1, proj_row, loop, "id", "", "the loop's id", EDAN_NO_TEXT, NULL, 0, 0),
    PJ_V(place.function, "function", "", "the head's function (null: unknown)"),
    PJ_V(place.file, "file", "", "the head's source file (null: unknown)"),
    PJ_V(place.line, "line", "", "the head's source line (0: unknown)"),
    PJ_V(loop.head, "head", "address", "the loop's first instruction"),
    PJ_V(loop.end, "end", "address", "the loop's last instruction"),
    PJ_V(loop.depth, "depth", "", "nesting depth (1: outermost)"),
    PJ_V(loop.parent, "parent", "", "the enclosing loop's id (-1: none)"),
    EDAN_COL_OF(1, proj_row, iterations, "iterations", "", "executions of its head", EDAN_NO_TEXT, NULL, 0, 0),
    PJ_V(loop.back_edges, "back_edges", "", "its back edges taken"),
    PJ_ROW,
};

/* ===================================================================== */
/* ExaSAT's Table 1 and the sweep's CSV                                   */
/* ===================================================================== */

#define X_CSV (EDAN_NO_JSON | EDAN_NO_TEXT)
#define X_G6 (EDAN_COL_CSV_G6 | EDAN_NO_JSON)
#define X_BLANK EDAN_NO_JSON
#define X_MACHINE(k, key, flags, doc)                                                                                  \
    EDAN_COL_FIELD(proj_exasat_row, machine[k], key, "", doc, X_CSV | flags, NULL, 0, 0)
#define X_PER_IT(m, key, title, doc)                                                                                   \
    EDAN_COL_FIELD(proj_exasat_row, m, key, "", doc, X_BLANK | EDAN_COL_CSV_G6, title, 8, 2)
#define X_LEVEL(l, key)                                                                                                \
    EDAN_COL_FIELD(proj_exasat_row, level_gb[l], key, "GB", "the traffic below the data level",                        \
                   X_CSV | X_BLANK | EDAN_COL_CSV_G6, NULL, 0, 0)

static const edan_column exasat_cols[] = {
    EDAN_COL_FIELD(proj_exasat_row, config, "configuration", "", "the sweep's configuration, from 1", X_CSV, NULL, 0,
                   0),
    X_MACHINE(0, "cache_bytes", EDAN_COL_CSV_WHOLE, "the last data level's bytes"),
    X_MACHINE(1, "bandwidth_gbs_per_core", EDAN_COL_CSV_G6, "GB/s"),
    X_MACHINE(2, "peak_gflops_per_core", EDAN_COL_CSV_G6, "Gflop/s"),
    X_MACHINE(3, "cores", EDAN_COL_CSV_WHOLE, "cores"),
    X_MACHINE(4, "div_weight", EDAN_COL_CSV_G6, "a division's flops"),
    X_MACHINE(5, "sqrt_weight", EDAN_COL_CSV_G6, "a square root's flops"),
    X_MACHINE(6, "transcendental_weight", EDAN_COL_CSV_G6, "a transcendental's flops"),
    EDAN_COL_FIELD(proj_exasat_row, procedure, "procedure", "", "the loop's function", EDAN_NO_JSON | EDAN_COL_CUT,
                   "Procedure", 16, 0),
    EDAN_COL_FIELD(proj_exasat_row, line, "line", "", "the loop head's line", X_BLANK | EDAN_COL_CSV_WHOLE, "Line", 6,
                   0),
    EDAN_COL_FIELD(proj_exasat_row, loop, "loop", "", "the loop's id", X_CSV | X_BLANK | EDAN_COL_CSV_WHOLE, NULL, 0,
                   0),
    EDAN_COL_FIELD(proj_exasat_row, iterations, "iterations", "", "executions of its head",
                   X_BLANK | EDAN_COL_CSV_WHOLE, "Iterations", 12, 0),
    X_PER_IT(add, "add_per_iteration", "Add", "additions"),
    X_PER_IT(mul, "mul_per_iteration", "Mul", "multiplications"),
    X_PER_IT(div, "div_per_iteration", "Div", "divisions"),
    X_PER_IT(exp, "exp_per_iteration", "Exp", "square roots and libm calls"),
    EDAN_COL_FIELD(proj_exasat_row, ws_kb, "working_set_kb", "kB", "the working set", X_G6 | EDAN_COL_G, "WS (kB)", 12,
                   4),
    EDAN_COL_FIELD(proj_exasat_row, traffic_gb, "traffic_gb", "GB", "DRAM traffic", X_G6 | EDAN_COL_G, "Traffic GB", 12,
                   4),
    EDAN_COL_FIELD(proj_exasat_row, weighted_gflop, "weighted_gflop", "Gflop", "weighted flops", X_G6 | EDAN_COL_G,
                   "Weighted Gflop", 14, 4),
    EDAN_COL_FIELD(proj_exasat_row, bytes_per_flop, "bytes_per_flop", "", "B:F", X_G6 | EDAN_COL_G, "B:F", 8, 3),
    EDAN_COL_FIELD(proj_exasat_row, time_compute_ms, "time_compute_ms", "ms", "weighted flops / peak", X_CSV | X_G6,
                   NULL, 0, 0),
    EDAN_COL_FIELD(proj_exasat_row, time_memory_ms, "time_memory_ms", "ms", "DRAM bytes / bandwidth", X_CSV | X_G6,
                   NULL, 0, 0),
    EDAN_COL_FIELD(proj_exasat_row, time_ms, "time_ms", "ms", "the larger", X_G6 | EDAN_COL_G, "Time (ms)", 12, 4),
    EDAN_COL_FIELD(proj_exasat_row, bound, "bound", "", "memory or compute", X_CSV, NULL, 0, 0),
    X_LEVEL(0, "traffic_l1d_gb"),
    X_LEVEL(1, "traffic_l2_gb"),
    X_LEVEL(2, "traffic_l3_gb"),
};

/* ===================================================================== */
/* The memory regions                                                     */
/* ===================================================================== */

#define RG(m, key, unit, doc, flags, title, width, precision)                                                          \
    EDAN_COL_FIELD(proj_region_row, m, key, unit, doc, flags, title, width, precision)
#define RG_WHOLE(m, key, doc, flags, title, width) RG(m, key, "bytes", doc, EDAN_COL_CSV_WHOLE | flags, title, width, 0)

static const edan_column region_cols[] = {
    EDAN_COL_FIELD_AS(proj_region_row, name, "name", "",
                      "a data object's symbol (demangled), or (stack), (heap), (static data), (not stack) without the "
                      "program",
                      EDAN_COL_CUT, "region (by DRAM bytes)", 34, 0, .csv_key = "region"),
    RG(kind, "kind", "", "stack, heap, static or object", EDAN_NO_TEXT, NULL, 0, 0),
    {"start", EDAN_T_OPT_U64, "address", "an object's first byte (null: another kind)", EDAN_NO_TEXT | EDAN_COL_CSV_HEX,
     NULL, 0, 0, NULL, EDAN_CELL},
    {"end", EDAN_T_OPT_U64, "address", "the byte past an object's end (null: another kind)",
     EDAN_NO_TEXT | EDAN_COL_CSV_HEX, NULL, 0, 0, NULL, EDAN_CELL},
    RG(loads, "loads", "accesses", "loads", 0, "loads", 10, 0),
    RG(stores, "stores", "accesses", "stores", 0, "stores", 10, 0),
    RG(load_bytes, "load_bytes", "bytes", "bytes read", 0, "bytes read", 12, 0),
    RG(store_bytes, "store_bytes", "bytes", "bytes written", 0, "written", 12, 0),
    RG(read_write, "read_write_ratio", "ratio", "bytes read / bytes written (null: nothing written)",
       EDAN_COL_G | EDAN_COL_CSV_G6 | EDAN_COL_CSV_NAN_EMPTY, "R/W", 7, 3),
    RG(lines, "lines", "lines", "distinct lines first touched through it", 0, "lines", 9, 0),
    RG(block_accesses, "block_accesses", "accesses", "accesses to lines", EDAN_NO_TEXT, NULL, 0, 0),
    RG_WHOLE(working_set, "working_set_bytes", "the smallest cache that holds its lines' reuses", 0, "WS bytes", 11),
    RG_WHOLE(rd, "dram_read_bytes", "DRAM reads", EDAN_NO_TEXT, NULL, 0),
    RG_WHOLE(wr, "dram_write_bytes", "DRAM writes", EDAN_NO_TEXT, NULL, 0),
    RG_WHOLE(flushed, "dirty_at_end_bytes", "of the writes, the final flush", EDAN_NO_TEXT, NULL, 0),
    RG_WHOLE(dram, "dram_bytes", "DRAM traffic", 0, "DRAM bytes", 13),
};

/* ===================================================================== */
/* The what-ifs' rows                                                     */
/* ===================================================================== */

/*
 * A plan's row: each member one column, its JSON key and unit the declared
 * ones, and its text heading and CSV header, place and unit its .text and
 * .csv (report/table.h: bytes in JSON and text, GB in CSV; seconds in JSON,
 * ms in CSV and text).
 */
#define WI(m, key, unit, doc, flags, ...) EDAN_COL_FIELD_AS(proj_wi_row, m, key, unit, doc, flags, __VA_ARGS__)
#define JSON_ONLY (EDAN_NO_TEXT | EDAN_NO_CSV)
#define WHOLE (EDAN_COL_JSON_WHOLE | EDAN_COL_CSV_WHOLE)

static const edan_column whatif_cols[] = {
    WI(scheme, "scheme", "", "traditional, all-loops-per-block or fused", EDAN_COL_LEFT, "scheme", 20, 0,
       .text = {.at = 1}, .csv = {.at = 1}),
    WI(tile, "tile", "iterations", "the tile (0: none)", EDAN_COL_ZERO_DASH, "tile", 6, 0, .text = {.at = 2},
       .csv = {.at = 2}),
    WI(cache_bytes, "cache_bytes", "bytes", "the cache size", WHOLE, "cache kB", 10, 0, .text = {EDAN_AS_KIB, .at = 3},
       .csv = {.at = 3}),
    WI(cache_model, "cache_model", "", "the machine's hierarchy at that size (null: a fully associative LRU)",
       JSON_ONLY, NULL, 0, 0),
    WI(as_run, "as_run_dram_bytes", "bytes", "the code as run, replayed", EDAN_COL_JSON_WHOLE, "as run bytes", 14, 0,
       .text = {.at = 4}, .csv = {EDAN_AS_GB, .at = 4}, .csv_key = "as_run_traffic_gb"),
    WI(measured, "measured_dram_bytes", "bytes", "the code as run, measured (null: no --cache is the hierarchy)",
       EDAN_COL_NAN_DASH, "measured bytes", 14, 0, .text = {.at = 5}, .csv = {EDAN_AS_GB, .at = 5},
       .csv_key = "measured_traffic_gb"),
    WI(legal, "legal", "", "whether the plan keeps every dependence", EDAN_NO_TEXT | EDAN_COL_CSV_01, NULL, 0, 0,
       .csv = {.at = 12}),
    WI(reason, "illegal_reason", "", "the dependence an illegal plan breaks (null: legal)", EDAN_NO_TEXT, NULL, 0, 0,
       .csv = {.at = 18}),
    WI(halo, "halo_iterations", "iterations", "the tile scheme's recomputed iterations", 0, "halo iters", 12, 0,
       .text = {.at = 8}, .csv = {.at = 13}),
    WI(halo_flops, "halo_flops", "flops", "their flops", JSON_ONLY | EDAN_COL_JSON_WHOLE, NULL, 0, 0),
    WI(halo_wflops, "halo_weighted_flops", "flops", "their weighted flops", EDAN_COL_JSON_WHOLE, "halo wflops", 12, 0,
       .text = {.at = 9}, .csv = {EDAN_AS_GFLOP, .at = 14}, .csv_key = "halo_weighted_gflop"),
    WI(halo_bytes, "halo_dram_bytes", "bytes", "the DRAM bytes the halo adds (null: illegal)", 0, "halo bytes", 12, 0,
       .text = {.at = 10}, .csv = {EDAN_AS_GB, .at = 15}, .csv_key = "halo_traffic_gb"),
    WI(added, "added_instructions", "instructions", "the instructions the plan adds", WHOLE, "added insns", 12, 0,
       .text = {.at = 11}, .csv = {.at = 16}),
    WI(overhead_s, "overhead_s", "s", "their time at the core's issue width", EDAN_NO_TEXT, NULL, 0, 0,
       .csv = {EDAN_AS_MS, .at = 17, .when = "legal"}, .csv_key = "overhead_ms"),
    WI(weighted_flops, "weighted_flops", "flops", "the region's and the halo's", EDAN_NO_TEXT, NULL, 0, 0,
       .csv = {EDAN_AS_GFLOP, .at = 7}, .csv_key = "weighted_gflop"),
    WI(dram, "dram_bytes", "bytes", "the plan's replayed DRAM bytes (null: illegal)", 0, "what-if bytes", 14, 0,
       .text = {.at = 7}, .csv = {EDAN_AS_GB, .at = 6}, .csv_key = "traffic_gb"),
    WI(bytes_per_flop, "bytes_per_flop", "bytes per flop", "B:F (null: illegal)", EDAN_COL_G | EDAN_COL_CSV_G6, "B:F",
       8, 3, .text = {.at = 12}, .csv = {.at = 8}),
    WI(exposed_s, "exposed_s", "s", "the loads' exposed wait in time_s (null: illegal)", JSON_ONLY, NULL, 0, 0),
    WI(time_s, "time_s", "s", "the projected time (null: illegal)", EDAN_COL_G, "time ms", 12, 4,
       .text = {EDAN_AS_MS, .at = 13}, .csv = {EDAN_AS_MS, .at = 9}, .csv_key = "time_ms"),
    WI(best, "best", "", "the least projected time of the legal plans at the cache", EDAN_NO_TEXT | EDAN_COL_CSV_01,
       NULL, 0, 0, .csv = {.at = 11}),
    WI(bound, "bound", "", "memory or compute (CSV)", EDAN_NO_TEXT | EDAN_NO_JSON, NULL, 0, 0, .csv = {.at = 10}),
    /* text's words: an illegal plan's in place of its numbers, the best's after them */
    WI(illegal, "illegal", "", "text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_ENDS_ROW, "", 14, 0, .text = {.at = 6}),
    WI(best_text, "best_text", "", "text", EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_GLUED, "", 0, 0, .text = {.at = 14}),
};

/* ===================================================================== */
/* The what-ifs' nests, pairs and own members                             */
/* ===================================================================== */

/* A column of text alone (a form's word or number) */
#define TX(S, m, key, flags, precision)                                                                                \
    EDAN_COL_FIELD(S, m, key, "", "text", EDAN_NO_JSON | EDAN_NO_CSV | (flags), NULL, 0, precision)
#define NE(m, key, unit, doc) EDAN_COL_FIELD(proj_nest_row, m, key, unit, doc, 0, NULL, 0, 0)
#define NE_NEST(m, key, unit, doc) EDAN_COL_OF(1, edan_affine_nest, m, key, unit, doc, 0, NULL, 0, 0)
#define CELL(key, type, unit, doc)                                                                                     \
    {                                                                                                                  \
        key, type, unit, doc, 0, NULL, 0, 0, NULL, EDAN_CELL                                                           \
    }

static const edan_column nest_cols[] = {
    EDAN_COL_ARRAY(proj_nest_row, loops, levels, "loops", "", "the chain's loop ids, outermost first", 0),
    NE(place.function, "function", "", "the outermost loop's function (null: unknown)"),
    NE(place.line, "line", "", "its head's line (0: unknown)"),
    EDAN_COL_ARRAY_OF(1, edan_affine_nest, trip, levels, "trips", "iterations",
                      "each level's trip count per entry (0: it varied)", 0),
    EDAN_COL_ARRAY_OF(1, edan_affine_nest, extent, levels, "max_trips", "iterations", "each level's largest trip count",
                      0),
    NE(bounds, "bounds", "", "per level: null, or a bounded level's trip count affine in the outer counters"),
    NE_NEST(entries, "entries", "", "entries of the outermost loop"),
    NE_NEST(accesses, "accesses", "accesses", "accesses made in its own function"),
    NE_NEST(nonaffine_accesses, "nonaffine_accesses", "accesses", "of those, by instructions not affine"),
    NE_NEST(in_calls, "in_calls", "accesses", "accesses made in functions it called"),
    NE(replayed, "replayed", "", "whether the what-ifs replay it"),
    NE(reason, "reason", "", "why not (null: replayed)"),
    NE(regs.loop, "registers.body_loop", "", "the body: the chain's innermost loop"),
    NE(regs.iterations, "registers.iterations", "iterations", "executions of its head"),
    NE(regs.used[0], "registers.int_used", "registers", "integer registers the body names"),
    NE(regs.used[1], "registers.fp_used", "registers", "FP registers the body names"),
    NE(regs.memory_state, "registers.memory_state", "", "state variables in memory"),
    NE(regs.stack, "registers.stack_per_iteration", "accesses", "sp-relative accesses per iteration"),
    EDAN_COL_ARRAY(proj_nest_row, reg_counts, n_regs, "registers.register_counts", "registers",
                   "the register counts (--what-if-registers)", 0),
    EDAN_COL_ARRAY(proj_nest_row, regs.spilled[0], n_regs, "registers.int_spilled_per_iteration", "accesses",
                   "integer accesses spilled at each", 0),
    EDAN_COL_ARRAY(proj_nest_row, regs.spilled[1], n_regs, "registers.fp_spilled_per_iteration", "accesses",
                   "FP accesses spilled at each", 0),
    NE(insns, "instructions", "", "its loads and stores, by pc"),
    /* text: its sentence and its registers' line */
    TX(proj_nest_row, loop, "loop", 0, 0),
    TX(proj_nest_row, levels, "levels", 0, 0),
    TX(proj_nest_row, levels_s, "levels_s", 0, 0),
    TX(proj_nest_row, trips, "trips_text", 0, 0),
    TX(proj_nest_row, entries_s, "entries_s", 0, 0),
    TX(proj_nest_row, all_accesses, "all_accesses", 0, 0),
    TX(proj_nest_row, kind, "kind", 0, 0),
    TX(proj_nest_row, reason_pct, "reason_pct", 0, 1),
    TX(proj_nest_row, pct_of, "pct_of", 0, 0),
    TX(proj_nest_row, regs.stack, "stack", EDAN_COL_G, 3),
    TX(proj_nest_row, spills, "spills", 0, 0),
};
static const edan_column bound_cols[] = {
    EDAN_COL_FIELD(proj_bound_row, base, "base", "iterations", "the trip count at outer counters 0", 0, NULL, 0, 0),
    EDAN_COL_ARRAY(proj_bound_row, strides, n, "strides", "iterations", "per iteration of each outer level", 0),
};
static const edan_column insn_cols[] = {
    CELL("pc", EDAN_T_U64, "address", "the instruction"),
    CELL("store", EDAN_T_BOOL, "", "a store (or an atomic), not a load"),
    CELL("size", EDAN_T_U64, "bytes", "its access's"),
    EDAN_COL_OF(1, edan_affine_insn, affine, "affine", "", "its addresses affine in the counters", 0, NULL, 0, 0),
    EDAN_COL_OF(1, edan_affine_insn, base, "base", "address", "its address at iteration vector 0", 0, NULL, 0, 0),
    EDAN_COL_ARRAY_OF(1, edan_affine_insn, stride, levels, "strides", "bytes", "per iteration of each level", 0),
    EDAN_COL_OF(1, edan_affine_insn, accesses, "accesses", "accesses", "all its accesses", 0, NULL, 0, 0),
};
static const edan_column pair_cols[] = {
    EDAN_COL_FIELD(proj_pair_row, first, "first", "", "the first nest's outermost loop", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_pair_row, second, "second", "", "the second's", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_pair_row, fused, "fused", "", "whether the fusion fuses them", 0, NULL, 0, 0),
    EDAN_COL_FIELD(proj_pair_row, reason, "reason", "", "why not (null: fused)", 0, NULL, 0, 0),
    TX(proj_pair_row, positions, "positions", 0, 0),
};
#define WS(m, key, doc) EDAN_COL_FIELD(proj_wi_summary, m, key, "", doc, 0, NULL, 0, 0)
static const edan_column whatif_summary_cols[] = {
    WS(kind, "kind", "block or fuse"),
    WS(cache_model, "cache_model", "the machine's hierarchy the replays run through (null: LRU caches)"),
    WS(time, "time",
       "the rows' time_s: bound (ExaSAT's, the LRU caches having no levels) or bound+exposed (the loads' latency)"),
    EDAN_COL_ARRAY(proj_wi_summary, levels, n_levels, "levels", "", "the levels blocked, from 1", 0),
    WS(nests, "nests", "the loop nests, in order of their first access"),
    WS(pairs, "pairs", "consecutive nests (--what-if=fuse)"),
    WS(complete, "complete", "every nest replayed"),
    WS(rows, "rows", "every plan at every cache size"),
    WS(unblocked, "unblocked", "the nests as they ran, per cache size"),
    TX(proj_wi_summary, what, "what", 0, 0),
    TX(proj_wi_summary, prefetch, "prefetch", 0, 0),
};
#define UB(m, key, unit, doc, flags) EDAN_COL_FIELD(proj_wi_unblocked, m, key, unit, doc, flags, NULL, 0, 0)
static const edan_column unblocked_cols[] = {
    UB(cache_bytes, "cache_bytes", "bytes", "the cache size", EDAN_COL_JSON_WHOLE),
    UB(dram_bytes, "dram_bytes", "bytes", "the replay's DRAM bytes", EDAN_COL_JSON_WHOLE),
    UB(exposed_s, "exposed_s", "s", "the loads' exposed wait in time_s", 0),
    UB(time_s, "time_s", "s", "the projected time", 0),
    UB(best, "best", "", "at least as fast as every legal plan at the cache", 0),
};

/* Text: a latency of the timing model's prediction, a line of the region's summary (JSON has them as its arrays). */
static const edan_column prediction_cols[] = {
    EDAN_COL_FIELD(proj_prediction, mem_latency_ns, "mem_latency_ns", "ns", "the memory latency", EDAN_COL_G, NULL, 0,
                   6),
    EDAN_COL_FIELD(proj_prediction, seconds, "seconds", "s", "its predicted time", EDAN_COL_G, NULL, 0, 4),
};

const edan_table_decl edan_projection_tables[] = {
    EDAN_TABLE_DECL("projection", NULL, true, "the whole region", total_cols),
    EDAN_TABLE_DECL("projection.functions", NULL, false, "per function", function_cols),
    EDAN_TABLE_DECL("projection.loops", NULL, false, "per loop", loop_cols),
    EDAN_TABLE_DECL("projection.outside_loops", NULL, true, "the code outside every loop", named_cols),
    EDAN_TABLE_DECL("projection.lambda", NULL, false, "an eDAG configuration", lambda_cols),
    EDAN_TABLE_DECL("projection.levels", NULL, false, "a data level of the machine", level_cols),
    EDAN_TABLE_DECL("projection.caches", NULL, false, "a --cache configuration", cache_cols),
    EDAN_TABLE_DECL("projection.regions", NULL, false, "a memory region the region touched", region_cols),
    EDAN_TABLE_DECL("projection.what_if", NULL, true, "the what-ifs (--what-if)", whatif_summary_cols),
    EDAN_TABLE_DECL("projection.what_if.nests", NULL, false, "a loop nest", nest_cols),
    EDAN_TABLE_DECL("projection.what_if.nests.bounds", NULL, false, "a level of the nest (null: not bounded)",
                    bound_cols),
    EDAN_TABLE_DECL("projection.what_if.nests.instructions", NULL, false, "a load or store of the nest", insn_cols),
    EDAN_TABLE_DECL("projection.what_if.pairs", NULL, false, "two consecutive nests", pair_cols),
    EDAN_TABLE_DECL("projection.what_if.rows", NULL, false, "a plan at a cache size", whatif_cols),
    EDAN_CSV_TABLE_DECL("projection.table1", NULL,
                        "ExaSAT's Table 1 (--table) and the sweep (--projection-csv): a loop, the code outside loops "
                        "or the total",
                        exasat_cols),
    EDAN_TABLE_DECL("projection.what_if.unblocked", NULL, false, "the nests as they ran at a cache size",
                    unblocked_cols),
    EDAN_CSV_TABLE_DECL("projection.prediction", NULL, "text: a latency of the timing model's prediction",
                        prediction_cols),
    {NULL, NULL, false, NULL, NULL, 0, false},
};
