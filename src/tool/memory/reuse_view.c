/*
 * reuse_view.c - what the reuse tool reports (reuse_tool.c collects it):
 * the histograms, the miss-ratio curve, the footprint over windows, rows
 * per function, thread, loop, loop nest and static access, as text, JSON,
 * CSV tables and plots.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/native.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/plot.h"
#include "report/table.h"
#include "tool/base/base.h"
#include "tool/memory/loop_table.h"
#include "tool/memory/reuse_tool.h"
#include "util/symbols/symbols.h"

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

/*
 * Misses of a fully associative LRU cache of c blocks (c a power of two)
 * among a row's accesses: the cold ones and those at distance >= c. Bin
 * k >= 1 holds [2^(k-1), 2^k), so every bin from c's own, [c, 2c), up.
 */
static uint64_t row_misses(const reuse_row *r, uint64_t c)
{
    uint64_t m = r->cold;
    for (unsigned k = reuse_bin_of(c); k < BINS; k++)
        m += r->hist[k];
    return m;
}

/* The size's capacity in blocks (at least one), rounded down to a power of two. */
static uint64_t size_blocks(const reuse_tool *t, uint64_t bytes)
{
    uint64_t c = bytes >> t->block_shift;
    if (c == 0)
        return 1;
    return 1ull << (63 - __builtin_clzll(c));
}

static int by_key(const void *a, const void *b)
{
    const view_row *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? 1 : -1;
    if (x->v.accesses != y->v.accesses)
        return x->v.accesses < y->v.accesses ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

typedef struct views {
    view_row *funcs, *accesses, *loops, *nests, *threads;
    size_t n_funcs, n_accesses, n_loops, n_nests, n_threads;
    bool have_symbols;
} views;

static void row_sum(reuse_row *into, const reuse_row *r)
{
    into->accesses += r->accesses;
    into->cold += r->cold;
    for (int k = 0; k < BINS; k++)
        into->hist[k] += r->hist[k];
}

/*
 * Rows per innermost loop, or (nests) per loop nest (a loop with the loops
 * inside it: every access row whose pc lies in the loop's range), from the
 * access rows (before they are sorted away from the tool's order).
 */
static void make_loop_rows(const reuse_tool *t, views *v, const edan_elf *elf, edan_srcmap *src, bool nests)
{
    const uint32_t n = t->loops ? edan_loops_count(t->loops) : 0;
    view_row *rows = n ? calloc(n, sizeof *rows) : NULL;
    uint32_t *ids = n && nests ? malloc(n * sizeof *ids) : NULL;
    size_t kept = 0;
    if (!rows || (nests && !ids)) {
        free(rows);
        free(ids);
        return;
    }
    const uint64_t c0 = size_blocks(t, t->sizes[0]);
    for (size_t i = 0; i < t->n_rows; i++) {
        if (nests) {
            const size_t k = edan_loops_holding(t->loops, t->row_pc[i], ids, n);
            for (size_t j = 0; j < k; j++)
                row_sum(&rows[ids[j]].v, &t->rows[i]);
        } else {
            const int32_t id = edan_loops_innermost(t->loops, t->row_pc[i]);
            if (id >= 0)
                row_sum(&rows[id].v, &t->rows[i]);
        }
    }
    for (uint32_t id = 0; id < n; id++) {
        view_row *r = &rows[id];
        if (!r->v.accesses)
            continue;
        const edan_loop *l = edan_loops_get(t->loops, id);
        const edan_loop_place p = edan_loops_place(t->loops, id, elf, src);
        r->name = p.function;
        r->file = p.file;
        r->line = p.line;
        r->pc = l->head;
        r->depth = l->depth;
        r->inside = edan_loops_inside(t->loops, id);
        r->loop = l;
        r->key = row_misses(&r->v, c0);
        rows[kept++] = *r;
    }
    qsort(rows, kept, sizeof *rows, by_key);
    free(ids);
    if (nests) {
        v->nests = rows;
        v->n_nests = kept;
    } else {
        v->loops = rows;
        v->n_loops = kept;
    }
}

static void make_views(const reuse_tool *t, const edan_session *s, views *v)
{
    memset(v, 0, sizeof *v);
    edan_elf elf; /* the shared objects' functions too: known now that the stream is over */
    const bool have_elf = edan_session_functions(s, &elf);
    v->have_symbols = have_elf;
    const uint64_t c0 = size_blocks(t, t->sizes[0]);
    v->accesses = calloc(t->n_rows + 1, sizeof *v->accesses);
    v->funcs = calloc((v->have_symbols ? elf.n_funcs : 0) + 1, sizeof *v->funcs);
    edan_srcmap *src = v->have_symbols ? edan_session_srcmap(s) : NULL;
    if (v->accesses && v->funcs) {
        for (size_t i = 0; i < t->n_rows; i++) {
            view_row *a = &v->accesses[v->n_accesses++];
            a->pc = t->row_pc[i];
            a->v = t->rows[i];
            a->key = row_misses(&t->rows[i], c0);
            if (!v->have_symbols)
                continue;
            const edan_elf_func *f = edan_elf_func_at(&elf, a->pc);
            view_row *fr = &v->funcs[f ? (size_t)(f - elf.funcs) : elf.n_funcs];
            fr->name = a->name = f ? f->name : "(outside known functions)";
            row_sum(&fr->v, &a->v);
            edan_srcloc loc = {NULL, NULL, 0};
            if (src && edan_srcmap_lookup(src, a->pc, &loc)) {
                a->file = loc.file;
                a->line = loc.line;
            }
        }
        qsort(v->accesses, v->n_accesses, sizeof *v->accesses, by_key);
        const size_t nf = v->have_symbols ? elf.n_funcs + 1 : 0;
        for (size_t i = 0; i < nf; i++)
            if (v->funcs[i].v.accesses) {
                v->funcs[i].key = row_misses(&v->funcs[i].v, c0);
                v->funcs[v->n_funcs++] = v->funcs[i];
            }
        qsort(v->funcs, v->n_funcs, sizeof *v->funcs, by_key);
    }
    const edan_elf *loops_elf = have_elf ? &elf : t->have_elf ? &t->elf : NULL;
    make_loop_rows(t, v, loops_elf, src, false);
    make_loop_rows(t, v, loops_elf, src, true);
    /* a row per thread (vCPU) with accesses, by vCPU */
    v->threads = calloc(t->threads_cap + 1, sizeof *v->threads);
    for (size_t i = 0; v->threads && i < t->threads_cap; i++)
        if (t->threads[i].accesses) {
            view_row *r = &v->threads[v->n_threads++];
            r->vcpu = (uint32_t)i;
            r->v = t->threads[i];
            r->key = row_misses(&r->v, c0);
        }
    /* names and files must outlive the ELF and the source map: copy what is kept */
    for (size_t i = 0; i < v->n_funcs; i++)
        v->funcs[i].name = v->funcs[i].name ? strdup(v->funcs[i].name) : NULL;
    for (size_t i = 0; i < v->n_accesses; i++) {
        v->accesses[i].name = v->accesses[i].name ? strdup(v->accesses[i].name) : NULL;
        v->accesses[i].file = v->accesses[i].file ? strdup(v->accesses[i].file) : NULL;
    }
    for (size_t i = 0; i < v->n_loops; i++) {
        v->loops[i].name = v->loops[i].name ? strdup(v->loops[i].name) : NULL;
        v->loops[i].file = v->loops[i].file ? strdup(v->loops[i].file) : NULL;
    }
    for (size_t i = 0; i < v->n_nests; i++) {
        v->nests[i].name = v->nests[i].name ? strdup(v->nests[i].name) : NULL;
        v->nests[i].file = v->nests[i].file ? strdup(v->nests[i].file) : NULL;
    }
    edan_srcmap_close(src);
    if (have_elf)
        edan_elf_close(&elf);
}

static void free_views(views *v)
{
    for (size_t i = 0; i < v->n_funcs; i++)
        free((char *)v->funcs[i].name);
    for (size_t i = 0; i < v->n_accesses; i++) {
        free((char *)v->accesses[i].name);
        free((char *)v->accesses[i].file);
    }
    for (size_t i = 0; i < v->n_loops; i++) {
        free((char *)v->loops[i].name);
        free((char *)v->loops[i].file);
    }
    for (size_t i = 0; i < v->n_nests; i++) {
        free((char *)v->nests[i].name);
        free((char *)v->nests[i].file);
    }
    free(v->funcs);
    free(v->accesses);
    free(v->loops);
    free(v->nests);
    free(v->threads);
}

/* The miss-ratio curve at sizes 2^j blocks, j = 0.. until the cache holds every block: n points. */
static size_t mrc(const reuse_tool *t, double *bytes, double *ratio, size_t cap)
{
    uint64_t beyond = 0; /* accesses at distance >= the size, summed from the top */
    for (size_t d = 0; d < t->dist_cap; d++)
        beyond += t->dist[d];
    size_t n = 0;
    uint64_t c = 1, d = 0;
    const uint64_t blocks = edan_reuse_blocks(t->tracker);
    while (n < cap && t->accesses) {
        for (; d < c && d < t->dist_cap; d++)
            beyond -= t->dist[d];
        bytes[n] = (double)c * (double)(1ull << t->block_shift);
        ratio[n] = (double)(t->cold + beyond) / (double)t->accesses;
        n++;
        if (c >= blocks)
            break;
        c *= 2;
    }
    return n;
}

/*
 * SHARDS's estimate of the same curve at the sizes bytes[0..n): a sampled distance d_s stands for
 * d_s / R, so a cache of C blocks misses the sampled accesses at d_s >= C * R and the cold ones; the
 * sum is divided by the accesses the sample should have had (R times all: SHARDS_adj's correction).
 * Returns the mean absolute error against exact[] over the sizes of at least 1 / R blocks (smaller ones
 * are below the sample's resolution) and sets *max_err, their largest.
 */
static double shards_mrc(const reuse_tool *t, const double *bytes, const double *exact, size_t n, double *ratio,
                         double *max_err)
{
    const double expected = (double)t->accesses * t->s_rate;
    double sum = 0;
    size_t m = 0;
    *max_err = 0;
    for (size_t i = 0; i < n; i++) {
        const double c = bytes[i] / (double)(1ull << t->block_shift) * t->s_rate;
        uint64_t far = t->s_cold;
        for (size_t d = 0; d < t->s_dist_cap; d++)
            if ((double)d >= c)
                far += t->s_dist[d];
        ratio[i] = expected > 0 ? (double)far / expected : 0;
        if (ratio[i] > 1)
            ratio[i] = 1;
        if (c < 1) /* a cache of fewer than 1 / R blocks: below what the sample resolves */
            continue;
        const double e = ratio[i] > exact[i] ? ratio[i] - exact[i] : exact[i] - ratio[i];
        sum += e;
        m++;
        if (e > *max_err)
            *max_err = e;
    }
    return m ? sum / (double)m : 0;
}

/* Mean distinct blocks per window of 2^k accesses, k = 0 .. the first window that holds the whole stream (the
 * longest sample, for a sampled trace whose samples are apart). */
static size_t windows(const reuse_tool *t, double *w, double *f, size_t cap)
{
    return t->by_sample ? edan_windows_mean_cut(&t->win, &t->cuts, w, f, cap)
                        : edan_windows_mean(&t->win, t->accesses, w, f, cap);
}

static void size_label(uint64_t bytes, char *buf, size_t cap)
{
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0)
        snprintf(buf, cap, "%" PRIu64 "G", bytes >> 30);
    else if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(buf, cap, "%" PRIu64 "M", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, cap, "%" PRIu64 "K", bytes >> 10);
    else
        snprintf(buf, cap, "%" PRIu64, bytes);
}

/* A bin's distances as its row shows them: "lo", "lo-hi", or "lo+" for the last, open one. */
static void bin_range(reuse_bin *b, uint64_t lo, uint64_t hi, bool last)
{
    if (last)
        snprintf(b->range, sizeof b->range, "%" PRIu64 "+", lo);
    else if (lo == hi)
        snprintf(b->range, sizeof b->range, "%" PRIu64, lo);
    else
        snprintf(b->range, sizeof b->range, "%" PRIu64 "-%" PRIu64, lo, hi);
}

static void make_series(const reuse_tool *t, ru_series *z)
{
    memset(z, 0, sizeof *z);
    z->n_bins = BINS;
    for (size_t d = 0; d < t->dist_cap; d++)
        z->dist[reuse_bin_of(d)] += t->dist[d];
    const double all = t->accesses ? (double)t->accesses : 1;
    uint64_t cd = 0, ct = 0;
    for (unsigned k = 0; k < BINS; k++) {
        reuse_bin *b = &z->bins[k];
        const uint64_t lo = z->lo[k] = reuse_bin_lo(k), hi = k == BINS - 1 ? 0 : (k ? 2 * lo - 1 : 0);
        bin_range(b, lo, hi, k == BINS - 1);
        b->lo = lo;
        b->dist_cum = 100.0 * (double)(cd += b->dist = z->dist[k]) / all;
        b->rtime_cum = 100.0 * (double)(ct += b->rtime = t->rtime[k]) / all;
        z->top = b->dist || b->rtime ? k : z->top;
    }
    const double cold = t->accesses ? 100.0 : 0.0;
    z->bins[BINS] = (reuse_bin){"cold", 0, t->cold, t->cold, cold, cold};
    z->n_mrc = mrc(t, z->bytes, z->ratio, 64);
    if (t->sampled)
        z->mae = shards_mrc(t, z->bytes, z->ratio, z->n_mrc, z->shards, &z->max_err);
    for (size_t i = 0; i < z->n_mrc; i++) {
        z->mrc[i] = (reuse_point){"", z->bytes[i], z->ratio[i], z->shards[i]};
        size_label((uint64_t)z->bytes[i], z->mrc[i].label, sizeof z->mrc[i].label);
    }
    z->n_win = windows(t, z->w, z->f, 64);
    for (size_t i = 0; i < z->n_win; i++)
        z->win[i] = (reuse_window){z->w[i], z->f[i], z->f[i] / z->w[i]};
}

static const char *const kind_title[] = {"function", "thread (vCPU)", EDAN_LOOP_TITLE, EDAN_NEST_TITLE,
                                         "access (pc, function, line)"};

/*
 * A kind's columns when run: text's name, the declaration's (the place
 * columns not in text), text's miss percentage per size, CSV's misses per
 * size (misses_BYTES).
 */
typedef struct ru_cols {
    edan_column c[16 + 2 * SIZES];
    size_t n;
    char title[SIZES][48], key[SIZES][32];
} ru_cols;

/* The columns make_cols() adds around the declared ones: the row's name, then per cache size its
 * miss rate (text) and its misses (CSV), bound to view_row's members; the title or key each gets,
 * and its member's element, are set per table and size. */
static const edan_column size_cols[] = {
    {.key = "name",
     .type = EDAN_T_STR,
     .unit = "",
     .doc = "the row's name in text",
     .flags = EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME,
     .width = 44},
    {.key = "miss_percent",
     .type = EDAN_T_F64,
     .unit = "%",
     .doc = "misses per 100 accesses",
     .flags = EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_PERCENT | EDAN_COL_TITLE_AS_IS,
     .width = 13,
     .precision = 1,
     .field = {.ctype = EDAN_F_F64}},
    {.type = EDAN_T_U64,
     .unit = "accesses",
     .doc = "misses at the size",
     .flags = EDAN_NO_JSON | EDAN_NO_TEXT,
     .field = {.ctype = EDAN_F_U64}},
};
static void make_cols(const reuse_tool *t, int kind, ru_cols *x)
{
    const edan_table_decl *d = &edan_reuse_tables[kind];
    x->n = 0;
    x->c[x->n] = size_cols[0];
    x->c[x->n++].title = kind_title[kind];
    for (size_t c = 0; c < d->n_cols; c++)
        x->c[x->n++] = d->cols[c];
    for (int k = 0; k < t->n_sizes; k++) {
        char l[32];
        size_label(t->sizes[k], l, sizeof l);
        snprintf(x->title[k], sizeof x->title[k], "%9s %s", "miss@", l);
        x->c[x->n] = size_cols[1];
        x->c[x->n].field.offset = offsetof(view_row, miss_percent) + (size_t)k * sizeof(double);
        x->c[x->n++].title = x->title[k];
    }
    for (int k = 0; k < t->n_sizes && d->csv; k++) {
        snprintf(x->key[k], sizeof x->key[k], "misses_%" PRIu64, t->sizes[k]);
        x->c[x->n] = size_cols[2];
        x->c[x->n].field.offset = offsetof(view_row, misses) + (size_t)k * sizeof(uint64_t);
        x->c[x->n++].key = x->key[k];
    }
}

/* Row r's misses at each size, and per 100 accesses. */
static void row_misses_of(const reuse_tool *t, view_row *r)
{
    r->n_sizes = t->n_sizes;
    r->n_bins = BINS;
    for (int k = 0; k < t->n_sizes; k++) {
        r->misses[k] = row_misses(&r->v, size_blocks(t, t->sizes[k]));
        r->miss_percent[k] = r->v.accesses ? 100.0 * (double)r->misses[k] / (double)r->v.accesses : 0.0;
    }
}

/* The rows of a kind into tab (made with make_cols's columns); text leaves out the nests without loops inside. */
static void fill_rows(const reuse_tool *t, view_row *rows, size_t n, int kind, edan_table *tab)
{
    for (size_t i = 0; i < n; i++) {
        view_row *r = &rows[i];
        row_misses_of(t, r);
        const edan_loop_place p = {r->name, r->file, r->line};
        edan_value *v = kind == ROW_LOOP || kind == ROW_NEST
                            ? edan_loop_row(tab, r->loop, &p, kind == ROW_NEST ? (int64_t)r->inside : -1, r, NULL)
                            : edan_table_row_of(tab, 0, r, NULL);
        char name[32];
        snprintf(name, sizeof name, "vcpu %u", r->vcpu);
        if (!v)
            return;
        if (kind == ROW_ACCESS)
            edan_insn_cells(tab, v, r->pc, r->name, r->file, r->line);
        else if (kind == ROW_THREAD || kind == ROW_FUNCTION)
            v[0].s = kind == ROW_THREAD ? edan_table_str(tab, name) : r->name ? r->name : "?";
    }
}

/* How the report shows its tables: the scalars' lines, the histograms, the curve (and SHARDS's), the windows. */
#define N_RESULTS (8 + N_KINDS)
#define SC N_KINDS
static const int layout_table[8] = {SC, SC, T_HISTOGRAM, T_MRC, SC, T_MRC, SC, T_WINDOWS};
static const edan_result layout[8] = {
    {.view = {.title =
                  "\nreuse (exact LRU stack distance and reuse time; {block_bytes}-byte blocks; {stream_text})\n"
                  "  accesses {accesses}{fetch_note}, distinct blocks {blocks} ({blocks_bytes} bytes), cold {cold}"}},
    {.view = {.title = "  {cut_samples} samples, each on its own: a block's first access in a sample is cold, windows "
                       "start at each sample's first access (--across-samples joins them)"},
     .left = EDAN_NO_JSON},
    {.view = {0}},
    {.view = {.title = "  fully associative LRU miss ratio by cache size:",
              .item = "{label} {miss_ratio}",
              .per_line = 6,
              .indent = "    "}},
    {.view = {.title =
                  "  SHARDS estimate, blocks sampled at rate {shards.rate} ({shards.sampled_accesses} of {accesses} "
                  "accesses):"},
     .left = EDAN_NO_JSON},
    {.view = {.item = "{label} {shards_miss_ratio}", .per_line = 6, .indent = "    "},
     .left = EDAN_NO_JSON | EDAN_NO_CSV},
    {.view = {.title = "    mean |error| {shards.mean_abs_error}, max |error| {shards.max_abs_error} against the exact "
                       "curve (sizes of 1/R blocks and more)"},
     .left = EDAN_NO_JSON},
    {.view = {.title = "  footprint over windows of W accesses (mean distinct blocks F, growth F/W):",
              .item = "W={window} F={blocks} ({growth})",
              .per_line = 4,
              .indent = "    "}},
};
static const char *const stream_text[] = {"loads and stores", "loads", "loads, stores and instruction fetches"};

typedef struct ru_tables {
    ru_cols cols[N_KINDS];
    edan_table t[N_TABLES];
    ru_series z;
    edan_result r[N_RESULTS];
} ru_tables;

/* The scalars (and the arrays JSON has the histograms, the curve and the windows as). */
static void fill_scalars(const reuse_tool *t, ru_tables *x)
{
    edan_value *r = edan_table_row_of(&x->t[SC], 0, t, &x->z);
    const ru_series *z = &x->z;
    if (!r)
        return;
    r[S_BLOCK_BYTES].u = (uint64_t)1 << t->block_shift;
    r[S_STREAM].s = edan_reuse_stream_name[t->stream];
    r[S_BLOCKS].u = edan_reuse_blocks(t->tracker);
    r[S_SAMPLES].u = t->by_sample && t->cuts.samples ? t->cuts.samples : 1;
    r[S_RTIME] = (edan_value){.a = {t->rtime, BINS}};
    if ((r[S_SHARDS].u = t->sampled != NULL)) {
        r[S_SHARDS_MAE].f = z->mae;
        r[S_SHARDS_MAX].f = z->max_err;
        r[S_SHARDS_BLOCKS].u = edan_reuse_blocks(t->sampled);
    }
    r[S_STREAM_TEXT].s = stream_text[t->stream];
    r[S_FETCH_NOTE].s = t->stream == STREAM_ALL ? " (fetches included)" : "";
    r[S_BLOCKS_BYTES].u = edan_reuse_blocks(t->tracker) << t->block_shift;
    r[S_CUT_SAMPLES].u = t->cuts.samples;
}

static void make_tables(const reuse_tool *t, views *v, ru_tables *x)
{
    view_row *rows[N_KINDS] = {v->funcs, v->threads, v->loops, v->nests, v->accesses};
    const size_t n[N_KINDS] = {v->n_funcs, v->n_threads, v->n_loops, v->n_nests, v->n_accesses};
    for (int k = 0; k < N_KINDS; k++) {
        make_cols(t, k, &x->cols[k]);
        if (!edan_table_init_cols(&x->t[k], &edan_reuse_tables[k], x->cols[k].c, x->cols[k].n))
            fill_rows(t, rows[k], n[k], k, &x->t[k]);
        x->r[8 + k] =
            (edan_result){.t = &x->t[k],
                          .view = {.min_rows = k == ROW_THREAD ? 2 : 0,
                                   .max_rows = TEXT_ROWS,
                                   .more = k == ROW_ACCESS ? "; --json lists the top 100" : "; --json lists all"},
                          .absent = k == ROW_FUNCTION && !v->have_symbols,
                          .json_rows = k == ROW_FUNCTION || k == ROW_THREAD ? 0 : JSON_ROWS};
    }
    for (int k = SC; k < N_TABLES; k++)
        edan_table_init(&x->t[k], &edan_reuse_tables[k]);
    make_series(t, &x->z);
    fill_scalars(t, x);
    for (unsigned k = 0; k <= BINS; k++)
        edan_table_row_of(&x->t[T_HISTOGRAM],
                          k == BINS                      ? EDAN_NO_CSV
                          : k > x->z.top || !t->accesses ? EDAN_NO_TEXT
                                                         : 0,
                          &x->z.bins[k], NULL);
    edan_table_rows_of(&x->t[T_MRC], x->z.mrc, x->z.n_mrc, sizeof *x->z.mrc);
    edan_table_rows_of(&x->t[T_WINDOWS], x->z.win, x->z.n_win, sizeof *x->z.win);
    if (!t->sampled)
        edan_table_omit(&x->t[T_MRC], "shards_miss_ratio");
    for (int i = 0; i < 8; i++) {
        x->r[i] = layout[i];
        x->r[i].t = &x->t[layout_table[i]];
        x->r[i].left |= (i == 1 && t->cuts.samples < 2) || (i >= 4 && i <= 6 && !t->sampled) ? EDAN_NO_TEXT : 0;
    }
}

static void free_tables(ru_tables *x)
{
    for (int k = 0; k < N_TABLES; k++)
        edan_table_free(&x->t[k]);
}

/* What the session renders: the views, their tables and results, in memory of their own. */
typedef struct ru_results {
    views v;
    ru_tables x;
} ru_results;

int edan_reuse_results(void *tool, const edan_session *s, edan_tool_results *out)
{
    ru_results *m = malloc(sizeof *m);
    if (!m)
        return -1;
    make_views(tool, s, &m->v);
    make_tables(tool, &m->v, &m->x);
    *out = (edan_tool_results){m->x.r, N_RESULTS, m};
    return 0;
}

void edan_reuse_free_results(void *own)
{
    ru_results *m = own;
    free_tables(&m->x);
    free_views(&m->v);
    free(m);
}

/* --plot-dir: the histograms, the miss-ratio curve and the footprint over windows (the session writes the CSV files).
 */
int edan_reuse_outputs(void *tool, const edan_session *s, edan_error *err)
{
    const reuse_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    if (!o->plot_dir[0] || !t->accesses)
        return 0;
    char ident[1600];
    edan_session_plot_ident(s, ident, sizeof ident);
    double x[BINS], d[BINS] = {0}, r[BINS];
    for (size_t i = 0; i < t->dist_cap; i++)
        d[reuse_bin_of(i)] += (double)t->dist[i];
    for (unsigned k = 0; k < BINS; k++) {
        x[k] = (double)reuse_bin_lo(k);
        r[k] = (double)t->rtime[k];
    }
    edan_plot_xy_spec h = {"reuse-histogram",
                           "Stack distance and reuse time (log2 bins)",
                           "lower end of the bin (blocks, accesses)",
                           "accesses",
                           true,
                           true,
                           2,
                           {"stack distance (distinct blocks)", "reuse time (accesses)"},
                           BINS,
                           x,
                           {d, r},
                           ident,
                           EDAN_AXIS_COUNT,
                           EDAN_AXIS_COUNT,
                           true};
    double mx[64], my[64], ms[64], wx[64], wy[64], max_err;
    const size_t nm = mrc(t, mx, my, 64);
    if (t->sampled)
        shards_mrc(t, mx, my, nm, ms, &max_err);
    edan_plot_xy_spec m = {"mrc",
                           "Miss ratio of a fully associative LRU cache",
                           "cache size (bytes)",
                           "miss ratio",
                           true,
                           false,
                           t->sampled ? 2 : 1,
                           {"exact (stack distances)", "SHARDS estimate"},
                           nm,
                           mx,
                           {my, ms},
                           ident,
                           EDAN_AXIS_BYTES,
                           EDAN_AXIS_PLAIN,
                           false};
    edan_plot_xy_spec w = {"footprint-windows",
                           "Footprint over windows of W consecutive accesses",
                           "window W (accesses)",
                           "mean distinct blocks F(W)",
                           true,
                           true,
                           1,
                           {"F(W)"},
                           windows(t, wx, wy, 64),
                           wx,
                           {wy},
                           ident,
                           EDAN_AXIS_COUNT,
                           EDAN_AXIS_COUNT,
                           false};
    return edan_plot_xy(o->plot_dir, name, &h, err) || edan_plot_xy(o->plot_dir, name, &m, err) ||
                   edan_plot_xy(o->plot_dir, name, &w, err)
               ? -1
               : 0;
}
