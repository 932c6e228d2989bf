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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/native.h"
#include "report/csv.h"
#include "report/json.h"
#include "tool/base/base.h"
#include "tool/memory/sampled_tables.h"
#include "tool/memory/sampled_tool.h"
#include "util/grow.h"
#include "util/keymap.h"
#include "util/parse.h"
#include "util/symbols/symbols.h"

#define BLOCK_SHIFT 6
#define ALL_FN UINT32_MAX
#define UNKNOWN_FN 0xfffffffeu
#define TEXT_ROWS 10

/* The state of a block for one row (the whole run or a function). */
typedef struct sm_seen {
    uint64_t last_win; /* window index + 1 of its latest load */
    uint32_t sampled;  /* 1 once a sample loaded from it */
} sm_seen;

/* What the table keeps per block (tag ALL_FN) and per (block, function) for a function other than its first. */
typedef struct sm_block {
    sm_seen seen;  /* the whole run's (ALL_FN), or the function's */
    sm_seen first; /* ALL_FN: the first function's, fn1 - 1 */
    uint32_t fn1;  /* ALL_FN: 1 + the first function that loaded from the block; 0 none yet */
} sm_block;

/* Counts of one function (or of the whole run). */
typedef struct sm_counts {
    uint64_t A, A_s;       /* loads; sampled loads */
    uint64_t F, F_s;       /* distinct blocks; distinct blocks in samples */
    uint64_t wins, wins_s; /* windows (all; sampled) in which it loaded */
    uint64_t last_w;       /* window index + 1 of its latest load: the window cur_* count */
    uint64_t cur_A, cur_F; /* its loads and distinct blocks in window last_w */
    bool cur_s;            /* window last_w is sampled */
    /* over its windows before last_w, all and sampled: sum of A_w F_w; over the sampled ones the sums of
     * A_w^2, A_w^2 F_w and A_w^2 F_w^2 (the standard error). Doubles: both streams add the same terms in the
     * same order, so --sample-only's estimates stay equal to the bit. */
    double AF, AF_s, A2_s, A2F_s, A2F2_s;
} sm_counts;

typedef struct sampled_tool {
    uint64_t period, window;
    uint64_t loads;     /* loads so far: load i is in window i / W, sampled when i % P < W */
    bool presampled;    /* --sample-only: the stream is the samples alone */
    uint64_t *fn_exact; /* with it, each function's loads, counted by the plugin (NULL: unknown) */
    uint64_t received;  /* loads received with --sample-only (window received / W) */
    edan_keymap map;    /* (block, function) -> sm_block */
    sm_counts all;
    sm_counts *fns; /* per function, [n_funcs] for code outside every function (the plugin's count alone), then a
                       row per static load outside the program's functions (a shared object's code: their functions
                       are known once the stream is over), pseudo_pc[k] the load of row n_funcs + 1 + k */
    uint64_t *pseudo_pc;
    uint32_t n_pseudo, pseudo_cap;
    uint32_t *id_fn; /* function index + 1 by static id */
    size_t id_cap;
    edan_elf elf;
    bool have_elf;
    edan_error err;
} sampled_tool;

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

/* Window last_w is over: its loads and blocks into the sums. */
static void close_window(sm_counts *c)
{
    if (!c->cur_A)
        return;
    const double a = (double)c->cur_A, f = (double)c->cur_F;
    c->AF += a * f;
    if (c->cur_s) {
        c->AF_s += a * f;
        c->A2_s += a * a;
        c->A2F_s += a * a * f;
        c->A2F2_s += a * a * f * f;
    }
    c->cur_A = c->cur_F = 0;
}

static void count_load(sm_counts *c, uint64_t w, bool sampled)
{
    c->A++;
    if (sampled)
        c->A_s++;
    if (c->last_w != w) {
        close_window(c);
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
        const uint32_t fn = f ? (uint32_t)(f - t->elf.funcs) : pseudo_row(t, r->insn->pc);
        if (fn == UINT32_MAX - 2)
            return fn;
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
/* Estimates                                                              */
/* ===================================================================== */

typedef struct sm_view {
    double rho;                   /* the run's sample ratio */
    double A_hat, F_hat, dF_hat;  /* MemGaze's estimates */
    double win_F_hat, win_F;      /* footprint per window, weighted by loads: the samples', every window's */
    double win_se, win_ci;        /* win_F_hat's standard error and 95 % half-width (NAN below two sampled windows) */
    double F_err, A_err, win_err; /* relative errors of F^, A^ and the per-window footprint */
} sm_view;

/* Student's t: the 0.975 quantile at dof degrees of freedom (dof >= 1; above 30 within 0.003 of it). */
static double t975(uint64_t dof)
{
    static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    return dof <= 30 ? t[dof - 1] : 1.96 + 2.4 / (double)dof;
}

static double rel(double est, double exact)
{
    return exact > 0 ? (est - exact) / exact : (est > 0 ? INFINITY : 0);
}

/*
 * The exact loads and blocks of c, the counts of program function fn (UINT32_MAX: another row): NAN when only the
 * samples were seen (the run's loads are known even then, and the program's functions' from the plugin).
 */
static double exact_loads(const sampled_tool *t, const sm_counts *c, uint32_t fn)
{
    if (!t->presampled)
        return (double)c->A;
    return c == &t->all ? (double)t->loads : t->fn_exact && fn <= t->elf.n_funcs ? (double)t->fn_exact[fn] : NAN;
}

static double exact_blocks(const sampled_tool *t, const sm_counts *c)
{
    return t->presampled ? NAN : (double)c->F;
}

static sm_view view(const sampled_tool *t, const sm_counts *counts, uint32_t fn, bool merged)
{
    sm_counts closed = *counts; /* with its last window in the sums (counts, not c, for its place in fns) */
    close_window(&closed);
    const sm_counts *c = &closed;
    sm_view v;
    memset(&v, 0, sizeof v);
    const uint64_t samples = t->loads ? (t->loads + t->period - 1) / t->period : 0;
    v.rho = t->all.A_s ? (double)samples * (double)t->period / (double)t->all.A_s : 0;
    /* the last period may be cut: rho counts only the loads that ran */
    if (t->all.A_s)
        v.rho = (double)t->loads / (double)t->all.A_s;
    v.A_hat = v.rho * (double)c->A_s;
    v.F_hat = v.rho * (double)c->F_s;
    v.dF_hat = c->A_s ? (double)c->F_s / (double)c->A_s : 0;
    v.win_F_hat = c->A_s ? c->AF_s / (double)c->A_s : 0;
    v.win_F = c->A ? c->AF / (double)c->A : 0;
    v.win_se = v.win_ci = NAN;
    if (c->wins_s >= 2) {
        const double n = (double)c->wins_s, y = v.win_F_hat, a = (double)c->A_s;
        const double ss = c->A2F2_s - 2 * y * c->A2F_s + y * y * c->A2_s; /* sum of A_w^2 (F_w - y)^2 */
        v.win_se = sqrt(fmax(0, ss) * n / (n - 1)) / a;
        v.win_ci = t975(c->wins_s - 1) * v.win_se;
    }
    v.F_err = rel(v.F_hat, (double)c->F);
    v.A_err = rel(v.A_hat, (double)c->A);
    v.win_err = rel(v.win_F_hat, v.win_F);
    if (t->presampled) { /* only the samples were seen: nothing exact but the loads */
        v.win_F = v.F_err = v.win_err = NAN;
        v.A_err = rel(v.A_hat, exact_loads(t, counts, fn));
    }
    if (merged) /* several loads' rows: what their windows held together is not known */
        v.win_F = v.win_F_hat = v.win_se = v.win_ci = v.win_err = NAN;
    return v;
}

/* ===================================================================== */
/* Report                                                                 */
/* ===================================================================== */

/*
 * A row of the functions' table: a program function's counts (fn its index), or a function's the stream did not
 * know, a shared object's (fn UINT32_MAX): the row of its one static load, or (merged) its loads' rows summed,
 * their blocks counted once (their windows' numbers unknown).
 */
typedef struct sm_row {
    uint32_t fn;
    const sm_counts *c;
    const char *name;
    bool merged;
    uint64_t loads; /* its order: its loads, exact where known */
} sm_row;

static int by_loads(const void *a, const void *b)
{
    const sm_row *x = a, *y = b;
    if (x->loads != y->loads)
        return x->loads < y->loads ? 1 : -1;
    const int c = strcmp(x->name, y->name);
    return c ? c : x->fn < y->fn ? -1 : x->fn > y->fn;
}

static const char *fn_name(const sampled_tool *t, uint32_t fn)
{
    return fn < t->elf.n_funcs ? t->elf.funcs[fn].name : EDAN_NO_FUNCTION;
}

/* What the functions' rows hold besides the tool: the names of the shared objects' code, the counts merged. */
typedef struct sm_named {
    edan_elf elf; /* the program's functions and the shared objects' (edan_session_functions) */
    bool have;
    sm_counts *merged; /* per group of loads' rows */
    uint32_t *group;   /* each load row's group: the function of named.elf (n_funcs: none) */
} sm_named;

/* The blocks and sampled blocks of each merged group, every (block, group) once: false when out of memory. */
static bool merged_blocks(const sampled_tool *t, sm_named *m, const uint32_t *rows_of_group)
{
    edan_keymap fold;
    if (edan_keymap_init(&fold, sizeof(uint32_t)))
        return false;
    const uint32_t first = (uint32_t)t->elf.n_funcs + 1;
    bool ok = true;
    for (size_t i = 0; ok && i < edan_keymap_capacity(&t->map); i++) {
        uint64_t b;
        uint32_t tag;
        const sm_block *e = edan_keymap_at(&t->map, i, &b, &tag);
        const uint32_t fn = !e ? 0 : tag == ALL_FN ? e->fn1 - 1 : tag; /* fn1 0: UINT32_MAX, no row */
        if (!e || fn < first || fn - first >= t->n_pseudo || rows_of_group[m->group[fn - first]] < 2)
            continue;
        const sm_seen *seen = tag == ALL_FN ? &e->first : &e->seen;
        uint32_t *sampled = edan_keymap_get(&fold, b, m->group[fn - first], NULL);
        ok = sampled != NULL;
        if (ok)
            *sampled |= seen->sampled | 2u; /* 2: counted */
    }
    for (size_t i = 0; ok && i < edan_keymap_capacity(&fold); i++) {
        uint32_t g;
        const uint32_t *sampled = edan_keymap_at(&fold, i, NULL, &g);
        if (sampled) {
            m->merged[g].F++;
            m->merged[g].F_s += *sampled & 1u;
        }
    }
    edan_keymap_free(&fold);
    return ok;
}

/*
 * Functions with loads, most loads first (NULL without symbols); with --sample-only those the plugin counted.
 * The loads' rows outside the program's functions are named once the stream is over, by the shared objects'
 * functions too: a row per function they are in.
 */
static sm_row *rows_of(const sampled_tool *t, const edan_session *s, sm_named *m, size_t *n)
{
    *n = 0;
    if (!t->have_elf)
        return NULL;
    m->have = edan_session_functions(s, &m->elf);
    const size_t groups = m->have ? m->elf.n_funcs + 1 : 1;
    m->group = malloc((t->n_pseudo + 1) * sizeof *m->group);
    m->merged = calloc(groups, sizeof *m->merged);
    uint32_t *rows_of_group = calloc(groups, sizeof *rows_of_group), *single = malloc(groups * sizeof *single);
    sm_row *r = malloc((t->elf.n_funcs + 1 + groups) * sizeof *r);
    if (!m->group || !m->merged || !rows_of_group || !single || !r) {
        free(rows_of_group);
        free(single);
        free(r);
        return NULL;
    }
    for (size_t f = 0; f < t->elf.n_funcs; f++) { /* [n_funcs]: the loads' rows below together */
        const uint64_t loads = t->presampled && t->fn_exact ? t->fn_exact[f] : t->fns[f].A;
        if (loads)
            r[(*n)++] = (sm_row){(uint32_t)f, &t->fns[f], fn_name(t, (uint32_t)f), false, loads};
    }
    const size_t first = t->elf.n_funcs + 1;
    for (uint32_t k = 0; k < t->n_pseudo; k++) {
        const edan_elf_func *f = m->have ? edan_elf_func_at(&m->elf, t->pseudo_pc[k]) : NULL;
        const uint32_t g = f ? (uint32_t)(f - m->elf.funcs) : (uint32_t)groups - 1;
        const sm_counts *c = &t->fns[first + k];
        m->group[k] = g;
        single[g] = (uint32_t)(first + k);
        rows_of_group[g]++;
        m->merged[g].A += c->A;
        m->merged[g].A_s += c->A_s;
    }
    if (!merged_blocks(t, m, rows_of_group))
        memset(rows_of_group, 0, groups * sizeof *rows_of_group); /* out of memory: none of them */
    for (size_t g = 0; g < groups; g++) {
        if (!rows_of_group[g])
            continue;
        /* every load outside the program's functions in one: their row, t->fns[n_funcs] (a filter on a shared
         * object's function), exact */
        const bool all = rows_of_group[g] == t->n_pseudo, merged = rows_of_group[g] > 1 && !all;
        const sm_counts *c = all ? &t->fns[first - 1] : merged ? &m->merged[g] : &t->fns[single[g]];
        const uint32_t fn = all ? (uint32_t)first - 1 : UINT32_MAX;
        const uint64_t loads = t->presampled && t->fn_exact && all ? t->fn_exact[fn] : c->A;
        if (loads)
            r[(*n)++] = (sm_row){fn, c, g + 1 < groups ? m->elf.funcs[g].name : EDAN_NO_FUNCTION, merged, loads};
    }
    free(rows_of_group);
    free(single);
    qsort(r, *n, sizeof *r, by_loads);
    return r;
}

static void named_free(sm_named *m)
{
    if (m->have)
        edan_elf_close(&m->elf);
    free(m->merged);
    free(m->group);
}

/* Counts c's columns from v on (fn: as view()'s). */
static void counts(const sampled_tool *t, const sm_counts *c, uint32_t fn, bool merged, edan_value *v)
{
    const sm_view w = view(t, c, fn, merged);
    const double A = exact_loads(t, c, fn), F = exact_blocks(t, c);
    v[C_LOADS] = (edan_value){.opt = {isnan(A) ? 0 : (uint64_t)A, !isnan(A)}};
    v[C_LOADS_ERR_TEXT].f = 100 * w.A_err;
    v[C_SAMPLED_LOADS].u = c->A_s;
    v[C_LOADS_EST_CSV].f = v[C_LOADS_EST].f = w.A_hat;
    v[C_BLOCKS] = (edan_value){.opt = {isnan(F) ? 0 : (uint64_t)F, !isnan(F)}};
    v[C_SAMPLED_BLOCKS].u = c->F_s;
    v[C_BLOCKS_EST].f = w.F_hat;
    v[C_BLOCKS_ERR_TEXT].f = 100 * w.F_err;
    v[C_GROWTH_EST].f = w.dF_hat;
    v[C_GROWTH].f = A > 0 ? F / A : t->presampled ? NAN : 0;
    v[C_WIN].f = w.win_F;
    v[C_WIN_EST].f = w.win_F_hat;
    v[C_WIN_SE].f = w.win_se;
    v[C_WIN_CI].f = w.win_ci;
    v[C_WINDOWS] = (edan_value){.opt = {c->wins, !t->presampled && !merged}};
    v[C_SAMPLED_WINDOWS] = (edan_value){.opt = {c->wins_s, !merged}};
    v[C_WIN_ERR_TEXT].f = 100 * w.win_err;
    v[C_LOADS_ERR].f = w.A_err;
    v[C_BLOCKS_ERR].f = w.F_err;
    v[C_WIN_ERR].f = w.win_err;
}

/*
 * The tables: the scalars and the whole run's counts (tab[0]) and a row per
 * function (tab[1]), after a row of the whole run that JSON leaves out; r[2]
 * the results they render as.
 */
/* How text shows the scalars (its title alone) and the functions. */
static const edan_text_view views[2] = {
    {.title = "\nsampled estimates (MemGaze's Eq. 1-4 from {window} loads of every {period}; {samples} samples, rho "
              "{rho}) {note}"},
    {.max_rows = TEXT_ROWS + 1, .more = " functions; --json lists all"},
};

static void results(const sampled_tool *t, const edan_session *s, sm_named *named, edan_table *tab, edan_result *r)
{
    edan_table_init(&tab[0], &edan_sampled_tables[0]);
    edan_table_init(&tab[1], &edan_sampled_tables[1]);
    for (int k = 0; k < 2; k++)
        r[k] = (edan_result){.t = &tab[k], .view = views[k], .left = k ? EDAN_NO_JSON : 0};
    size_t n;
    sm_row *rows = rows_of(t, s, named, &n);
    edan_value *v = edan_table_row(&tab[1], EDAN_NO_JSON);
    if (v) {
        v[F_LABEL].s = "all";
        v[F_NAME].s = "(all)";
        counts(t, &t->all, UINT32_MAX, false, &v[F_COUNTS]);
    }
    for (size_t i = 0; rows && i < n && (v = edan_table_row(&tab[1], 0)); i++) {
        v[F_LABEL].s = v[F_NAME].s = rows[i].name;
        counts(t, rows[i].c, rows[i].fn, rows[i].merged, &v[F_COUNTS]);
    }
    free(rows);
    if (!(v = edan_table_row(&tab[0], 0)))
        return;
    v[S_SAMPLE_ONLY].b = t->presampled;
    v[S_BLOCK_BYTES].u = 1u << BLOCK_SHIFT;
    v[S_WINDOW].u = t->window;
    v[S_PERIOD].u = t->period;
    v[S_SAMPLES].u = t->loads ? (t->loads + t->period - 1) / t->period : 0;
    v[S_RHO].f = view(t, &t->all, UINT32_MAX, false).rho;
    counts(t, &t->all, UINT32_MAX, false, &v[S_ALL]);
    v[S_FUNCTIONS].rows = t->have_elf ? &tab[1] : NULL;
    v[S_NOTE].s = t->presampled ? "(--sample-only: only the samples were traced, so nothing exact but the loads)"
                                : "against exact";
}

/* What the session renders: the tables and their results, in memory of their own. */
typedef struct sampled_results {
    edan_table tab[2];
    edan_result r[2];
    sm_named named; /* the names its rows show */
} sampled_results;

static int session_results(void *tool, const edan_session *s, edan_tool_results *x)
{
    sampled_results *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    results(tool, s, &m->named, m->tab, m->r);
    *x = (edan_tool_results){m->r, 2, m};
    return 0;
}

static void free_results(void *own)
{
    sampled_results *m = own;
    edan_table_free(&m->tab[0]);
    edan_table_free(&m->tab[1]);
    named_free(&m->named);
    free(m);
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
    if (t->have_elf && !(t->fns = calloc(t->elf.n_funcs + 1, sizeof *t->fns))) {
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
    .results = session_results,
    .free_results = free_results,
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
