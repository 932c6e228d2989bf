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

/* "L1d", "L2", "L3": a data level's name in the text report. */
const char *edan_timing_level_label(int level);
/* The prefetchers' lines of the text report (none without a prefetcher). */
void edan_timing_prefetch_text(const edan_timing *m, FILE *f);
/* The report's ,"prefetch": member (null without a prefetcher). */
void edan_timing_prefetch_json(const edan_timing *m, FILE *f);
/* With [dram]: the text report's memory: DRAM line and per latency its reads' row outcomes (ci: sampled). */
void edan_timing_dram_text(const edan_timing *m, bool ci, FILE *f);
/* With [dram]: the report's ,"dram": member, per latency (none without [dram]). */
void edan_timing_dram_json(const edan_timing *m, FILE *f);
/* --csv-dir: NAME-prediction.csv, with [dram] NAME-dram.csv, with a prefetcher NAME-prefetch.csv. 0, or -1 with err
 * set. */
int edan_timing_prediction_csv(const edan_timing *m, const char *dir, const char *name, edan_error *err);

#endif
