/*
 * zoom_tables.h - the zoom tool's result tables (zoom_tables.c) and the indices of their columns.
 */
#ifndef EDAN_TOOL_MEMORY_ZOOM_TABLES_H
#define EDAN_TOOL_MEMORY_ZOOM_TABLES_H

#include "report/table.h"

/* A region of the tree: its row's bound columns. */
typedef struct zoom_region {
    uint64_t lo, hi; /* [lo, hi) bytes */
    uint64_t accesses, blocks, reuses;
    double dist_sum;
    int parent, level, first_child, n_children;
    char id[48];
    const char *parent_id; /* NULL: a root */
    uint64_t bytes;        /* hi - lo */
    double share;          /* of every access */
    double distance;       /* the mean stack distance of its reuses */
} zoom_region;

/* A function or source line that accesses a region (zoom_tool.c's attribution): a row of its functions or lines. */
typedef struct zoom_attr {
    const char *name, *file;
    unsigned line;
    uint64_t accesses;
} zoom_attr;

enum {
    Z_LABEL,
    Z_ID,
    Z_PARENT,
    Z_LEVEL,
    Z_LO,
    Z_HI,
    Z_BYTES,
    Z_BLOCKS,
    Z_ACCESSES,
    Z_SHARE,
    Z_REUSES,
    Z_DISTANCE,
    Z_LEAF,
    Z_FUNCTIONS,
    Z_LINES,
    Z_GAP,
    Z_FROM
};

enum { Z_BLOCK_BYTES, Z_PAGES, Z_THRESHOLD, Z_STOP, Z_HEAP_END, Z_ALL, Z_TRUNCATED, Z_REGIONS };

/* Its tables, ending with a {NULL} entry. */
extern const edan_table_decl edan_zoom_tables[];

#endif
