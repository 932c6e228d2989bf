/*
 * sampled_tables.c - the sampled tool's result tables: its scalars with the whole run's counts and a row per function,
 * declared once for its text, JSON and CSV (report/table.h).
 */
#include "tool/memory/sampled_tables.h"

/* One scope's counts and estimates (P: the JSON object, "all." or "counts."), then what text and CSV add. */
#define TEXT_ONLY (EDAN_NO_JSON | EDAN_NO_CSV)
#define JSON_ONLY (EDAN_NO_TEXT | EDAN_NO_CSV)
#define TEXT_ERR (TEXT_ONLY | EDAN_COL_PERCENT | EDAN_COL_SIGNED | EDAN_COL_NAN_DASH)
#define SM_COUNTS(P)                                                                                                     \
    {P "loads", EDAN_T_OPT_U64, "loads",  "the loads (null: unknown, only the samples were traced)", 0, "loads A", 12,   \
     0,         "loads",        EDAN_CELL},                                                                              \
        {P "loads_error", EDAN_T_F64, "percent", "text: the loads' estimate's error", TEXT_ERR, "A^ err", 8, 1, NULL,    \
         EDAN_CELL},                                                                                                     \
        {P "sampled_loads", EDAN_T_U64, "loads", "the loads in the samples", EDAN_NO_TEXT, NULL, 0, 0,                   \
         "sampled_loads",   EDAN_CELL},                                                                                  \
        {P "loads_estimate",                                                                                             \
         EDAN_T_F64,                                                                                                     \
         "loads",                                                                                                        \
         "CSV: rho x the sampled loads",                                                                                 \
         EDAN_NO_JSON | EDAN_NO_TEXT,                                                                                    \
         NULL,                                                                                                           \
         0,                                                                                                              \
         0,                                                                                                              \
         "loads_estimate",                                                                                               \
         EDAN_CELL},                                                                                                     \
        {P "blocks", EDAN_T_OPT_U64, "blocks", "the distinct 64-byte blocks loaded (null: unknown)", 0, "F blocks", 10,  \
         0,          "blocks",       EDAN_CELL},                                                                         \
        {P "sampled_blocks", EDAN_T_U64, "blocks", "the distinct blocks loaded in each sample, summed",                  \
         EDAN_NO_TEXT,       NULL,       0,        0,                                                                    \
         "sampled_blocks",   EDAN_CELL},                                                                                 \
        {P "loads_estimate", EDAN_T_F64, "loads", "rho x the sampled loads (MemGaze's A^)", JSON_ONLY, NULL, 0, 0, NULL, \
         EDAN_CELL},                                                                                                     \
        {P "blocks_estimate", EDAN_T_F64, "blocks", "rho x the sampled blocks (MemGaze's F^)", 0, "F^ = rho F", 12, 0,   \
         "blocks_estimate",   EDAN_CELL},                                                                                \
        {P "blocks_error", EDAN_T_F64, "percent", "text: the blocks' estimate's error", TEXT_ERR, "F^ err", 9, 1, NULL,  \
         EDAN_CELL},                                                                                                     \
        {P "growth_estimate",                                                                                            \
         EDAN_T_F64,                                                                                                     \
         "ratio",                                                                                                        \
         "sampled blocks / sampled loads (MemGaze's dF^)",                                                               \
         JSON_ONLY,                                                                                                      \
         NULL,                                                                                                           \
         0,                                                                                                              \
         0,                                                                                                              \
         NULL,                                                                                                           \
         EDAN_CELL},                                                                                                     \
        {P "growth", EDAN_T_F64, "ratio", "blocks / loads (null: unknown)", JSON_ONLY, NULL, 0, 0, NULL, EDAN_CELL},     \
        {P "window_blocks",                                                                                              \
         EDAN_T_F64,                                                                                                     \
         "blocks",                                                                                                       \
         "the distinct blocks of a window, weighted by its loads (null: unknown)",                                       \
         EDAN_COL_NAN_DASH,                                                                                              \
         "F/window",                                                                                                     \
         10,                                                                                                             \
         1,                                                                                                              \
         "window_blocks",                                                                                                \
         EDAN_CELL},                                                                                                     \
        {P "window_blocks_estimate", EDAN_T_F64, "blocks", "the same over the sampled windows (null: unknown)",          \
         EDAN_COL_NAN_DASH,          "sampled",  10,       1,                                                            \
         "window_blocks_estimate",   EDAN_CELL},                                                                         \
        {P "window_blocks_stderr",                                                                                       \
         EDAN_T_F64,                                                                                                     \
         "blocks",                                                                                                       \
         "its standard error (null: fewer than 2 sampled windows)",                                                      \
         EDAN_NO_TEXT,                                                                                                   \
         NULL,                                                                                                           \
         0,                                                                                                              \
         0,                                                                                                              \
         "window_blocks_stderr",                                                                                         \
         EDAN_CELL},                                                                                                     \
        {P "window_blocks_ci95", EDAN_T_F64, "blocks", "its 95% confidence interval's half width (null: as stderr)",     \
         EDAN_COL_NAN_DASH,      "+-95%",    8,        1,                                                                \
         "window_blocks_ci95",   EDAN_CELL},                                                                             \
        {P "windows", EDAN_T_OPT_U64, "windows", "the windows (null: unknown)", EDAN_NO_TEXT, NULL, 0,                   \
         0,           "windows",      EDAN_CELL},                                                                        \
        {P "sampled_windows", EDAN_T_OPT_U64, "windows", "the sampled windows (null: unknown)", 0, "n", 5, 0,            \
         "sampled_windows",   EDAN_CELL},                                                                                \
        {P "window_blocks_error",                                                                                        \
         EDAN_T_F64,                                                                                                     \
         "percent",                                                                                                      \
         "text: the window's estimate's error",                                                                          \
         TEXT_ERR,                                                                                                       \
         "err",                                                                                                          \
         8,                                                                                                              \
         1,                                                                                                              \
         NULL,                                                                                                           \
         EDAN_CELL},                                                                                                     \
        {P "loads_error",                                                                                                \
         EDAN_T_F64,                                                                                                     \
         "ratio",                                                                                                        \
         "(loads estimate - loads) / loads (null: unknown)",                                                             \
         JSON_ONLY,                                                                                                      \
         NULL,                                                                                                           \
         0,                                                                                                              \
         0,                                                                                                              \
         NULL,                                                                                                           \
         EDAN_CELL},                                                                                                     \
        {P "blocks_error",                                                                                               \
         EDAN_T_F64,                                                                                                     \
         "ratio",                                                                                                        \
         "(blocks estimate - blocks) / blocks (null: unknown)",                                                          \
         JSON_ONLY,                                                                                                      \
         NULL,                                                                                                           \
         0,                                                                                                              \
         0,                                                                                                              \
         NULL,                                                                                                           \
         EDAN_CELL},                                                                                                     \
    {                                                                                                                    \
        P "window_blocks_error", EDAN_T_F64, "ratio", "the same for the window's blocks (null: unknown)", JSON_ONLY,     \
            NULL, 0, 0, NULL, EDAN_CELL                                                                                  \
    }

static const edan_column function_cols[] = {
    {"label", EDAN_T_STR, "", "text: the function's name", TEXT_ONLY | EDAN_COL_CUT, "", 28, 0, NULL, EDAN_CELL},
    {"name", EDAN_T_STR, "", "the function (\"(outside known functions)\": code outside every one)", EDAN_NO_TEXT, NULL,
     0, 0, "function", EDAN_CELL},
    SM_COUNTS("counts."),
};
static const edan_column sampled_cols[] = {
    {"sample_only", EDAN_T_BOOL, "", "--sample-only: only the samples were traced", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"block_bytes", EDAN_T_U64, "bytes", "the blocks' width", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"window", EDAN_T_U64, "loads", "W: the loads of a sample (--sample-window)", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"period", EDAN_T_U64, "loads", "P: a sample starts every P loads (--sample-period)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"samples", EDAN_T_U64, "", "the samples taken", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"rho", EDAN_T_F64, "ratio", "the loads / the sampled loads (MemGaze's rho)", EDAN_COL_G, NULL, 0, 4, NULL,
     EDAN_CELL},
    SM_COUNTS("all."),
    {"functions", EDAN_T_ROWS, "", "per function with loads, most first (null: the program's symbols are unknown)", 0,
     NULL, 0, 0, NULL, EDAN_CELL},
    {"note", EDAN_T_STR, "", "text: what the estimates are compared with", TEXT_ONLY | EDAN_COL_LEFT, NULL, 0, 0, NULL,
     EDAN_CELL},
};

const edan_table_decl edan_sampled_tables[] = {
    EDAN_TABLE_DECL("sampled", NULL, true, "MemGaze's sampled estimates against the exact values", sampled_cols),
    EDAN_TABLE_DECL("sampled.functions", "sampled", false,
                    "a function with loads, most first (CSV: the whole run first)", function_cols),
    {NULL}};
