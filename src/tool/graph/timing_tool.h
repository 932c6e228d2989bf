/*
 * timing_tool.h - the prediction tool's results for other tools (the
 * projection puts the timing model's prediction beside its bounds).
 */
#ifndef EDAN_TOOL_GRAPH_TIMING_TOOL_H
#define EDAN_TOOL_GRAPH_TIMING_TOOL_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/timing/timing.h"
#include "tool/base/base.h"

/* The tool (also listed in tool/registry.h); its readers name it in their uses. */
extern const edan_tool_def edan_timing_tool;

/* The timing model of a session's prediction tool (finished after edan_session_finish), or NULL. */
const edan_timing *edan_timing_tool_model(const edan_session *s);

/* ---- shared by timing_tool.c and timing_prediction.c (the tool's views) ---- */

/* The time of a function, or of a source line, at each latency. */
typedef struct edan_timing_attr {
    const char *name;     /* the function, or a line's file (NULL: unknown) */
    unsigned line;        /* 0 for a function */
    const char *function; /* a line's function */
    uint64_t instructions;
    double cycles[EDAN_TIMING_MAX_LATENCIES], stall[EDAN_TIMING_MAX_LATENCIES];
    double slope;
    size_t lanes; /* the entries of cycles and stall: the model's latencies */
} edan_timing_attr;

/* The prediction's tables (timing_prediction.c): its section, its counts' levels, ... (JSON), its CSV tables. */
extern const edan_table_decl edan_timing_tables[];

/*
 * The report's section, text or JSON: the model's prediction, and with
 * symbols (funcs not NULL) its time per function and per source line, in
 * the order of the arrays (most time, largest slope first).
 */
void edan_timing_report(FILE *f, const edan_timing *m, const char *path, const edan_timing_attr *funcs, size_t n_funcs,
                        const edan_timing_attr *lines, size_t n_lines, bool json, bool wide);
/* --csv-dir: NAME-prediction.csv, with [dram] NAME-dram.csv, with a prefetcher NAME-prefetch.csv. 0, or -1 with err
 * set. */
int edan_timing_prediction_csv(const edan_timing *m, const char *dir, const char *name, edan_error *err);

#endif
