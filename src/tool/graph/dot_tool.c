/*
 * dot_tool.c - the eDAG drawing tool (--dot=FILE, and the edan dot command):
 * the eDAG of a small traced region as Graphviz DOT (report/dot.h), with the
 * first configuration's cache and costs and the session's dependencies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/dot.h"
#include "tool/base/base.h"
#include "util/files.h"
#include "util/parse.h"

#define DEFAULT_MAX_VERTICES 5000

typedef struct dot_tool {
    edan_dot *d;
    edan_error err; /* what finish() found: reported by outputs(), as a problem of the input */
} dot_tool;

static int check_max(const char *value, edan_error *err)
{
    uint64_t v;
    if (edan_parse_u64(value, &v) || v == 0 || v > 100000000) {
        edan_error_set(err, "--max-vertices: '%s' is not a number of vertices from 1 to 10^8", value);
        return -1;
    }
    return 0;
}

static bool wanted(const edan_options *o)
{
    return edan_options_last(o, "dot") != NULL;
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    edan_edag_config cfg;
    if (edan_options_edag_config(o, &cfg, err))
        return NULL;
    uint64_t max = DEFAULT_MAX_VERTICES;
    const char *m = edan_options_last(o, "max-vertices");
    if (m)
        edan_parse_u64(m, &max); /* checked when it was given */
    dot_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    t->d = edan_dot_new(&cfg.lane[0], cfg.false_deps, (size_t)max, err);
    if (!t->d) {
        free(t);
        return NULL;
    }
    return t;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_dot_consume(((dot_tool *)ctx)->d, recs, n);
}

static int finish(void *ctx)
{
    dot_tool *t = ctx;
    if (edan_dot_finish(t->d))
        edan_error_set(&t->err, "%s", edan_dot_error(t->d)->msg);
    return 0;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL, edan_dot_consumer(((dot_tool *)t)->d).warms};
}

static const edan_error *error(const void *t)
{
    return &((const dot_tool *)t)->err;
}

static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    dot_tool *t = tool;
    if (t->err.set) {
        edan_error_set(err, "%s", t->err.msg);
        return -1;
    }
    const char *path = edan_options_last(edan_session_options(s), "dot");
    char title[1100];
    edan_session_source_name(s, false, title, sizeof title);
    const bool to_stdout = !strcmp(path, "-");
    edan_output out;
    FILE *f = to_stdout ? stdout : edan_output_fopen(&out, path, "--dot", err);
    if (!f)
        return -1;
    int rc = edan_dot_write(t->d, f, title);
    if (to_stdout) {
        if (rc || fflush(f))
            edan_error_set(err, "standard output: write failed");
        return rc || ferror(f) ? -1 : 0;
    }
    if (rc) {
        edan_output_abort(&out);
        edan_error_set(err, "%s: write failed", path);
        return -1;
    }
    return edan_output_commit(&out, err);
}

static void destroy(void *tool)
{
    dot_tool *t = tool;
    if (t)
        edan_dot_free(t->d);
    free(t);
}

static const edan_tool_option options[] = {
    {"dot", EDAN_VALUE_OUTPUT,
     "  --dot=FILE          draw the eDAG of a small traced region as Graphviz DOT ('-': standard\n"
     "                      output), as edan dot does\n",
     NULL},
    {"max-vertices", true, "  --max-vertices=N    with --dot, refuse larger regions [5000]\n", check_max},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_dot_tool = {
    .name = "dot",
    .summary = "the eDAG of a small region as Graphviz DOT, a critical path in bold",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .outputs = outputs,
    .destroy = destroy,
};
