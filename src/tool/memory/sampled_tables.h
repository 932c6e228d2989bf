/*
 * sampled_tables.h - the sampled tool's result tables (sampled_tables.c) and the indices of their columns.
 */
#ifndef EDAN_TOOL_MEMORY_SAMPLED_TABLES_H
#define EDAN_TOOL_MEMORY_SAMPLED_TABLES_H

#include "report/table.h"

enum {
    C_LOADS,
    C_LOADS_ERR_TEXT,
    C_SAMPLED_LOADS,
    C_LOADS_EST_CSV,
    C_BLOCKS,
    C_SAMPLED_BLOCKS,
    C_LOADS_EST,
    C_BLOCKS_EST,
    C_BLOCKS_ERR_TEXT,
    C_GROWTH_EST,
    C_GROWTH,
    C_WIN,
    C_WIN_EST,
    C_WIN_SE,
    C_WIN_CI,
    C_WINDOWS,
    C_SAMPLED_WINDOWS,
    C_WIN_ERR_TEXT,
    C_LOADS_ERR,
    C_BLOCKS_ERR,
    C_WIN_ERR,
    C_N
};

enum { F_LABEL, F_NAME, F_COUNTS };

enum { S_SAMPLE_ONLY, S_BLOCK_BYTES, S_WINDOW, S_PERIOD, S_SAMPLES, S_RHO, S_ALL, S_FUNCTIONS = S_ALL + C_N, S_NOTE };

/* Its tables, ending with a {NULL} entry. */
extern const edan_table_decl edan_sampled_tables[];

#endif
