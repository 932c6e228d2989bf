/*
 * sampled_view.c - the sampled tool's estimates and report (MemGaze's
 * sampled-trace estimators against the whole stream's exact counts, per
 * function and for the run), from the counts sampled_tool.c keeps during
 * the stream.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool/base/base.h"
#include "tool/memory/sampled_tables.h"
#include "tool/memory/sampled_tool.h"
#include "util/symbols/symbols.h"

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
    sm_close_window(&closed);
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
 * know, a shared object's (fn UINT32_MAX): its one row (all its loads' when the stream named the objects ahead of
 * their code), or (merged) its loads' rows summed, their blocks counted once (their windows' numbers unknown).
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

int edan_sampled_session_results(void *tool, const edan_session *s, edan_tool_results *x)
{
    sampled_results *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    results(tool, s, &m->named, m->tab, m->r);
    *x = (edan_tool_results){m->r, 2, m};
    return 0;
}

void edan_sampled_free_results(void *own)
{
    sampled_results *m = own;
    edan_table_free(&m->tab[0]);
    edan_table_free(&m->tab[1]);
    named_free(&m->named);
    free(m);
}
