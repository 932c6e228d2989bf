#include "tool/session.h"

#include <stdlib.h>
#include <string.h>

#include "trace/async.h"
#include "util/files.h"

/* Tools one session runs at most (the registry's size, with room to grow). */
#define EDAN_SESSION_MAX_TOOLS 16

/*
 * A threaded tool reads each batch where the producer put it (lent, not
 * copied: a copy cost as much as the eDAG analysis of the batch), while
 * the session's own thread runs the other tools on it; the batch is handed
 * back only when every thread is done with it. The worker's own buffers
 * are never filled: the smallest it takes.
 */
#define TOOL_BATCH 1
#define TOOL_BUFFERS 2

typedef struct tool_run {
    const edan_tool_def *def;
    void *tool;
    edan_consumer k;
    edan_async *async; /* threaded tools: the thread that feeds k */
} tool_run;

struct edan_session {
    edan_options o;
    edan_report_source src;
    int n;
    tool_run run[EDAN_SESSION_MAX_TOOLS];
    int zero_copy; /* the tool whose buffer() the producer writes into, or -1 */
    bool finished;
    edan_error err;
};

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

static const edan_tool_option *tool_option(const char *key)
{
    for (int t = 0; t < edan_n_tools; t++)
        for (const edan_tool_option *op = edan_tools[t]->options; op && op->name; op++)
            if (!strcmp(op->name, key))
                return op;
    return NULL;
}

int edan_session_option_takes_value(const char *key)
{
    int v = edan_options_takes_value(key);
    if (v >= 0)
        return v;
    const edan_tool_option *op = tool_option(key);
    return op ? op->takes_value != EDAN_FLAG : -1;
}

int edan_session_option_kind(const char *key)
{
    const int v = edan_options_value_kind(key);
    if (v >= 0)
        return v;
    const edan_tool_option *op = tool_option(key);
    return op ? op->takes_value : -1;
}

/*
 * An option that names an output is declared as it is set (util/files.h):
 * checked before the command starts (writable, not a directory, no input)
 * and remembered, so no input opened later can be it.
 */
static int declare_output(const char *key, const char *value, edan_error *err)
{
    const int kind = edan_session_option_kind(key);
    char what[80];
    snprintf(what, sizeof what, "--%s", key);
    if (kind == EDAN_VALUE_OUTPUT)
        return edan_output_declare(value, what, err);
    if (kind == EDAN_VALUE_OUTPUT_DIR)
        return edan_output_declare_dir(value, what, err);
    return 0;
}

int edan_session_option_set(edan_options *o, const char *key, const char *value, edan_error *err)
{
    int rc = edan_options_set(o, key, value, err);
    if (rc == 0)
        return declare_output(key, value, err);
    if (rc < 0)
        return rc;
    const edan_tool_option *op = tool_option(key);
    if (!op)
        return 1;
    if (op->takes_value && (!value || !*value)) {
        edan_error_set(err, "--%s needs a value (it is empty)", key);
        return -1;
    }
    if (!op->takes_value && value) {
        edan_error_set(err, "--%s takes no value", key);
        return -1;
    }
    if (op->check && op->check(value, err))
        return -1;
    if (edan_options_add_raw(o, key, value, err))
        return -1;
    return declare_output(key, value, err);
}

void edan_session_options_help(FILE *f)
{
    edan_options_help(f);
    fputs("Analysis tools (several run in one pass over the stream):\n", f);
    for (int t = 0; t < edan_n_tools; t++)
        for (const edan_tool_option *op = edan_tools[t]->options; op && op->name; op++)
            fputs(op->help, f);
}

/* ===================================================================== */
/* The stream: every tool gets every batch                                */
/* ===================================================================== */

static void fan_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_session *s = ctx;
    for (int i = 0; i < s->n; i++)
        if (s->run[i].async)
            edan_async_lend(s->run[i].async, recs, n);
    /* the tool whose buffer this batch may be goes last: it hands the buffer on (its threads only read it) */
    for (int i = 0; i < s->n; i++)
        if (!s->run[i].async && i != s->zero_copy)
            s->run[i].k.consume(s->run[i].k.ctx, recs, n);
    if (s->zero_copy >= 0)
        s->run[s->zero_copy].k.consume(s->run[s->zero_copy].k.ctx, recs, n);
    for (int i = 0; i < s->n; i++)
        if (s->run[i].async)
            edan_async_wait(s->run[i].async);
}

static edan_exec *fan_buffer(void *ctx, size_t *cap)
{
    edan_session *s = ctx;
    const edan_consumer *k = &s->run[s->zero_copy].k;
    return k->buffer(k->ctx, cap);
}

static int finish_all(edan_session *s)
{
    if (s->finished)
        return s->err.set ? -1 : 0;
    s->finished = true;
    for (int i = 0; i < s->n; i++) {
        tool_run *r = &s->run[i];
        int rc = r->async ? edan_async_finish(r->async) : r->k.finish(r->k.ctx);
        if (rc && !s->err.set) {
            const edan_error *e = r->def->error(r->tool);
            edan_error_set(&s->err, "%s", e->set ? e->msg : "analysis failed");
        }
    }
    return s->err.set ? -1 : 0;
}

static int fan_finish(void *ctx)
{
    return finish_all(ctx);
}

edan_consumer edan_session_consumer(edan_session *s)
{
    /* always the session's own, even for one tool: finishing twice (producer, then caller) is then harmless */
    return (edan_consumer){s, fan_consume, fan_finish, s->zero_copy >= 0 ? fan_buffer : NULL};
}

int edan_session_finish(edan_session *s, edan_error *err)
{
    if (finish_all(s)) {
        edan_error_set(err, "%s", s->err.msg);
        return -1;
    }
    return 0;
}

/* ===================================================================== */
/* Life cycle and report                                                  */
/* ===================================================================== */

static bool named(const char *const *only, const char *name)
{
    for (; *only; only++)
        if (!strcmp(*only, name))
            return true;
    return false;
}

edan_session *edan_session_new(const edan_options *o, const char *const *only, const edan_report_source *src,
                               edan_error *err)
{
    edan_session *s = calloc(1, sizeof *s);
    if (!s) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    s->o = *o;
    if (src)
        s->src = *src;
    s->zero_copy = -1;
    for (const char *const *name = only; name && *name; name++) {
        if (!edan_tool_find(*name)) {
            edan_error_set(err, "no analysis tool is named '%s'", *name);
            free(s);
            return NULL;
        }
    }
    for (int t = 0; t < edan_n_tools; t++) {
        const edan_tool_def *d = edan_tools[t];
        if (only ? !named(only, d->name) : !d->wanted(o))
            continue;
        if (s->n == EDAN_SESSION_MAX_TOOLS) {
            edan_error_set(err, "more than %d analysis tools in one session", EDAN_SESSION_MAX_TOOLS);
            edan_session_free(s);
            return NULL;
        }
        tool_run *r = &s->run[s->n];
        r->def = d;
        /* visible to the tools created after it (create() may look up earlier tools) */
        r->tool = d->create(s, err);
        if (!r->tool) {
            edan_session_free(s);
            return NULL;
        }
        s->n++;
        r->k = d->consumer(r->tool);
        if (d->threaded) {
            r->async = edan_async_new(r->k, TOOL_BATCH, TOOL_BUFFERS);
            if (!r->async) {
                edan_error_set(err, "cannot start the thread of the %s tool", d->name);
                edan_session_free(s);
                return NULL;
            }
        } else if (r->k.buffer && s->zero_copy < 0) {
            s->zero_copy = s->n - 1;
        }
    }
    if (!s->n) {
        edan_error_set(err, "no analysis tool was asked for");
        edan_session_free(s);
        return NULL;
    }
    return s;
}

int edan_session_report(edan_session *s, FILE *f, edan_error *err)
{
    const edan_report_format fmt = s->o.json ? EDAN_FORMAT_JSON : s->o.table ? EDAN_FORMAT_TABLE : EDAN_FORMAT_TEXT;
    if (fmt == EDAN_FORMAT_JSON)
        edan_report_json_begin(f, &s->o, &s->src);
    else if (fmt == EDAN_FORMAT_TEXT)
        edan_report_text_header(f, &s->o, &s->src);
    for (int i = 0; i < s->n; i++)
        if (s->run[i].def->report)
            s->run[i].def->report(s->run[i].tool, s, fmt, f);
    if (fmt == EDAN_FORMAT_JSON)
        fputs("}\n", f);
    if (fflush(f) || ferror(f)) {
        edan_error_set(err, "the report could not be written");
        return -1;
    }
    return 0;
}

int edan_session_outputs(edan_session *s, edan_error *err)
{
    for (int i = 0; i < s->n; i++)
        if (s->run[i].def->outputs && s->run[i].def->outputs(s->run[i].tool, s, err))
            return -1;
    return 0;
}

void edan_session_free(edan_session *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        if (s->run[i].async) {
            if (!s->finished)
                edan_async_finish(s->run[i].async);
            edan_async_free(s->run[i].async);
        }
        s->run[i].def->destroy(s->run[i].tool);
    }
    free(s);
}

void edan_session_source_name(const edan_session *s, bool strip_ext, char *buf, size_t cap)
{
    const edan_report_source *src = &s->src;
    const bool trace = src->path && *src->path;
    const char *from = trace ? src->path : src->binary && *src->binary ? src->binary : "program";
    const char *slash = strrchr(from, '/');
    snprintf(buf, cap, "%s", slash ? slash + 1 : from);
    char *dot = trace && strip_ext ? strrchr(buf, '.') : NULL;
    if (dot && dot != buf)
        *dot = '\0';
}

void edan_session_set_source(edan_session *s, const edan_report_source *src)
{
    s->src = *src;
}

const edan_options *edan_session_options(const edan_session *s)
{
    return &s->o;
}

const edan_report_source *edan_session_source(const edan_session *s)
{
    return &s->src;
}

bool edan_session_reads_program(const edan_options *o)
{
    for (int t = 0; t < edan_n_tools; t++)
        if (edan_tools[t]->reads_program && edan_tools[t]->wanted(o))
            return true;
    return false;
}

void *edan_session_tool(const edan_session *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->run[i].def->name, name))
            return s->run[i].tool;
    return NULL;
}
