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
#include "util/elf_symbols.h"
#include "util/srcmap.h"

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

typedef struct view_row {
    const char *name; /* function, or an access's function */
    const char *file; /* an access's source file (NULL: unknown) */
    unsigned line;
    uint64_t pc; /* an access's instruction, a loop's head (0 for a function) */
    reuse_row v;
    uint64_t key;           /* misses at the first size: the order */
    uint32_t depth;         /* a loop's nesting depth (1: outermost) */
    uint32_t inside;        /* a loop nest's loops, itself included */
    uint32_t vcpu;          /* a thread's vCPU */
    const edan_loop *loop;  /* a loop's or nest's */
    uint64_t misses[SIZES]; /* at each size (made with its table) */
} view_row;

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
static void make_loop_rows(const reuse_tool *t, views *v, edan_srcmap *src, bool nests)
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
        const edan_loop_place p = edan_loops_place(t->loops, id, t->have_elf ? &t->elf : NULL, src);
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
    const char *binary = edan_session_source(s)->binary;
    edan_elf elf;
    edan_error ignored = {0};
    const bool have_elf = binary && *binary && !edan_elf_open(binary, &elf, &ignored);
    v->have_symbols = have_elf && edan_elf_linked_pcs(&elf);
    const uint64_t c0 = size_blocks(t, t->sizes[0]);
    v->accesses = calloc(t->n_rows + 1, sizeof *v->accesses);
    v->funcs = calloc((v->have_symbols ? elf.n_funcs : 0) + 1, sizeof *v->funcs);
    edan_srcmap *src = v->have_symbols ? edan_srcmap_open(binary, &ignored) : NULL;
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
    make_loop_rows(t, v, src, false);
    make_loop_rows(t, v, src, true);
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

static void hist_text(const reuse_tool *t, FILE *f)
{
    unsigned top = 0;
    uint64_t dbin[BINS] = {0};
    for (size_t d = 0; d < t->dist_cap; d++)
        dbin[reuse_bin_of(d)] += t->dist[d];
    for (unsigned k = 0; k < BINS; k++) {
        if (dbin[k] || t->rtime[k])
            top = k;
    }
    fprintf(f, "  %-22s %14s %7s   %14s %7s\n", "distance / reuse time", "by distance", "cum %", "by reuse time",
            "cum %");
    uint64_t cd = 0, ct = 0;
    for (unsigned k = 0; k <= top && t->accesses; k++) {
        char range[48];
        const uint64_t lo = reuse_bin_lo(k), hi = k == BINS - 1 ? 0 : (k ? 2 * lo - 1 : 0);
        if (k == BINS - 1)
            snprintf(range, sizeof range, "%" PRIu64 "+", lo);
        else if (lo == hi)
            snprintf(range, sizeof range, "%" PRIu64, lo);
        else
            snprintf(range, sizeof range, "%" PRIu64 "-%" PRIu64, lo, hi);
        cd += dbin[k];
        ct += t->rtime[k];
        fprintf(f, "  %-22s %14" PRIu64 " %6.1f%%   %14" PRIu64 " %6.1f%%\n", range, dbin[k],
                100.0 * (double)cd / (double)t->accesses, t->rtime[k], 100.0 * (double)ct / (double)t->accesses);
    }
    fprintf(f, "  %-22s %14" PRIu64 " %6.1f%%   %14" PRIu64 " %6.1f%%\n", "cold", t->cold, t->accesses ? 100.0 : 0.0,
            t->cold, t->accesses ? 100.0 : 0.0);
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

static void make_cols(const reuse_tool *t, int kind, ru_cols *x)
{
    const edan_table_decl *d = &edan_reuse_tables[kind];
    x->n = 0;
    x->c[x->n++] = (edan_column){.key = "name",
                                 .type = EDAN_T_STR,
                                 .unit = "",
                                 .doc = "the row's name in text",
                                 .flags = EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_NAME,
                                 .title = kind_title[kind],
                                 .width = 44};
    for (size_t c = 0; c < d->n_cols; c++)
        x->c[x->n++] = d->cols[c];
    for (int k = 0; k < t->n_sizes; k++) {
        char l[32];
        size_label(t->sizes[k], l, sizeof l);
        snprintf(x->title[k], sizeof x->title[k], "%9s %s", "miss@", l);
        x->c[x->n++] = (edan_column){.key = "miss_percent",
                                     .type = EDAN_T_F64,
                                     .unit = "%",
                                     .doc = "misses per 100 accesses",
                                     .flags = EDAN_NO_JSON | EDAN_NO_CSV | EDAN_COL_PERCENT | EDAN_COL_TITLE_AS_IS,
                                     .title = x->title[k],
                                     .width = 13,
                                     .precision = 1};
    }
    for (int k = 0; k < t->n_sizes && d->csv; k++) {
        snprintf(x->key[k], sizeof x->key[k], "misses_%" PRIu64, t->sizes[k]);
        x->c[x->n++] = (edan_column){.key = x->key[k],
                                     .type = EDAN_T_U64,
                                     .unit = "accesses",
                                     .doc = "misses at the size",
                                     .flags = EDAN_NO_JSON | EDAN_NO_TEXT};
    }
}

/* The rows of a kind into tab (made with make_cols's columns); text leaves out the nests without loops inside. */
static void fill_rows(const reuse_tool *t, view_row *rows, size_t n, int kind, edan_table *tab)
{
    for (size_t i = 0; i < n; i++) {
        view_row *r = &rows[i];
        edan_value *v = edan_table_row(tab, kind == ROW_NEST && r->inside < 2 ? EDAN_NO_TEXT : 0);
        if (!v)
            return;
        const edan_loop_place p = {r->name, r->file, r->line};
        char name[1100];
        size_t c = 1;
        if (kind == ROW_LOOP || kind == ROW_NEST) {
            v[0].s = edan_loop_label(tab, &p, kind == ROW_NEST ? r->inside : r->depth);
            c += edan_loop_cells(tab, v + 1, r->loop, &p, kind == ROW_NEST ? (int64_t)r->inside : -1);
        } else if (kind == ROW_ACCESS) {
            const char *base = r->file ? strrchr(r->file, '/') : NULL;
            snprintf(name, sizeof name, "%" PRIx64 " %s %s:%u", r->pc, r->name ? r->name : "?",
                     base      ? base + 1
                     : r->file ? r->file
                               : "?",
                     r->line);
            v[0].s = edan_table_str(tab, name);
            v[c++].u = r->pc;
            v[c++].s = r->name;
            v[c++].s = r->file;
            v[c++].u = r->line;
        } else if (kind == ROW_THREAD) {
            snprintf(name, sizeof name, "vcpu %u", r->vcpu);
            v[0].s = edan_table_str(tab, name);
            v[c++].u = r->vcpu;
        } else {
            v[0].s = r->name ? r->name : "?";
            v[c++].s = r->name;
        }
        v[c++].u = r->v.accesses;
        v[c++].u = r->v.cold;
        for (int k = 0; k < t->n_sizes; k++)
            r->misses[k] = row_misses(&r->v, size_blocks(t, t->sizes[k]));
        v[c].a.v = r->misses;
        v[c++].a.n = (size_t)t->n_sizes;
        v[c].a.v = r->v.hist;
        v[c++].a.n = BINS;
        for (int k = 0; k < t->n_sizes; k++)
            v[c++].f = r->v.accesses ? 100.0 * (double)r->misses[k] / (double)r->v.accesses : 0.0;
        for (int k = 0; k < t->n_sizes && tab->decl->csv; k++)
            v[c++].u = r->misses[k];
    }
}

typedef struct ru_tables {
    ru_cols cols[N_KINDS];
    edan_table t[N_KINDS];
} ru_tables;

static void make_tables(const reuse_tool *t, views *v, ru_tables *x)
{
    view_row *rows[N_KINDS] = {v->funcs, v->threads, v->loops, v->nests, v->accesses};
    const size_t n[N_KINDS] = {v->n_funcs, v->n_threads, v->n_loops, v->n_nests, v->n_accesses};
    for (int k = 0; k < N_KINDS; k++) {
        make_cols(t, k, &x->cols[k]);
        if (!edan_table_init_cols(&x->t[k], &edan_reuse_tables[k], x->cols[k].c, x->cols[k].n))
            fill_rows(t, rows[k], n[k], k, &x->t[k]);
    }
}

static void free_tables(ru_tables *x)
{
    for (int k = 0; k < N_KINDS; k++)
        edan_table_free(&x->t[k]);
}

static void report_text(const reuse_tool *t, const ru_tables *tabs, bool wide, FILE *f)
{
    const uint64_t bsize = 1ull << t->block_shift, blocks = edan_reuse_blocks(t->tracker);
    fprintf(f, "\nreuse (exact LRU stack distance and reuse time; %" PRIu64 "-byte blocks; %s)\n", bsize,
            t->stream == STREAM_DATA    ? "loads and stores"
            : t->stream == STREAM_LOADS ? "loads"
                                        : "loads, stores and instruction fetches");
    fprintf(f, "  accesses %" PRIu64 "%s, distinct blocks %" PRIu64 " (%" PRIu64 " bytes), cold %" PRIu64 "\n",
            t->accesses, t->stream == STREAM_ALL ? " (fetches included)" : "", blocks, blocks * bsize, t->cold);
    if (t->cuts.samples > 1)
        fprintf(f,
                "  %" PRIu64 " samples, each on its own: a block's first access in a sample is cold, windows start "
                "at each sample's first access (--across-samples joins them)\n",
                t->cuts.samples);
    hist_text(t, f);
    double x[64], y[64];
    size_t n = mrc(t, x, y, 64);
    fputs("  fully associative LRU miss ratio by cache size:", f);
    for (size_t i = 0; i < n; i++) {
        char l[32];
        size_label((uint64_t)x[i], l, sizeof l);
        fprintf(f, "%s%s %.4f", i % 6 ? ", " : "\n    ", l, y[i]);
    }
    fputc('\n', f);
    if (t->sampled) {
        double s[64], max_err;
        const double mae = shards_mrc(t, x, y, n, s, &max_err);
        fprintf(f, "  SHARDS estimate, blocks sampled at rate %.4g (%" PRIu64 " of %" PRIu64 " accesses):", t->s_rate,
                t->s_accesses, t->accesses);
        for (size_t i = 0; i < n; i++) {
            char l[32];
            size_label((uint64_t)x[i], l, sizeof l);
            fprintf(f, "%s%s %.4f", i % 6 ? ", " : "\n    ", l, s[i]);
        }
        fprintf(f, "\n    mean |error| %.4f, max |error| %.4f against the exact curve (sizes of 1/R blocks and more)\n",
                mae, max_err);
    }
    n = windows(t, x, y, 64);
    fputs("  footprint over windows of W accesses (mean distinct blocks F, growth F/W):", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%sW=%.0f F=%.4g (%.3g)", i % 4 ? ", " : "\n    ", x[i], y[i], y[i] / x[i]);
    fputc('\n', f);
    for (int k = 0; k < N_KINDS; k++)
        edan_table_text(f, &tabs->t[k],
                        &(edan_text_view){.min_rows = k == ROW_THREAD ? 2 : 0,
                                          .max_rows = TEXT_ROWS,
                                          .more = k == ROW_ACCESS ? "; --json lists the top 100" : "; --json lists all",
                                          .wide = wide});
}

static void report_json(const reuse_tool *t, const views *v, const ru_tables *tabs, FILE *f)
{
    edan_table sc;
    edan_table_init(&sc, &edan_reuse_tables[N_KINDS]);
    edan_value *r = edan_table_row_of(&sc, 0, t, NULL);
    uint64_t dbin[BINS] = {0}, lo[BINS];
    double x[64], y[64], sr[64], wx[64], wy[64];
    const size_t n = mrc(t, x, y, 64), nw = windows(t, wx, wy, 64);
    for (size_t d = 0; d < t->dist_cap; d++)
        dbin[reuse_bin_of(d)] += t->dist[d];
    for (unsigned k = 0; k < BINS; k++)
        lo[k] = reuse_bin_lo(k);
    if (r) {
        r[S_BLOCK_BYTES].u = (uint64_t)1 << t->block_shift;
        r[S_STREAM].s = edan_reuse_stream_name[t->stream];
        r[S_BLOCKS].u = edan_reuse_blocks(t->tracker);
        r[S_SAMPLES].u = t->by_sample && t->cuts.samples ? t->cuts.samples : 1;
        r[S_BIN_LO].a.v = lo;
        r[S_DIST].a.v = dbin;
        r[S_RTIME].a.v = t->rtime;
        r[S_BIN_LO].a.n = r[S_DIST].a.n = r[S_RTIME].a.n = BINS;
        r[S_MRC_BYTES].d.v = x;
        r[S_MRC_RATIO].d.v = y;
        r[S_SHARDS_RATIO].d.v = sr;
        r[S_MRC_BYTES].d.n = r[S_MRC_RATIO].d.n = r[S_SHARDS_RATIO].d.n = n;
        if ((r[S_SHARDS].u = t->sampled != NULL)) {
            r[S_SHARDS_MAE].f = shards_mrc(t, x, y, n, sr, &r[S_SHARDS_MAX].f);
            r[S_SHARDS_BLOCKS].u = edan_reuse_blocks(t->sampled);
        }
        r[S_WINDOW].d.v = wx;
        r[S_WINDOW_BLOCKS].d.v = wy;
        r[S_WINDOW].d.n = r[S_WINDOW_BLOCKS].d.n = nw;
        r[S_SIZES].a.v = t->sizes;
        r[S_SIZES].a.n = (size_t)t->n_sizes;
    }
    fputs(",\"reuse\":{", f);
    edan_table_json(f, &sc, 0);
    for (int k = 0; k < N_KINDS; k++)
        edan_table_json_member(f, &tabs->t[k], k == ROW_FUNCTION && !v->have_symbols,
                               k == ROW_FUNCTION || k == ROW_THREAD ? 0 : JSON_ROWS);
    fputc('}', f);
    edan_table_free(&sc);
}

void edan_reuse_report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const reuse_tool *t = tool;
    if (fmt == EDAN_FORMAT_TABLE)
        return;
    views v;
    make_views(t, s, &v);
    ru_tables x;
    make_tables(t, &v, &x);
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, &v, &x, f);
    else
        report_text(t, &x, edan_session_options(s)->wide, f);
    free_tables(&x);
    free_views(&v);
}

/* --csv-dir: the histograms, the curve, the windows and the rows of functions, threads, loops and nests. */
static int reuse_csv(const reuse_tool *t, const edan_session *s, const char *dir, const char *name, edan_error *err)
{
    edan_csv c;
    uint64_t dbin[BINS] = {0};
    for (size_t d = 0; d < t->dist_cap; d++)
        dbin[reuse_bin_of(d)] += t->dist[d];
    if (edan_csv_open(&c, dir, name, "reuse-histogram", "bin_lo,distance_accesses,reuse_time_accesses", err))
        return -1;
    for (unsigned k = 0; k < BINS; k++) {
        edan_csv_u64(&c, reuse_bin_lo(k));
        edan_csv_u64(&c, dbin[k]);
        edan_csv_u64(&c, t->rtime[k]);
        edan_csv_end_row(&c);
    }
    if (edan_csv_close(&c, err))
        return -1;
    double x[64], y[64], sh[64], max_err;
    size_t n = mrc(t, x, y, 64);
    if (t->sampled)
        shards_mrc(t, x, y, n, sh, &max_err);
    if (edan_csv_open(&c, dir, name, "mrc", t->sampled ? "bytes,miss_ratio,shards_miss_ratio" : "bytes,miss_ratio",
                      err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        edan_csv_num(&c, x[i]);
        edan_csv_num(&c, y[i]);
        if (t->sampled)
            edan_csv_num(&c, sh[i]);
        edan_csv_end_row(&c);
    }
    if (edan_csv_close(&c, err))
        return -1;
    n = windows(t, x, y, 64);
    if (edan_csv_open(&c, dir, name, "footprint-windows", "window,blocks,growth", err))
        return -1;
    for (size_t i = 0; i < n; i++) {
        edan_csv_num(&c, x[i]);
        edan_csv_num(&c, y[i]);
        edan_csv_num(&c, y[i] / x[i]);
        edan_csv_end_row(&c);
    }
    if (edan_csv_close(&c, err))
        return -1;
    views v;
    make_views(t, s, &v);
    ru_tables tabs;
    make_tables(t, &v, &tabs);
    int rc = 0;
    for (int k = 0; !rc && k < N_KINDS; k++)
        if (edan_reuse_tables[k].csv)
            rc = edan_table_csv(&tabs.t[k], dir, name, err);
    free_tables(&tabs);
    free_views(&v);
    return rc;
}

/* --plot-dir: the histograms, the miss-ratio curve and the footprint over windows. */
int edan_reuse_outputs(void *tool, const edan_session *s, edan_error *err)
{
    const reuse_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    char name[1100];
    edan_session_file_base(s, name, sizeof name);
    if (o->csv_dir[0] && reuse_csv(t, s, o->csv_dir, name, err))
        return -1;
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
