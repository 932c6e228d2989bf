#include "tool/session.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "tool/registry.h"
#include "trace/async.h"
#include "util/files.h"

/*
 * A threaded tool reads each batch where the producer put it (lent, not
 * copied: a copy cost as much as the eDAG analysis of the batch), while
 * the session's own thread runs the other tools on it; the batch is handed
 * back only when every thread is done with it. The worker's own buffers
 * are never filled: the smallest it takes.
 */
#define TOOL_BATCH 1
#define TOOL_BUFFERS (EDAN_SESSION_MAX_LAG + 2) /* lent batches: lag of them left, one lent, one slot free */

/* A tool that runs: its definition and instance are the base's def[] and tool[] at the same index. */
typedef struct tool_run {
    int reg;           /* its index in the registry: the place of its report section */
    edan_consumer k;   /* what the session feeds: the tool's own consumer, or region_only() around it */
    edan_consumer own; /* the tool's own consumer */
    edan_async *async; /* threaded tools: the thread that feeds k */
} tool_run;

struct edan_session {
    edan_session_base b; /* first: what the tools read (tool/base/base.h), their definitions and instances */
    tool_run run[EDAN_SESSION_MAX_TOOLS]; /* in the order they run: each after the tools it uses */
    int sections[EDAN_SESSION_MAX_TOOLS]; /* run[]'s indices in the registry's order: the report's */
    int zero_copy;                        /* the tool whose buffer() the producer writes into, or -1 */
    int lag;          /* batches the threaded tools may still read when consume() returns (edan_session_pipeline()) */
    bool tool_buffer; /* the batch being made is in the zero-copy tool's buffer (fan_buffer()): no lag for it */
    /*
     * Warm state (docs/model.md). The source may hold warm records
     * (trace/exec.h) when it says so (edan_report_source.warm: the plugin
     * with a filter, a trace recorded so); they are used (warming) without
     * --cold when a tool has state to warm: the tools whose consumers warm
     * get them among the region's records, every other tool, and every tool
     * with --cold, the region's alone.
     */
    bool warming;
    bool finished;
    edan_error err;
    /*
     * The totals' a-priori bound: no tool's total grows by more than
     * per_memory at a load, store or AMO, per_other at any other
     * instruction. While the sum of those over the stream fits in 64 bits,
     * no total (T1, Tinf, cycles, bytes, counts) can have wrapped. With
     * small costs it is insns x the larger, once a batch; with a cost past
     * REFINE_ABOVE (which a long stream could make wrap), the batch's memory
     * instructions are counted too, so that the bound is the exact total of
     * a stream whose every vertex costs the most it can.
     */
    uint64_t per_memory, per_other, insns, bound;
    uint64_t kernel_lines; /* the kernel's writes among the warm records used (EDAN_EXEC_KERNEL) */
};
/* the tools read the base through a pointer to the session (tool/base/base.c) */
_Static_assert(offsetof(struct edan_session, b) == 0, "a session begins with its base");

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
    /* an output is checked before the option is recorded: a refused one leaves no trace in the options */
    if (value && *value && declare_output(key, value, err))
        return -1;
    int rc = edan_options_set(o, key, value, err);
    if (rc <= 0)
        return rc;
    const edan_tool_option *op = tool_option(key);
    if (!op)
        return 1;
    if (op->takes_value && (!value || !*value)) {
        edan_error_set(err, "--%s needs a value (it is empty)", key);
        return -1;
    }
    if (!op->takes_value && value && !op->check) { /* a flag with a check may take a value it accepts */
        edan_error_set(err, "--%s takes no value", key);
        return -1;
    }
    if (op->check && op->check(value, err))
        return -1;
    return edan_options_add_raw(o, key, value, err) ? -1 : 0;
}

/* Each option that means nothing without another: --machine names the machine the model and the projection use. */
static const struct {
    const char *option, *needs, *why;
} option_needs[] = {
    {"mem-latency", "machine", "the latencies are those of a machine's memory (e.g. --machine=gem5-validation)"},
    {"projection", "machine", "the machine to project onto (e.g. --machine=gem5-validation)"},
    {"exact", "machine", "it is the timing model's full schedule (e.g. --machine=gem5-validation)"},
    {"sampled", "machine", "it is the timing model's sampled schedule (e.g. --machine=gem5-validation)"},
    {"sample-timing", "machine", "it samples the timing model's schedule (e.g. --machine=gem5-validation)"},
    {"schedule-dump", "machine", "it is the timing model's schedule (e.g. --machine=gem5-validation)"},
    {"schedule-window", "schedule-dump", "it is the window of the schedule dump (--schedule-dump=FILE)"},
};

/* Options that contradict each other. */
static const struct {
    const char *option, *against, *why;
} option_conflicts[] = {
    {"exact", "sampled", "the schedule is either whole (--exact) or sampled (the default)"},
    {"exact", "sample-timing", "--sample-timing sets the sampling that --exact turns off"},
    {"schedule-dump", "sampled", "the dump is of the full schedule, which --schedule-dump implies (--exact)"},
    {"schedule-dump", "sample-timing", "the dump is of the full schedule, which --schedule-dump implies (--exact)"},
};

int edan_session_options_check(const edan_options *o, edan_error *err)
{
    for (size_t i = 0; i < sizeof option_needs / sizeof option_needs[0]; i++)
        if (edan_options_each(o, option_needs[i].option, NULL, NULL) > 0 &&
            edan_options_each(o, option_needs[i].needs, NULL, NULL) == 0) {
            edan_error_set(err, "--%s needs --%s: %s", option_needs[i].option, option_needs[i].needs,
                           option_needs[i].why);
            return -1;
        }
    for (size_t i = 0; i < sizeof option_conflicts / sizeof option_conflicts[0]; i++)
        if (edan_options_each(o, option_conflicts[i].option, NULL, NULL) > 0 &&
            edan_options_each(o, option_conflicts[i].against, NULL, NULL) > 0) {
            edan_error_set(err, "--%s and --%s contradict each other: %s", option_conflicts[i].option,
                           option_conflicts[i].against, option_conflicts[i].why);
            return -1;
        }
    return 0;
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

#define REFINE_ABOVE (1ull << 24)

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/*
 * What the options' cost model lets one instruction add, for every tool that
 * schedules the eDAG with it (edag, critical-path, dot, annotate): the largest
 * cost of a vertex in any configuration (T1, Tinf, C), alpha only for a load,
 * store or AMO (a memory-access vertex is one), and for those the most bytes
 * they can move (line fills and write-backs at every level).
 */
static void cost_maxima(const edan_options *o, uint64_t *memory, uint64_t *other)
{
    edan_edag_config cfg;
    edan_error ignored = {0};
    if (edan_options_edag_config(o, &cfg, &ignored)) /* the tools that use it said why */
        return;
    for (int k = 0; k < cfg.n_lanes; k++) {
        const edan_lane_config *l = &cfg.lane[k];
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            *other = max_u64(*other, l->cost.cls[c]);
        *memory = max_u64(max_u64(*memory, *other), max_u64(l->cost.alpha, 64));
        for (int v = 0; v < l->cache.n_levels; v++)
            *memory = max_u64(*memory, (uint64_t)l->cache.level[v].line * 2 * (uint64_t)(l->cache.n_levels + 1));
    }
}

/* Add the batch's n measured records (warm ones add to no total) to the totals' bound; false when a total could
 * pass 2^64 - 1. */
static bool bound_add(edan_session *s, const edan_exec *recs, size_t len, size_t n)
{
    const uint64_t most = s->per_memory > s->per_other ? s->per_memory : s->per_other;
    uint64_t add;
    if (most <= REFINE_ABOVE)
        return !__builtin_mul_overflow((uint64_t)n, most, &add) && !__builtin_add_overflow(s->bound, add, &s->bound);
    uint64_t mem = 0;
    for (size_t i = 0; i < len; i++)
        mem += recs[i].insn->mem != EDAN_MEM_NONE && !(recs[i].flags & EDAN_EXEC_WARM);
    uint64_t other;
    return !__builtin_mul_overflow(mem, s->per_memory, &add) && !__builtin_add_overflow(s->bound, add, &s->bound) &&
           !__builtin_mul_overflow((uint64_t)n - mem, s->per_other, &other) &&
           !__builtin_add_overflow(s->bound, other, &s->bound);
}

/* The consumer of a tool that has nothing to warm, while the session warms: the region's runs alone. */
static void region_only(void *ctx, const edan_exec *recs, size_t n)
{
    const tool_run *r = ctx;
    edan_exec_split(recs, n, r->own.ctx, r->own.consume, NULL);
}

static int region_only_finish(void *ctx)
{
    const tool_run *r = ctx;
    return r->own.finish(r->own.ctx);
}

/* A batch of n records, measured of them in the region, kernel of them the kernel's writes (SIZE_MAX: not
 * counted yet): to every tool. */
static void fan_batch(edan_session *s, const edan_exec *recs, size_t n, size_t measured, size_t kernel)
{
    s->insns += measured;
    if (s->warming && measured < n)
        s->kernel_lines += kernel != SIZE_MAX ? kernel : edan_exec_kernel_count(recs, n);
    if (!s->err.set && !bound_add(s, recs, n, measured))
        /* the batch is still analysed (a tool may be waiting for it), but its results are never reported */
        edan_error_set(&s->err,
                       "a total cannot be represented: by instruction %" PRIu64 ", at up to %" PRIu64
                       " a load or store and %" PRIu64
                       " any other instruction (cycles of the largest --alpha, --cost or machine latency, or bytes), "
                       "the totals could exceed 2^64 - 1; lower the costs or analyse a shorter region",
                       s->insns, s->per_memory, s->per_other);
    for (int i = 0; i < s->b.n; i++)
        if (s->run[i].async)
            edan_async_lend(s->run[i].async, recs, n);
    /* the tool whose buffer this batch may be goes last: it hands the buffer on (its threads only read it) */
    /* a batch of the region's records alone needs no tool's region filter (region_only()) */
    for (int i = 0; i < s->b.n; i++) {
        const tool_run *r = &s->run[i];
        if (r->async || i == s->zero_copy)
            continue;
        if (measured == n)
            r->own.consume(r->own.ctx, recs, n);
        else if (!(s->b.src.warm_on_demand && r->k.consume == region_only)) /* all warm: nothing for it */
            r->k.consume(r->k.ctx, recs, n);
    }
    if (s->zero_copy >= 0)
        s->run[s->zero_copy].k.consume(s->run[s->zero_copy].k.ctx, recs, n);
    for (int i = 0; i < s->b.n; i++)
        if (s->run[i].async)
            edan_async_wait_below(s->run[i].async, s->tool_buffer ? 0 : s->lag);
    s->tool_buffer = false;
}

static void fan_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_session *s = ctx;
    /* warm on demand (report.h): none unless the session warms, and then a batch is all warm or none */
    const size_t measured = !s->b.src.warm            ? n
                            : s->b.src.warm_on_demand ? (s->warming && n && (recs[0].flags & EDAN_EXEC_WARM) ? 0 : n)
                                                      : n - edan_exec_warm_count(recs, n);
    fan_batch(s, recs, n, measured, SIZE_MAX);
}

void edan_session_consume_counted(edan_session *s, const edan_exec *recs, size_t n, size_t warm, size_t kernel)
{
    if (s->b.src.warm_on_demand) /* the plugin's batches, not a trace's: warm means something else there */
        fan_consume(s, recs, n);
    else
        fan_batch(s, recs, n, s->b.src.warm ? n - warm : n, kernel);
}

static edan_exec *fan_buffer(void *ctx, size_t *cap)
{
    edan_session *s = ctx;
    const edan_consumer *k = &s->run[s->zero_copy].k;
    edan_exec *into = k->buffer(k->ctx, cap);
    s->tool_buffer = into != NULL;
    return into;
}

static int finish_all(edan_session *s)
{
    if (s->finished)
        return s->err.set ? -1 : 0;
    s->finished = true;
    for (int i = 0; i < s->b.n; i++) {
        tool_run *r = &s->run[i];
        int rc = r->async ? edan_async_finish(r->async) : r->k.finish(r->k.ctx);
        if (rc && !s->err.set) {
            const edan_error *e = s->b.def[i]->error(s->b.tool[i]);
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
    return (edan_consumer){s, fan_consume, fan_finish, s->zero_copy >= 0 ? fan_buffer : NULL, s->warming};
}

int edan_session_pipeline(edan_session *s, int lag)
{
    s->lag = lag <= 0 ? 0 : lag < EDAN_SESSION_MAX_LAG ? lag : EDAN_SESSION_MAX_LAG;
    return s->lag;
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

static int registry_index(const edan_tool_def *d)
{
    for (int t = 0; t < edan_n_tools; t++)
        if (edan_tools[t] == d)
            return t;
    return -1;
}

/*
 * The order the chosen tools run in: the registry's, except that a tool comes
 * after every chosen tool it uses (a depth-first walk of `uses`). state[t]: 0
 * not placed, 1 being placed (meeting it again is a cycle), 2 placed.
 * 0, or -1 with err naming the cycle's tool.
 */
static int place(int t, const bool *chosen, char *state, int *order, int *n, edan_error *err)
{
    if (state[t] == 2)
        return 0;
    if (state[t] == 1) {
        edan_error_set(err, "the analysis tools' uses form a cycle through '%s'", edan_tools[t]->name);
        return -1;
    }
    state[t] = 1;
    for (const edan_tool_def *const *u = edan_tools[t]->uses; u && *u; u++) {
        const int k = registry_index(*u);
        if (k < 0) {
            edan_error_set(err, "the analysis tool '%s' uses a tool that is not in the registry", edan_tools[t]->name);
            return -1;
        }
        if (chosen[k] && place(k, chosen, state, order, n, err))
            return -1;
    }
    state[t] = 2;
    order[(*n)++] = t;
    return 0;
}

static int run_order(const edan_options *o, const char *const *only, int *order, int *n, edan_error *err)
{
    bool chosen[EDAN_SESSION_MAX_TOOLS * 4] = {false};
    char state[EDAN_SESSION_MAX_TOOLS * 4] = {0};
    if (edan_n_tools > (int)sizeof chosen) {
        edan_error_set(err, "more than %zu analysis tools in the registry", sizeof chosen);
        return -1;
    }
    for (const char *const *name = only; name && *name; name++)
        if (!edan_tool_find(*name)) {
            edan_error_set(err, "no analysis tool is named '%s'", *name);
            return -1;
        }
    int many = 0;
    for (int t = 0; t < edan_n_tools; t++)
        many += chosen[t] = only ? named(only, edan_tools[t]->name) : edan_tools[t]->wanted(o);
    if (many > EDAN_SESSION_MAX_TOOLS) {
        edan_error_set(err, "more than %d analysis tools in one session", EDAN_SESSION_MAX_TOOLS);
        return -1;
    }
    *n = 0;
    for (int t = 0; t < edan_n_tools; t++)
        if (chosen[t] && place(t, chosen, state, order, n, err))
            return -1;
    return 0;
}

edan_session *edan_session_new(const edan_options *o, const char *const *only, const edan_report_source *src,
                               edan_error *err)
{
    int order[EDAN_SESSION_MAX_TOOLS], n_order;
    if (run_order(o, only, order, &n_order, err))
        return NULL;
    edan_session *s = calloc(1, sizeof *s);
    if (!s) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    s->b.o = *o;
    if (src)
        s->b.src = *src;
    s->zero_copy = -1;
    for (int j = 0; j < n_order; j++) {
        const edan_tool_def *d = edan_tools[order[j]];
        tool_run *r = &s->run[s->b.n];
        r->reg = order[j];
        void *tool = d->create(s, err);
        if (!tool) {
            edan_session_free(s);
            return NULL;
        }
        /* visible to the tools created after it, among them every tool that uses it */
        s->b.def[s->b.n] = d;
        s->b.tool[s->b.n++] = tool;
        r->k = r->own = d->consumer(tool);
        s->warming = s->warming || r->own.warms;
        uint64_t memory = EDAN_TOOL_PER_INSN_DEFAULT, other = EDAN_TOOL_PER_INSN_DEFAULT;
        if (d->max_per_insn)
            d->max_per_insn(tool, &memory, &other);
        s->per_memory = max_u64(memory, s->per_memory);
        s->per_other = max_u64(other, s->per_other);
    }
    /* the report's sections: the registry's order */
    for (int i = 0, k = 0; i < edan_n_tools; i++)
        for (int j = 0; j < s->b.n; j++)
            if (s->run[j].reg == i)
                s->sections[k++] = j;
    cost_maxima(o, &s->per_memory, &s->per_other);
    if (!s->b.n) {
        edan_error_set(err, "no analysis tool was asked for");
        edan_session_free(s);
        return NULL;
    }
    s->warming = s->warming && s->b.src.warm && !o->cold;
    for (int i = 0; i < s->b.n; i++) {
        tool_run *r = &s->run[i];
        /* never a buffer then: the region's runs are not the producer's batch */
        if (s->b.src.warm && !(s->warming && r->own.warms) && (s->warming || !s->b.src.warm_on_demand))
            r->k = (edan_consumer){r, region_only, region_only_finish, NULL, true};
        /* --threads=1: everything on the calling thread, a threaded tool (the timing model) too */
        if (s->b.def[i]->threaded && o->threads != 1) {
            r->async = edan_async_new(r->k, TOOL_BATCH, TOOL_BUFFERS);
            if (!r->async) {
                edan_error_set(err, "cannot start the thread of the %s tool", s->b.def[i]->name);
                edan_session_free(s);
                return NULL;
            }
        } else if (r->k.buffer && s->zero_copy < 0) {
            s->zero_copy = i;
        }
    }
    return s;
}

/* The header, every tool's section, and the JSON object's end. */
static void write_report(edan_session *s, edan_report_format fmt, FILE *f)
{
    s->b.src.kernel_lines = s->kernel_lines;
    if (fmt != EDAN_FORMAT_TABLE) {
        edan_report_header(f, &s->b.o, &s->b.src, fmt == EDAN_FORMAT_JSON);
        edan_report_caches(f, &s->b.o, &s->b.src, fmt == EDAN_FORMAT_JSON, edan_session_runs(s, &edan_edag_tool),
                           edan_session_runs(s, &edan_timing_tool), edan_session_runs(s, &edan_projection_tool));
    }
    for (int i = 0; i < s->b.n; i++) {
        const edan_tool_def *d = s->b.def[s->sections[i]];
        edan_tool_report(d, s->b.tool[s->sections[i]], s, fmt, f);
    }
    if (fmt == EDAN_FORMAT_JSON)
        fputs("}\n", f);
}

int edan_session_report(edan_session *s, FILE *f, edan_error *err)
{
    write_report(s, s->b.o.json ? EDAN_FORMAT_JSON : s->b.o.table ? EDAN_FORMAT_TABLE : EDAN_FORMAT_TEXT, f);
    if (fflush(f) || ferror(f)) {
        edan_error_set(err, "the report could not be written");
        return -1;
    }
    return 0;
}

int edan_session_html(edan_session *s, edan_error *err)
{
    if (!s->b.o.html[0])
        return 0;
    char *json = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&json, &len);
    if (!m) {
        edan_error_set(err, "%s: out of memory for the HTML report", s->b.o.html);
        return -1;
    }
    write_report(s, EDAN_FORMAT_JSON, m);
    if (fclose(m)) {
        free(json);
        edan_error_set(err, "%s: out of memory for the HTML report", s->b.o.html);
        return -1;
    }
    edan_output out;
    FILE *f = edan_output_fopen(&out, s->b.o.html, "--html", err);
    int rc = f ? 0 : -1;
    if (f && edan_report_html(f, &s->b.src, json, len)) {
        edan_error_set(err, "%s: write failed: %s", s->b.o.html, strerror(errno));
        edan_output_abort(&out);
        rc = -1;
    } else if (f) {
        rc = edan_output_commit(&out, err) ? -1 : 0;
    }
    free(json);
    return rc;
}

int edan_session_outputs(edan_session *s, edan_error *err)
{
    if (edan_session_html(s, err))
        return -1;
    for (int i = 0; i < s->b.n; i++) {
        const edan_tool_def *d = s->b.def[s->sections[i]];
        if (edan_tool_outputs(d, s->b.tool[s->sections[i]], s, err))
            return -1;
    }
    return 0;
}

void edan_session_free(edan_session *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->b.n; i++) {
        if (s->run[i].async) {
            if (!s->finished)
                edan_async_finish(s->run[i].async);
            edan_async_free(s->run[i].async);
        }
        s->b.def[i]->destroy(s->b.tool[i]);
    }
    free(s);
}

void edan_session_set_source(edan_session *s, const edan_report_source *src)
{
    s->b.src = *src;
}

bool edan_session_reads_program(const edan_options *o)
{
    for (int t = 0; t < edan_n_tools; t++)
        if (edan_tools[t]->reads_program && edan_tools[t]->wanted(o))
            return true;
    return false;
}

bool edan_session_runs(const edan_session *s, const edan_tool_def *def)
{
    return edan_session_instance(s, def) != NULL;
}

void edan_session_report_tool(const edan_session *s, const edan_tool_def *def, edan_report_format fmt, FILE *f)
{
    void *tool = edan_session_instance(s, def);
    if (tool)
        edan_tool_report(def, tool, s, fmt, f);
}
