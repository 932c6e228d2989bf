/*
 * zoom_tables.c - the zoom tool's result tables: the tree's scalars, its regions, and each region's functions and
 * lines, declared once for its text, JSON and CSV (report/table.h).
 */
#include "tool/memory/zoom_tables.h"

/* The functions and the source lines that access a region most (JSON: arrays in the region's row). */
static const edan_column function_cols[] = {
    EDAN_COL_FIELD(zoom_attr, name, "name", "", "the function (null: outside every known function)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(zoom_attr, accesses, "accesses", "accesses", "its accesses to the region", 0, NULL, 0, 0),
};
static const edan_column line_cols[] = {
    EDAN_COL_FIELD(zoom_attr, file, "file", "", "the source file (null: unknown)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(zoom_attr, line, "line", "", "the line in it (0: unknown)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(zoom_attr, name, "function", "", "the function the line is in (null: unknown)", 0, NULL, 0, 0),
    EDAN_COL_FIELD(zoom_attr, accesses, "accesses", "accesses", "its accesses to the region", 0, NULL, 0, 0),
};

#define TEXT_ONLY (EDAN_NO_JSON | EDAN_NO_CSV)
static const edan_column region_cols[] = {
    {"label", EDAN_T_STR, "", "text: the region's id, indented by its level", TEXT_ONLY | EDAN_COL_CUT, "region", 22, 0,
     NULL, EDAN_CELL},
    EDAN_COL_FIELD(zoom_region, id, "id", "",
                   "the region's place in the tree: its root's letter, then a child's index per level", EDAN_NO_TEXT,
                   NULL, 0, 0),
    EDAN_COL_FIELD(zoom_region, parent_id, "parent", "", "the id of the region it was cut from (null: a root)",
                   EDAN_NO_TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(zoom_region, level, "level", "", "its depth in the tree (0: a root)", EDAN_NO_TEXT, NULL, 0, 0),
    EDAN_COL_FIELD(zoom_region, lo, "lo", "bytes", "its first address", EDAN_COL_HEX_0X, NULL, 18, 0),
    EDAN_COL_FIELD(zoom_region, hi, "hi", "bytes", "the address past its end", EDAN_COL_HEX_0X, NULL, 18, 0),
    EDAN_COL_FIELD(zoom_region, bytes, "bytes", "bytes", "text: its width, hi - lo", TEXT_ONLY, NULL, 12, 0),
    EDAN_COL_FIELD(zoom_region, blocks, "blocks", "blocks", "the distinct 64-byte blocks accessed in it", 0, NULL, 10,
                   0),
    EDAN_COL_FIELD(zoom_region, accesses, "accesses", "accesses", "the accesses to it", 0, NULL, 12, 0),
    EDAN_COL_FIELD_AS(zoom_region, share, "share", "ratio", "its share of every access, 0 to 1", EDAN_COL_PERCENT, NULL,
                      7, 1, .text = {EDAN_AS_PERCENT}),
    EDAN_COL_FIELD(zoom_region, reuses, "reuses", "accesses", "the accesses to a block accessed before", EDAN_NO_TEXT,
                   NULL, 0, 0),
    EDAN_COL_FIELD(zoom_region, distance, "distance_mean", "blocks",
                   "the mean stack distance of its reuses (MemGaze's D)", 0, "D mean", 10, 1),
    {"leaf", EDAN_T_BOOL, "", "whether it has no hot subregion", EDAN_NO_TEXT, NULL, 0, 0, NULL, EDAN_CELL},
    {"functions", EDAN_T_ROWS, "", "the functions that access it most, most first", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"lines", EDAN_T_ROWS, "", "the source lines that access it most, most first (empty without line numbers)", 0, NULL,
     0, 0, NULL, EDAN_CELL},
    {"gap", EDAN_T_STR, "", "text: a wider space before the last column", TEXT_ONLY, "", 0, 0, NULL, EDAN_CELL},
    {"from", EDAN_T_STR, "", "text: the line (or else the function) that accesses it most", TEXT_ONLY | EDAN_COL_LEFT,
     "most accesses from", 0, 0, NULL, EDAN_CELL},
};

static const edan_column zoom_cols[] = {
    {"block_bytes", EDAN_T_U64, "bytes", "the blocks' width", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"pages", EDAN_T_U64, "", "the pages a region is cut into at each level (--zoom-pages)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"threshold",
     EDAN_T_F64,
     "ratio",
     "the share of its region's accesses a hot run exceeds (--zoom-threshold)",
     EDAN_COL_G,
     NULL,
     0,
     3,
     NULL,
     {0},
     {EDAN_AS_PERCENT},
     {0}},
    {"stop_bytes", EDAN_T_U64, "bytes", "a region this wide or narrower is not cut (--zoom-stop)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"heap_end", EDAN_T_OPT_U64, "bytes", "--heap-end: the accesses at and above it are a root of their own", 0, NULL,
     0, 0, NULL, EDAN_CELL},
    {"accesses", EDAN_T_U64, "accesses", "every access", 0, NULL, 0, 0, NULL, EDAN_CELL},
    {"truncated", EDAN_T_BOOL, "", "whether the tree stopped at its most regions (4096)", 0, NULL, 0, 0, NULL,
     EDAN_CELL},
    {"regions", EDAN_T_ROWS, "", "the regions, each after the region it was cut from", 0, NULL, 0, 0, NULL, EDAN_CELL},
};

const edan_table_decl edan_zoom_tables[] = {
    EDAN_TABLE_DECL("zoom", NULL, true, "the location zoom tree", zoom_cols),
    EDAN_TABLE_DECL("zoom.regions", "zoom-regions", false, "a region of the tree", region_cols),
    EDAN_TABLE_DECL("zoom.regions.functions", NULL, false, "a function that accesses the region", function_cols),
    EDAN_TABLE_DECL("zoom.regions.lines", NULL, false, "a source line that accesses the region", line_cols),
    {NULL}};
