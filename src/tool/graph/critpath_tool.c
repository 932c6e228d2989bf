/*
 * critpath_tool.c - the critical-path tool (--critical-path): one critical
 * path of length Tinf and one chain of D memory accesses of the first
 * configuration, attributed to functions and source lines, each line with
 * what carries its links; with --critical-path=data also the paths of the
 * data eDAG (analysis/deps/deps.h: no address bookkeeping) beside them.
 */
#include "tool/graph/critpath_tool.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/critpath/critpath.h"
#include "report/critpath_report.h"
#include "tool/base/base.h"

/* The full eDAG's paths and, with =data, the data eDAG's: both trackers see every record. */
typedef struct critpath_tool {
    edan_critpath *full, *data;
    const edan_error *failed; /* the error of the one that failed */
} critpath_tool;

static void want_data(void *ctx, const char *value)
{
    *(bool *)ctx |= value && !strcmp(value, "data");
}

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "critical-path", NULL, NULL) > 0;
}

/* The option's value: none (the eDAG's paths) or "data" (the data eDAG's too). */
static int check_value(const char *value, edan_error *err)
{
    if (value && strcmp(value, "data")) {
        edan_error_set(err, "--critical-path=%s: the value is 'data' (the data eDAG's paths too) or none", value);
        return -1;
    }
    return 0;
}

static void destroy(void *t)
{
    critpath_tool *c = t;
    edan_critpath_free(c->full);
    edan_critpath_free(c->data);
    free(c);
}

static void *create(edan_session *s, edan_error *err)
{
    edan_edag_config cfg;
    const edan_options *o = edan_session_options(s);
    if (edan_options_edag_config(o, &cfg, err))
        return NULL;
    bool data = false;
    edan_options_each(o, "critical-path", want_data, &data);
    critpath_tool *c = calloc(1, sizeof *c);
    if (!c) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    c->full = edan_critpath_new(&cfg.lane[0], cfg.false_deps, false, err);
    if (c->full && data)
        c->data = edan_critpath_new(&cfg.lane[0], false, true, err);
    if (!c->full || (data && !c->data)) {
        destroy(c);
        return NULL;
    }
    return c;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    critpath_tool *c = ctx;
    edan_critpath_consume(c->full, recs, n);
    if (c->data)
        edan_critpath_consume(c->data, recs, n);
}

static int finish(void *ctx)
{
    critpath_tool *c = ctx;
    if (edan_critpath_finish(c->full)) {
        c->failed = edan_critpath_error(c->full);
        return -1;
    }
    if (c->data && edan_critpath_finish(c->data)) {
        c->failed = edan_critpath_error(c->data);
        return -1;
    }
    return 0;
}

static edan_consumer consumer(void *t)
{
    critpath_tool *c = t;
    edan_consumer k = edan_critpath_consumer(c->full);
    k.ctx = c;
    k.consume = consume;
    k.finish = finish;
    return k;
}

static const edan_error *error(const void *t)
{
    const critpath_tool *c = t;
    if (c->failed)
        return c->failed;
    const edan_error *e = edan_critpath_error(c->full);
    return e->set || !c->data ? e : edan_critpath_error(c->data);
}

static void report(void *t, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const critpath_tool *c = t;
    const char *binary = edan_session_source(s)->binary;
    if (fmt != EDAN_FORMAT_TABLE)
        edan_report_critpath(f, c->full, c->data, binary, edan_session_source(s)->objects,
                             fmt == EDAN_FORMAT_JSON ? 20 : 10, fmt == EDAN_FORMAT_JSON);
}

/* --csv-dir: <name>-critical-path.csv */
static int outputs(void *t, const edan_session *s, edan_error *err)
{
    const critpath_tool *c = t;
    const edan_options *o = edan_session_options(s);
    if (!o->csv_dir[0])
        return 0;
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    return edan_report_critpath_csv(c->full, c->data, edan_session_source(s)->binary, edan_session_source(s)->objects,
                                    o->csv_dir, name, err);
}

static const edan_tool_option options[] = {
    {"critical-path", false,
     "  --critical-path     find one critical path (length Tinf) and one chain of D dependent\n"
     "                      memory accesses, and list the source lines (DWARF, -g) that make\n"
     "                      them up, each with the register or bytes that carry its links\n"
     "                      (first configuration; spills about 1.7 bytes per instruction\n"
     "                      to a temporary file)\n"
     "  --critical-path=data  and beside them those of the data eDAG: address bookkeeping\n"
     "                      left out (the stack pointer, frame pointers, loop pointers and\n"
     "                      counters: integer arithmetic whose results only address memory\n"
     "                      or steer branches); loaded values, pointers too, stay data\n",
     check_value},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_critpath_tool = {
    .name = "critical-path",
    .summary = "a critical path and a memory chain, by source line",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .tables = edan_critpath_tables,
    .outputs = outputs,
    .destroy = destroy,
    .reads_program = true,
    .threaded = true,
};

const edan_critpath *edan_critpath_tool_path(const edan_session *s)
{
    const critpath_tool *c = edan_session_instance(s, &edan_critpath_tool);
    return c ? c->full : NULL;
}
