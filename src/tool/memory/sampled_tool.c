/*
 * sampled_tool.c - MemGaze's sampled estimates beside the exact values of
 * the same run (--sample-period=P, --sample-window=W).
 *
 * MemGaze records w loads of every w + z (a sample, from Intel PT) and
 * scales what the samples show up to the whole run (PNNL-33259, Eq. 1-4).
 * edan sees every load, so it can compute both on one stream: the loads
 * are cut into periods of P = w + z loads, the first W of each period form
 * a sample, and from the samples alone, as MemGaze would:
 *   rho  = |sigma| P / A(sigma)       sample ratio (Eq. 1, non-selective:
 *                                     edan records every load, kappa = 1)
 *   A^   = rho A(sigma)               accesses
 *   F^   = rho F(sigma)               footprint, inter-window (Eq. 3)
 *   dF^  = F(sigma) / A(sigma)        footprint growth (Eq. 4)
 * where F(sigma) is the distinct 64-byte blocks the samples touched; per
 * function these are MemGaze's code windows (a function's accesses in all
 * samples). The exact values come from every load: A, F (distinct blocks
 * of the whole run), and the footprint per window of W loads (the
 * intra-window quantity the samples estimate directly): over the windows
 * in which the row's code loaded, the mean of its distinct blocks there,
 * weighted by its loads there,
 *   F_W = sum_w A_w F_w / sum_w A_w,
 * and from the sampled windows alone its estimate, with the estimate's
 * standard error from the spread of the sampled windows (a ratio
 * estimator over n sampled windows:
 *   SE^2 = n / (n - 1) sum_w A_w^2 (F_w - F_W^)^2 / (sum_w A_w)^2).
 * Weighting by loads keeps a window where a function made a handful of
 * loads (the first window of the run, always sampled, holds the start of
 * main) from counting as much as one it filled.
 *
 * With --sample-only (edan run) the plugin traces only the samples
 * (plugin/edan_plugin.c counts the loads between them): the stream is the
 * samples one after another, each W loads from its first load to its last,
 * the run's load count comes at the end (edan_sampled_tool_set_loads), and
 * the exact values, which need every load, are not reported. The estimates
 * are those of the same run's whole stream, to the bit.
 *
 * State: one hash table (util/keymap.h) with, per block, the last window
 * it was touched in, and the same for the first function that loaded from
 * it; a block that other functions load from has an entry per (block,
 * function) for them. So every per-window distinct count is one comparison
 * per access, and a load costs one lookup unless its block is shared.
 * Memory is proportional to the distinct (block, function) pairs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/native.h"
#include "tool/base/base.h"
#include "tool/memory/sampled_tables.h"
#include "tool/memory/sampled_tool.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

static int parse_count(const char *v, const char *what, uint64_t *out, edan_error *err)
{
    if (!v || edan_parse_u64(v, out) || *out == 0 || *out > (1ull << 40)) {
        edan_error_set(err, "--%s: '%s' is not a number of loads from 1 to 2^40", what, v ? v : "");
        return -1;
    }
    return 0;
}

static int check_period(const char *v, edan_error *err)
{
    uint64_t n;
    return parse_count(v, "sample-period", &n, err);
}

static int check_window(const char *v, edan_error *err)
{
    uint64_t n;
    return parse_count(v, "sample-window", &n, err);
}

static bool wanted(const edan_options *o)
{
    return edan_options_last(o, "sample-period") != NULL;
}

/* The period and window: 0, or -1 with err set. */
static int parse_params(const edan_options *o, uint64_t *period, uint64_t *window, edan_error *err)
{
    const char *w = edan_options_last(o, "sample-window");
    if (parse_count(edan_options_last(o, "sample-period"), "sample-period", period, err) ||
        parse_count(w ? w : "8192", "sample-window", window, err))
        return -1;
    if (*window > *period || *period % *window) {
        edan_error_set(err, "--sample-window=%" PRIu64 " must divide --sample-period=%" PRIu64, *window, *period);
        return -1;
    }
    return 0;
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

/* A load of a block whose state for row c is *e, in window w (index + 1), sampled or not; new: its first. */
static void seen(sm_seen *e, bool new, sm_counts *c, uint64_t w, bool sampled)
{
    if (new)
        c->F++;
    if (e->last_win != w) { /* first in this window */
        e->last_win = w;
        c->cur_F++;
    }
    if (sampled && !e->sampled) {
        e->sampled = 1;
        c->F_s++;
    }
}

static bool touch_fn(sampled_tool *t, sm_block *e, uint64_t b, uint32_t fn, sm_counts *fc, uint64_t w, bool sampled)
{
    bool created;
    if (!e->fn1 || e->fn1 == fn + 1) { /* the block's first function: its state is here */
        const bool first = !e->fn1;
        e->fn1 = fn + 1;
        seen(&e->first, first, fc, w, sampled);
        return true;
    }
    sm_block *f = edan_keymap_get(&t->map, b, fn, &created);
    if (!f)
        return false;
    seen(&f->seen, created, fc, w, sampled);
    return true;
}

/*
 * A load of block b, in all and by function fn (fc its counts, NULL: no function), in window w; a load outside the
 * program's functions (a row of its own) in their row too, t->fns[n_funcs].
 */
static bool touch(sampled_tool *t, uint64_t b, uint32_t fn, sm_counts *fc, uint64_t w, bool sampled)
{
    bool created;
    sm_block *e = edan_keymap_get(&t->map, b, ALL_FN, &created);
    if (!e)
        return false;
    seen(&e->seen, created, &t->all, w, sampled);
    if (!fc)
        return true;
    const uint32_t outside = (uint32_t)t->elf.n_funcs;
    if (fn <= outside)
        return touch_fn(t, e, b, fn, fc, w, sampled);
    return touch_fn(t, e, b, fn, fc, w, sampled) && (e = edan_keymap_find(&t->map, b, ALL_FN)) &&
           touch_fn(t, e, b, outside, &t->fns[outside], w, sampled); /* e found again: the map may have grown */
}

static void count_load(sm_counts *c, uint64_t w, bool sampled)
{
    c->A++;
    if (sampled)
        c->A_s++;
    if (c->last_w != w) {
        sm_close_window(c);
        c->last_w = w;
        c->cur_s = sampled;
        c->wins++;
        if (sampled)
            c->wins_s++;
    }
    c->cur_A++;
}

/* A new row of its own for the static load at pc, outside the program's functions (once per static load);
 * UINT32_MAX - 2 when out of memory. */
static uint32_t pseudo_row(sampled_tool *t, uint64_t pc)
{
    const size_t n_rows = t->elf.n_funcs + 1 + t->n_pseudo;
    if (t->n_pseudo == t->pseudo_cap) {
        const uint32_t cap = t->pseudo_cap ? 2 * t->pseudo_cap : 64;
        uint64_t *pcs = cap < UNKNOWN_FN / 2 - t->elf.n_funcs ? realloc(t->pseudo_pc, cap * sizeof *pcs) : NULL;
        sm_counts *fns = pcs ? edan_grow_zeroed(t->fns, n_rows, t->elf.n_funcs + 1 + cap, sizeof *fns) : NULL;
        if (pcs)
            t->pseudo_pc = pcs;
        if (!fns)
            return UINT32_MAX - 2;
        t->fns = fns;
        t->pseudo_cap = cap;
    }
    t->pseudo_pc[t->n_pseudo++] = pc;
    return (uint32_t)n_rows;
}

static uint32_t function_of(sampled_tool *t, const edan_exec *r)
{
    if (!t->have_elf)
        return ALL_FN;
    if (r->id >= t->id_cap) {
        const size_t cap = edan_grow_cap(t->id_cap, r->id);
        uint32_t *m = edan_grow_zeroed(t->id_fn, t->id_cap, cap, sizeof *m);
        if (!m)
            return UINT32_MAX - 2;
        t->id_fn = m;
        t->id_cap = cap;
    }
    if (!t->id_fn[r->id]) {
        const edan_elf_func *f = edan_elf_func_at(&t->elf, r->insn->pc);
        /* a library's function: one row for all its loads (its windows known), else one per load */
        bool oom = false;
        uint32_t *row = f ? NULL : edan_libfuncs_value(t->libs, r->insn->pc, &oom);
        if (oom)
            return UINT32_MAX - 2;
        const uint32_t fn = f                                    ? (uint32_t)(f - t->elf.funcs)
                            : row && *row != EDAN_LIBFUNCS_UNSET ? *row
                                                                 : pseudo_row(t, r->insn->pc);
        if (fn == UINT32_MAX - 2)
            return fn;
        if (row)
            *row = fn;
        t->id_fn[r->id] = fn + 1;
    }
    return t->id_fn[r->id] - 1;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    sampled_tool *t = ctx;
    for (size_t i = 0; i < n && !t->err.set; i++) {
        const edan_exec *r = &recs[i];
        const edan_insn *in = r->insn;
        if (i + 8 < n && recs[i + 8].insn->mem == EDAN_MEM_LOAD) /* a hint: the block entry of load i + 8 */
            edan_keymap_prefetch(&t->map, recs[i + 8].addr >> BLOCK_SHIFT, ALL_FN);
        if (in->mem != EDAN_MEM_LOAD || (r->flags & EDAN_EXEC_NO_ACCESS) || !in->mem_size)
            continue;
        /* the windows' numbers differ between the two streams, but only their equality counts */
        const uint64_t idx = t->presampled ? t->received++ : t->loads++;
        const uint64_t w = idx / t->window + 1;
        const bool sampled = t->presampled || idx % t->period < t->window;
        const uint32_t fn = function_of(t, r);
        bool ok = fn != UINT32_MAX - 2;
        sm_counts *fc = ok && fn != ALL_FN ? &t->fns[fn] : NULL;
        count_load(&t->all, w, sampled);
        if (fc)
            count_load(fc, w, sampled);
        if (fc && fn > t->elf.n_funcs) /* a shared object's code, say: the row of all code outside functions too */
            count_load(&t->fns[t->elf.n_funcs], w, sampled);
        const uint64_t last = (r->addr + in->mem_size - 1) >> BLOCK_SHIFT;
        for (uint64_t b = r->addr >> BLOCK_SHIFT; ok; b++) {
            ok = touch(t, b, fn, fc, w, sampled);
            if (b == last)
                break;
        }
        if (!ok)
            edan_error_set(&t->err, "out of memory for the sampled estimates");
    }
}

static int finish(void *ctx)
{
    return ((sampled_tool *)ctx)->err.set ? -1 : 0;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void destroy(void *tool)
{
    sampled_tool *t = tool;
    if (!t)
        return;
    if (t->have_elf)
        edan_elf_close(&t->elf);
    edan_keymap_free(&t->map);
    free(t->fns);
    free(t->fn_exact);
    free(t->id_fn);
    free(t->pseudo_pc);
    edan_libfuncs_free(t->libs);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    sampled_tool *t = calloc(1, sizeof *t);
    if (!t || edan_keymap_init(&t->map, sizeof(sm_block))) {
        free(t);
        edan_error_set(err, "out of memory");
        return NULL;
    }
    if (parse_params(o, &t->period, &t->window, err)) {
        destroy(t);
        return NULL;
    }
    t->presampled = edan_options_last(o, "sample-only") != NULL;
    const char *kind = edan_session_source(s)->kind;
    if (t->presampled && (!kind || strcmp(kind, "sampled"))) {
        edan_error_set(err, "--sample-only: the samples are taken while the program runs, so only edan run traces "
                            "them (leave it out to estimate from every load of the stream)");
        destroy(t);
        return NULL;
    }
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->have_elf = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    if (t->have_elf && !edan_elf_linked_pcs(&t->elf)) {
        edan_elf_close(&t->elf);
        t->have_elf = false;
    }
    const edan_report_source *src = edan_session_source(s);
    if (t->have_elf && (!(t->fns = calloc(t->elf.n_funcs + 1, sizeof *t->fns)) ||
                        (src->objects_ahead && src->objects && !(t->libs = edan_libfuncs_new(src->objects))))) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL, false};
}

static const edan_error *error(const void *t)
{
    return &((const sampled_tool *)t)->err;
}

static const edan_tool_option options[] = {
    {"sample-period", true,
     "  --sample-period=P   MemGaze's sampled estimates (Eq. 1-4) from W loads of every P,\n"
     "                      beside the exact values of the same run, per function\n",
     check_period},
    {"sample-window", true, "  --sample-window=W   loads in a sample; must divide P [8192]\n", check_window},
    {"sample-only", false,
     "  --sample-only       (edan run) trace only the samples, as MemGaze does: the loads between\n"
     "                      them are counted, not traced; estimates only, at a fraction of the cost\n",
     NULL},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_sampled_tool = {
    .name = "sampled",
    .summary = "MemGaze's sampled estimates against the exact values of the same run",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .results = edan_sampled_session_results,
    .free_results = edan_sampled_free_results,
    .tables = edan_sampled_tables,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
    .samples_suffice = true,
};

edan_sampled *edan_sampled_tool_of(const edan_session *s)
{
    return edan_session_instance(s, &edan_sampled_tool);
}

void edan_sampled_tool_params(const edan_sampled *tool, uint64_t *period, uint64_t *window)
{
    const sampled_tool *t = tool;
    *period = t->period;
    *window = t->window;
}

uint32_t edan_sampled_tool_n_functions(const edan_sampled *tool)
{
    const sampled_tool *t = tool;
    return t->have_elf ? (uint32_t)t->elf.n_funcs + 1 : 0;
}

uint32_t edan_sampled_tool_function(const edan_sampled *tool, uint64_t pc)
{
    const sampled_tool *t = tool;
    const edan_elf_func *f = edan_elf_func_at(&t->elf, pc);
    return f ? (uint32_t)(f - t->elf.funcs) : (uint32_t)t->elf.n_funcs;
}

void edan_sampled_tool_set_loads(edan_sampled *tool, uint64_t loads, const uint64_t *function_loads)
{
    sampled_tool *t = tool;
    t->loads = loads;
    const uint32_t n = edan_sampled_tool_n_functions(t);
    free(t->fn_exact);
    t->fn_exact = function_loads && n ? malloc(n * sizeof *t->fn_exact) : NULL;
    if (t->fn_exact)
        memcpy(t->fn_exact, function_loads, n * sizeof *t->fn_exact);
}

int edan_sampled_tool_check(const edan_options *o, const char *command, const edan_tool_def *const *tools, int n_tools,
                            edan_error *err)
{
    uint64_t period, window;
    if (wanted(o) && parse_params(o, &period, &window, err))
        return -1;
    if (!edan_options_last(o, "sample-only"))
        return 0;
    if (strcmp(command, "run")) {
        edan_error_set(err,
                       "%s: --sample-only: the samples are taken while the program runs, so only edan run traces "
                       "them (leave it out to estimate from every load)",
                       command);
        return -1;
    }
    if (!wanted(o)) {
        edan_error_set(err, "--sample-only needs --sample-period=P (and --sample-window=W: W loads of every P)");
        return -1;
    }
    for (int i = 0; i < n_tools; i++) {
        const edan_tool_def *d = tools[i];
        if (!d->samples_suffice && d->wanted(o)) {
            edan_error_set(err,
                           "--sample-only traces only the samples, but the %s tool (%s) needs every instruction; "
                           "run it without --sample-only",
                           d->name, d->summary);
            return -1;
        }
    }
    return 0;
}
