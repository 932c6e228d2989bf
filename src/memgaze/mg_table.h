/*
 * mg_table.h - the footprint table of MemGaze's execution-interval tree, in
 * MemGaze's own text format and with its own definitions (memgaze-analyze
 * of pnnl/memgaze at commit 5545a59, its output file "-o"): for each level
 * of the tree, the mean window size, footprint, footprint per load class,
 * constant loads and growth rates of its nodes, scaled by the sampling
 * multiplier. docs/locality.md explains the columns and the quirks kept.
 *
 * The loads go through two passes, the same loads in the same order each
 * time: the first builds the tree above the samples (one node per pair of
 * samples, few), the second each sample's tree again and visits all nodes in
 * MemGaze's order, so the sums come out bit for bit as MemGaze's do, while
 * memory holds only one sample's tree, the nodes above the samples and the
 * distinct addresses of the windows being joined.
 *
 *     edan_mg_table *t = edan_mg_table_new(classes, period, &err);
 *     edan_mg_table_run(t, "C.trace", &err);   (or begin/add/end twice)
 *     edan_mg_table_write(t, out);
 */
#ifndef EDAN_MEMGAZE_MG_TABLE_H
#define EDAN_MEMGAZE_MG_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "memgaze/mg_classes.h"
#include "memgaze/mg_funcs.h"
#include "memgaze/mg_trace.h"
#include "util/error.h"

typedef struct edan_mg_table edan_mg_table;

/* What the table was built from. */
typedef struct edan_mg_table_stats {
    uint64_t loads;    /* loads in the trace */
    uint64_t unknown;  /* of them, at an IP the load classes do not list (counted Unknown) */
    uint64_t traced;   /* loads of the tree: all but the constant ones */
    uint64_t total;    /* traced loads plus the constant loads folded into them */
    uint64_t samples;  /* samples, as MemGaze counts them (see docs/locality.md) */
    uint64_t windows;  /* sample changes: MemGaze's number_of_windows */
    uint64_t dropped;  /* constant loads MemGaze loses at sample boundaries and at the end */
    double multiplier; /* windows * period / total, at least 1 */
} edan_mg_table_stats;

/* Largest sampling period accepted (the multiplier is a double). */
#define EDAN_MG_MAX_PERIOD (1ull << 53)

/* classes: the load classes (borrowed: kept alive until free); period: loads between samples. */
edan_mg_table *edan_mg_table_new(const edan_mg_classes *classes, uint64_t period, edan_error *err);
void edan_mg_table_free(edan_mg_table *t);

/* Also count MemGaze's per-function footprints into funcs (borrowed), in pass 1. */
void edan_mg_table_set_funcs(edan_mg_table *t, edan_mg_funcs *funcs);

/* Both passes over a trace file. 0, or -1 with err. */
int edan_mg_table_run(edan_mg_table *t, const char *trace_path, edan_error *err);

/* Pass 1, then pass 2, each: begin, the loads in order, end. 0, or -1 with err. */
int edan_mg_table_begin(edan_mg_table *t, int pass, edan_error *err);
int edan_mg_table_add(edan_mg_table *t, const edan_mg_load *loads, size_t n, edan_error *err);
int edan_mg_table_end(edan_mg_table *t, edan_error *err);

/* The table in MemGaze's format (after pass 2). 0, or -1 when a write failed (errno says why). */
int edan_mg_table_write(const edan_mg_table *t, FILE *f);
edan_mg_table_stats edan_mg_table_get_stats(const edan_mg_table *t);

#endif
