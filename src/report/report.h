/*
 * report.h - the report's header (text and JSON, schema "edan.analysis/1",
 * docs/json-schema.md), the paper's table, or CSV series. A report is
 * written by the analysis session (tool/session.h): the header below, then
 * every tool's section; the eDAG tool's text and JSON are its own
 * (tool/graph/edag_view.c), its table and series are here.
 */
#ifndef EDAN_REPORT_REPORT_H
#define EDAN_REPORT_REPORT_H

#include <stdio.h>

#include "analysis/edag/edag.h"
#include "config/options.h"
#include "report/table.h"
#include "util/symbols/symbols.h"

#define EDAN_JSON_SCHEMA "edan.analysis/1"
/* edan's version: --version and the HTML report's identity. */
#define EDAN_VERSION "0.1.0"
/* JSON lists of layers longer than this are left out (layers_included: false). */
#define EDAN_JSON_MAX_LAYERS 100000

/* What was analysed: the report's header. */
/* How the traced program ended, as the plugin saw it (an online run; a trace analysed later does not know). */
typedef struct edan_program_exit {
    bool known;       /* it ended under the plugin's eyes: exit_group, or a signal that killed it */
    int status;       /* its exit status (exit_group's argument, the low 8 bits) when signal is 0 */
    int signal;       /* the signal that killed it, 0 = none */
    bool ignore_exit; /* --ignore-exit: edan exits 0 even when the program failed */
} edan_program_exit;

typedef struct edan_report_source {
    const char *kind;   /* "online", "trace" */
    const char *path;   /* trace path, or NULL */
    const char *binary; /* traced program, if known */
    const char *filter; /* function filter, if any */
    bool warm; /* the stream may hold warm records (trace/exec.h): a filtered region's caches and predictor follow
                  the whole program, unless --cold (docs/model.md); else they see the region alone */
    edan_program_exit exit; /* online: how the traced program ended */
    bool warm_on_demand;    /* the producer (the plugin without a filter) sends warm records, the kernel's writes
                               alone, only to a consumer that warms, and in batches of their own: a batch is all
                               warm records or none, as its first record says */
    uint64_t kernel_lines;  /* the kernel's writes the analysis took (EDAN_EXEC_KERNEL, trace/exec.h): the session's */
    const edan_objmap *objects; /* the shared objects the program mapped (util/symbols/objects.h), all of them once the
                                   stream ended (their code keeps its run-time addresses), or NULL */
    bool objects_ahead; /* objects is filled as the stream goes, each object before its code's records (the tracer's
                           map online; a trace with EDAN_TRACE_FLAG_OBJECTS_AHEAD): a tool may read those published
                           so far (edan_objmap_published) when it takes a batch */
} edan_report_source;

/*
 * Whether the stream holds every access since the program's start: no
 * filter, or a filtered region's with the warm records around it (not
 * --cold). State that follows the whole program's history, like the pages it
 * has written (the kernel's zeroing, [machine] page_zeroing), needs it.
 */
static inline bool edan_report_whole_stream(const edan_options *o, const edan_report_source *src)
{
    return !src->filter || !*src->filter || (src->warm && !o->cold);
}

/* The report's header as a table (report.c): documented with the tools' (docs/json-keys.md). */
extern const edan_table_decl edan_report_tables[];
/*
 * The report's header from its table: in text "edan: eDAG analysis (...)", the
 * program, the filter and the model; in JSON (json) the report's object opened,
 * {"schema":...,"source":{...},"model":{...} (no closing brace).
 */
void edan_report_header(FILE *f, const edan_options *o, const edan_report_source *src, bool json);
/*
 * With --machine, the caches each section of the report assumed (the eDAG's, the
 * timing model's and the projection's), as lines of the text header or as the
 * JSON member ,"caches":{...}; nothing without a machine (each configuration names
 * its cache). The flags say which sections the report has.
 */
void edan_report_caches(FILE *f, const edan_options *o, const edan_report_source *src, bool json, bool edag,
                        bool prediction, bool projection);
/* --series-csv=PATH: a row per phase of each configuration's series (a declared CSV table). 0, or -1 with err. */
int edan_report_series_csv(const edan_edag *e, const char *path, edan_error *err);
/* Rows: configurations; columns W, D, lambda, Lambda, B (GB/s) with the percentage reduction against the
 * first configuration without a cache, as in the paper's Tables 1 and 2 (m = the first --m). */
void edan_report_table(FILE *f, const edan_edag *e, const edan_options *o);

/* "cache=32K,line=64,... alpha=200" */
void edan_report_lane_label(const edan_edag *e, int k, char *buf, size_t cap);

#endif
