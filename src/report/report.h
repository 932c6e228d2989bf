/*
 * report.h - turn a finished analysis into text, JSON (schema
 * "edan.analysis/1", docs/json-schema.md) or CSV series.
 */
#ifndef EDAN_REPORT_REPORT_H
#define EDAN_REPORT_REPORT_H

#include <stdio.h>

#include "analysis/critpath.h"
#include "analysis/edag.h"
#include "config/options.h"

#define EDAN_JSON_SCHEMA "edan.analysis/1"
/* JSON lists of layers longer than this are left out (layers_included: false). */
#define EDAN_JSON_MAX_LAYERS 100000

typedef struct edan_report_source {
    const char *kind;              /* "online", "trace" */
    const char *path;              /* trace path or program */
    const char *binary;            /* traced program, if known */
    const char *filter;            /* function filter, if any */
    const edan_critpath *critpath; /* when --critical-path */
    /* when --per-function: lanes 2i (exclusive) and 2i+1 (inclusive) of `functions` are function i */
    const edan_edag *functions;
    const char (*function_names)[128];
    int n_functions;
} edan_report_source;

void edan_report_text(FILE *f, const edan_edag *e, const edan_options *o, const edan_report_source *src);
void edan_report_json(FILE *f, const edan_edag *e, const edan_options *o, const edan_report_source *src);
void edan_report_series_csv(FILE *f, const edan_edag *e);
/* A JSON string (escaped), or null for NULL. */
void edan_report_json_str(FILE *f, const char *s);
/* Rows: configurations; columns W, D, lambda, Lambda, B (GB/s) with the percentage reduction against the
 * first configuration without a cache, as in the paper's Tables 1 and 2 (m = the first --m). */
void edan_report_table(FILE *f, const edan_edag *e, const edan_options *o);

/* "cache=32K,line=64,... alpha=200" */
void edan_report_lane_label(const edan_edag *e, int k, char *buf, size_t cap);

#endif
