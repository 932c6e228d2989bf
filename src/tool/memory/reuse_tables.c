/*
 * reuse_tables.c - the reuse tool's result tables: its rows per function,
 * thread, loop, loop nest and static access, and its scalars and
 * histograms, declared once for text, JSON and CSV (report/table.h);
 * reuse_view.c fills them.
 */
#include "tool/memory/loop_table.h"
#include "tool/memory/reuse_tool.h"

/* ===================================================================== */
/* Row tables                                                             */
/* ===================================================================== */

/* What every row has after its place: its accesses, cold ones, misses per size and distance histogram. */
#define RU_VALUES                                                                                                      \
    EDAN_COL_FIELD(view_row, v.accesses, "accesses", "accesses", "its accesses", 0, NULL, 12, 0),                      \
        EDAN_COL_FIELD(view_row, v.cold, "cold", "accesses", "its cold accesses (a block's first)", 0, NULL, 10, 0),   \
        EDAN_COL_ARRAY(view_row, misses, n_sizes, "misses", "accesses",                                                \
                       "per --reuse-sizes entry (sizes), the accesses an LRU cache of it misses",                      \
                       EDAN_NO_TEXT | EDAN_NO_CSV),                                                                    \
        EDAN_COL_ARRAY(view_row, v.hist, n_bins, "distance_histogram", "accesses",                                     \
                       "its accesses per stack-distance bin (bin_lo)", EDAN_NO_TEXT | EDAN_NO_CSV)

/* A place in the source: the function, file and line (null and 0 when unknown). */
#define RU_PLACE(what)                                                                                                 \
    {"function", EDAN_T_STR, "", what "'s function (null: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},       \
        {"file", EDAN_T_STR, "", what "'s source file (null: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},    \
    {                                                                                                                  \
        "line", EDAN_T_U64, "", what "'s source line (0: unknown)", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL          \
    }

static const edan_column function_cols[] = {
    EDAN_COL_FIELD_AS(view_row, name, "name", "", "the function", EDAN_NO_TEXT, NULL, 0, 0, .csv_key = "function"),
    RU_VALUES,
};
static const edan_column thread_cols[] = {
    EDAN_COL_FIELD(view_row, vcpu, "vcpu", "", "the vCPU (thread) whose accesses these are", EDAN_NO_TEXT, NULL, 0, 0),
    RU_VALUES,
};
static const edan_column loop_cols[] = {EDAN_LOOP_COLUMNS, RU_VALUES};
static const edan_column nest_cols[] = {EDAN_NEST_COLUMNS, RU_VALUES};
static const edan_column access_cols[] = {
    {"pc", EDAN_T_U64, "address", "the memory instruction", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    RU_PLACE("the instruction"),
    RU_VALUES,
};

#define TEXT_ONLY (EDAN_NO_JSON | EDAN_NO_CSV)
#define S_CELL(key, type, unit, doc)                                                                                   \
    {                                                                                                                  \
        key, type, unit, doc, 0, NULL, 0, 0, NULL, EDAN_CELL                                                           \
    }
#define S_FIELD(m, key, unit, doc) EDAN_COL_FIELD(reuse_tool, m, key, unit, doc, 0, NULL, 0, 0)
/* An array of the curve's or the windows' (the row's second struct, its ru_series). */
#define Z_ARRAY(m, n, key, unit, doc) EDAN_COL_ARRAY_OF(1, ru_series, m, n, key, unit, doc, 0)
static const edan_column scalar_cols[] = {
    S_CELL("block_bytes", EDAN_T_U64, "bytes", "the blocks' width (--reuse-block)"),
    S_CELL("stream", EDAN_T_STR, "", "the accesses it follows: data, loads or all (instruction fetches too)"),
    S_FIELD(accesses, "accesses", "accesses", "the accesses followed"),
    S_FIELD(fetches, "fetches", "accesses", "the instruction fetches among them"),
    S_CELL("blocks", EDAN_T_U64, "blocks", "the distinct blocks accessed"),
    S_FIELD(cold, "cold", "accesses", "the first accesses to a block (in a sample, per sample)"),
    S_CELL("samples", EDAN_T_U64, "", "the samples of a sampled trace, each on its own (1: none, --across-samples)"),
    Z_ARRAY(lo, n_bins, "bin_lo", "", "each histogram bin's lower end: 0, then 2^(k-1) for bin k"),
    Z_ARRAY(dist, n_bins, "distance_histogram", "accesses", "the reuses per LRU stack-distance bin (blocks)"),
    S_CELL("reuse_time_histogram", EDAN_T_U64S, "accesses", "the reuses per reuse-time bin (accesses)"),
    Z_ARRAY(bytes, n_mrc, "miss_ratio_curve.bytes", "bytes", "the fully associative LRU cache sizes of the curve"),
    Z_ARRAY(ratio, n_mrc, "miss_ratio_curve.miss_ratio", "ratio", "its miss ratio at each size"),
    S_CELL("shards", EDAN_T_GROUP, "", "--reuse-sample: SHARDS's estimate of the curve (null without it)"),
    EDAN_COL_FIELD(reuse_tool, s_rate, "shards.rate", "ratio", "the sampling rate R, as the hash threshold realises it",
                   EDAN_COL_G, NULL, 0, 4),
    S_FIELD(s_accesses, "shards.sampled_accesses", "accesses", "the sampled accesses"),
    S_CELL("shards.sampled_blocks", EDAN_T_U64, "blocks", "the sampled blocks"),
    Z_ARRAY(shards, n_mrc, "shards.miss_ratio", "ratio", "its miss ratio at the curve's sizes"),
    {"shards.mean_abs_error", EDAN_T_F64, "ratio", "the mean absolute error against the exact curve", 0, NULL, 0, 4,
     NULL, EDAN_CELL},
    {"shards.max_abs_error", EDAN_T_F64, "ratio", "the largest absolute error against it", 0, NULL, 0, 4, NULL,
     EDAN_CELL},
    Z_ARRAY(w, n_win, "footprint_windows.window", "accesses", "the windows' lengths"),
    Z_ARRAY(f, n_win, "footprint_windows.blocks", "blocks",
            "the mean distinct blocks a window of that length accesses"),
    EDAN_COL_ARRAY(reuse_tool, sizes, n_sizes, "sizes", "bytes", "the --reuse-sizes entries the rows' misses are at",
                   0),
    /* text's */
    {"stream_text", EDAN_T_STR, "", "text: the accesses followed", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    {"fetch_note", EDAN_T_STR, "", "text: whether fetches are among them", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    {"blocks_bytes", EDAN_T_U64, "bytes", "text: the blocks' bytes", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
    {"cut_samples", EDAN_T_U64, "", "text: the samples of a sampled trace", TEXT_ONLY, NULL, 0, 0, NULL, EDAN_CELL},
};
_Static_assert(sizeof scalar_cols / sizeof *scalar_cols == S_CUT_SAMPLES + 1, "the scalars' cells at their columns");

/* ===================================================================== */
/* The histograms, the curve and the windows (text and CSV)               */
/* ===================================================================== */

#define RU_BIN(m, key, unit, doc, flags, title, width, precision)                                                      \
    EDAN_COL_FIELD(reuse_bin, m, key, unit, doc, flags, title, width, precision)
static const edan_column bin_cols[] = {
    RU_BIN(range, "range", "", "text: the bin's distances and reuse times", TEXT_ONLY | EDAN_COL_LEFT,
           "distance / reuse time", 22, 0),
    RU_BIN(lo, "bin_lo", "", "the bin's lower end", EDAN_NO_TEXT, NULL, 0, 0),
    RU_BIN(dist, "distance_accesses", "accesses", "the reuses at a stack distance in the bin", 0, "by distance", 14, 0),
    RU_BIN(dist_cum, "distance_cum", "%", "text: the accesses up to the bin", TEXT_ONLY | EDAN_COL_PERCENT, "cum %", 7,
           1),
    RU_BIN(rtime, "reuse_time_accesses", "accesses", "the reuses at a reuse time in the bin", 0, "by reuse time", 16,
           0),
    RU_BIN(rtime_cum, "reuse_time_cum", "%", "text: the accesses up to the bin", TEXT_ONLY | EDAN_COL_PERCENT, "cum %",
           7, 1),
};
static const edan_column mrc_cols[] = {
    EDAN_COL_FIELD(reuse_point, label, "label", "", "text: the size", TEXT_ONLY, NULL, 0, 0),
    EDAN_COL_FIELD(reuse_point, bytes, "bytes", "bytes", "the cache's size", EDAN_NO_TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(reuse_point, ratio, "miss_ratio", "ratio", "its miss ratio", 0, NULL, 0, 4),
    EDAN_COL_FIELD(reuse_point, shards, "shards_miss_ratio", "ratio", "SHARDS's estimate of it (--reuse-sample)",
                   EDAN_COL_OPTIONAL, NULL, 0, 4),
};
static const edan_column window_cols[] = {
    EDAN_COL_FIELD(reuse_window, window, "window", "accesses", "the window's length W", 0, NULL, 0, 0),
    EDAN_COL_FIELD(reuse_window, blocks, "blocks", "blocks", "the mean distinct blocks F of a window", EDAN_COL_G, NULL,
                   0, 4),
    EDAN_COL_FIELD(reuse_window, growth, "growth", "", "F / W", EDAN_COL_G, NULL, 0, 3),
};

/* In ROW_ order, then the scalars. The place columns show only in JSON and CSV: text has a name column of its own. */
const edan_table_decl edan_reuse_tables[] = {
    EDAN_TABLE_DECL("reuse.functions", "reuse-functions", false, "per function, most misses first", function_cols),
    EDAN_TABLE_DECL("reuse.threads", "reuse-threads", false, "per thread (vCPU) with accesses, by vCPU", thread_cols),
    EDAN_TABLE_DECL("reuse.loops", "reuse-loops", false, "per innermost loop, most misses first", loop_cols),
    EDAN_TABLE_DECL("reuse.loop_nests", "reuse-nests", false, "per loop nest, most misses first", nest_cols),
    EDAN_TABLE_DECL("reuse.accesses_by_instruction", NULL, false, "per memory instruction, most misses first",
                    access_cols),
    EDAN_TABLE_DECL("reuse", NULL, true, "the reuse tool's scalars and histograms", scalar_cols),
    EDAN_CSV_TABLE_DECL("reuse.histogram", "reuse-histogram",
                        "a bin of the histograms (text: up to the last used, and the cold accesses)", bin_cols),
    EDAN_CSV_TABLE_DECL("reuse.mrc", "mrc", "a size of the miss-ratio curve", mrc_cols),
    EDAN_CSV_TABLE_DECL("reuse.windows", "footprint-windows", "a window length of the footprint over windows",
                        window_cols),
    {NULL, NULL, false, NULL, NULL, 0, false},
};
