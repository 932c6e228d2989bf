/*
 * reuse_tool.c - the reuse tool (--reuse, --reuse-stream, --reuse-block,
 * --reuse-sizes): exact LRU stack distances and reuse times of the traced
 * region's accesses to blocks (analysis/reuse.h), as
 *   - histograms of both (log2 bins: 0, 1, 2-3, 4-7, ...; cold apart);
 *   - the miss-ratio curve of a fully associative LRU cache of every
 *     power-of-two size, exact (from the histogram of every distance);
 *   - the footprint over MemGaze's execution-interval tree: for windows of
 *     2^k consecutive accesses, the mean number of distinct blocks a window
 *     touches, F(W), and its growth F(W)/W;
 *   - per function and per static memory instruction (with its source
 *     line): accesses, cold accesses, and the accesses that miss a fully
 *     associative LRU cache of each of the --reuse-sizes.
 *
 * The stream: "data" (the default) is every load, store and atomic; "loads"
 * only loads (MemGaze's view); "all" adds an instruction fetch per executed
 * instruction. An access that spans blocks is one access per block, as in
 * the cache model. Accesses that performed none (a failed sc) are skipped.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/reuse.h"
#include "report/json.h"
#include "report/plot.h"
#include "tool/session.h"
#include "tool/tool.h"
#include "util/elf_symbols.h"
#include "util/grow.h"
#include "util/parse.h"
#include "util/srcmap.h"

#define BINS 40    /* distance and reuse-time bins: 0, then [2^(k-1), 2^k) for k >= 1; the last open-ended */
#define SIZES 4    /* --reuse-sizes at most */
#define WINDOWS 48 /* execution-interval windows 2^0 .. 2^47 accesses */
#define TEXT_ROWS 10
#define JSON_ROWS 100

enum { STREAM_DATA, STREAM_LOADS, STREAM_ALL };
static const char *const stream_name[] = {"data", "loads", "all"};

/* What one static instruction (or a function, summed) did. */
typedef struct reuse_row {
    uint64_t accesses, cold;
    uint64_t hist[BINS]; /* stack distances */
} reuse_row;

typedef struct reuse_tool {
    edan_reuse *tracker;
    int stream;
    unsigned block_shift;
    uint64_t sizes[SIZES]; /* cache sizes in bytes for the per-row miss counts */
    int n_sizes;
    /* the whole run */
    uint64_t accesses, cold, fetches;
    uint64_t *dist; /* dist[d]: accesses at stack distance d, d < dist_cap */
    size_t dist_cap;
    uint64_t rtime[BINS]; /* reuse times (bin 0 unused: a reuse time is >= 1) */
    uint64_t first_in_window[WINDOWS];
    /* per static memory instruction: row index + 1 by id (0: none yet) */
    uint32_t *id_row;
    size_t id_cap;
    reuse_row *rows;
    uint64_t *row_pc;
    size_t n_rows, rows_cap;
    edan_error err;
} reuse_tool;

static inline unsigned bin_of(uint64_t v)
{
    if (v == 0)
        return 0;
    const unsigned b = 64u - (unsigned)__builtin_clzll(v);
    return b < BINS ? b : BINS - 1;
}

/* Lower bound of bin k. */
static uint64_t bin_lo(unsigned k)
{
    return k == 0 ? 0 : 1ull << (k - 1);
}

/* ===================================================================== */
/* Options                                                                */
/* ===================================================================== */

static int parse_stream(const char *v)
{
    if (!v || !*v || !strcmp(v, "data"))
        return STREAM_DATA;
    if (!strcmp(v, "loads"))
        return STREAM_LOADS;
    if (!strcmp(v, "all"))
        return STREAM_ALL;
    return -1;
}

static int check_stream(const char *v, edan_error *err)
{
    if (parse_stream(v) < 0) {
        edan_error_set(err, "--reuse-stream: '%s' is not data, loads or all", v);
        return -1;
    }
    return 0;
}

static int parse_block(const char *v, unsigned *shift, edan_error *err)
{
    uint64_t b;
    if (!v || edan_parse_size(v, strlen(v), &b) || !b || (b & (b - 1)) || b > (1u << 30)) {
        edan_error_set(err, "--reuse-block: '%s' is not a power of two from 1 to 1G bytes", v ? v : "");
        return -1;
    }
    *shift = (unsigned)__builtin_ctzll(b);
    return 0;
}

static int check_block(const char *v, edan_error *err)
{
    unsigned s;
    return parse_block(v, &s, err);
}

static int parse_sizes(const char *v, uint64_t *out, int *n, edan_error *err)
{
    *n = 0;
    const char *p = v ? v : "";
    while (*p) {
        const size_t len = strcspn(p, ",");
        uint64_t b;
        if (*n == SIZES || edan_parse_size(p, len, &b) || !b || b > (1ull << 50)) {
            edan_error_set(err, "--reuse-sizes: '%s' is not a list of 1 to %d cache sizes like 32K,1M,32M", v, SIZES);
            return -1;
        }
        out[(*n)++] = b;
        p += len + (p[len] == ',');
    }
    if (*n == 0) {
        edan_error_set(err, "--reuse-sizes: a list of cache sizes, like 32K,1M,32M");
        return -1;
    }
    return 0;
}

static int check_sizes(const char *v, edan_error *err)
{
    uint64_t s[SIZES];
    int n;
    return parse_sizes(v, s, &n, err);
}

static bool wanted(const edan_options *o)
{
    return edan_options_each(o, "reuse", NULL, NULL) > 0;
}

/* ===================================================================== */
/* The stream                                                             */
/* ===================================================================== */

static reuse_row *row_of(reuse_tool *t, const edan_exec *r)
{
    if (r->id >= t->id_cap) {
        const size_t cap = edan_grow_cap(t->id_cap, r->id);
        uint32_t *m = edan_grow_zeroed(t->id_row, t->id_cap, cap, sizeof *m);
        if (!m)
            return NULL;
        t->id_row = m;
        t->id_cap = cap;
    }
    if (!t->id_row[r->id]) {
        if (t->n_rows == t->rows_cap) {
            const size_t cap = t->rows_cap ? 2 * t->rows_cap : 256;
            reuse_row *rows = realloc(t->rows, cap * sizeof *rows);
            uint64_t *pcs = rows ? realloc(t->row_pc, cap * sizeof *pcs) : NULL;
            if (rows)
                t->rows = rows;
            if (!pcs)
                return NULL;
            t->row_pc = pcs;
            t->rows_cap = cap;
        }
        memset(&t->rows[t->n_rows], 0, sizeof *t->rows);
        t->row_pc[t->n_rows] = r->insn->pc;
        t->id_row[r->id] = (uint32_t)++t->n_rows;
    }
    return &t->rows[t->id_row[r->id] - 1];
}

/* One access to block b (row: its static instruction's, NULL for a fetch). False when out of memory. */
static inline bool access_block(reuse_tool *t, uint64_t b, reuse_row *row)
{
    uint64_t d = EDAN_REUSE_COLD, prev = 0;
    const uint64_t now = t->accesses;
    const uint64_t rt = edan_reuse_access(t->tracker, b, &d, &prev);
    if (rt == EDAN_REUSE_NOMEM)
        return false;
    t->accesses++;
    if (rt == EDAN_REUSE_COLD) {
        t->cold++;
        for (int k = 0; k < WINDOWS; k++)
            t->first_in_window[k]++;
    } else {
        t->rtime[bin_of(rt)]++;
        /* the first access to b in its window of 2^k accesses: the previous one is in an earlier window */
        const uint64_t diff = prev ^ now;
        const int top = diff ? 64 - __builtin_clzll(diff) : 0; /* windows of 2^k, k < top, split them */
        for (int k = 0; k < top && k < WINDOWS; k++)
            t->first_in_window[k]++;
        if (d >= t->dist_cap) {
            size_t cap = t->dist_cap ? t->dist_cap : 4096;
            while (cap <= d)
                cap *= 2;
            uint64_t *m = edan_grow_zeroed(t->dist, t->dist_cap, cap, sizeof *m);
            if (!m)
                return false;
            t->dist = m;
            t->dist_cap = cap;
        }
        t->dist[d]++;
    }
    if (row) {
        row->accesses++;
        if (rt == EDAN_REUSE_COLD)
            row->cold++;
        else
            row->hist[bin_of(d)]++;
    } else {
        t->fetches++;
    }
    return true;
}

static void consume(void *ctx, const edan_exec *recs, size_t n)
{
    reuse_tool *t = ctx;
    if (t->err.set)
        return;
    const unsigned sh = t->block_shift;
    for (size_t i = 0; i < n; i++) {
        if (i + 8 < n && recs[i + 8].insn->mem != EDAN_MEM_NONE) /* overlap the tracker's table misses */
            edan_reuse_prefetch(t->tracker, recs[i + 8].addr >> sh);
        const edan_exec *r = &recs[i];
        const edan_insn *in = r->insn;
        bool ok = true;
        if (t->stream == STREAM_ALL)
            ok = access_block(t, in->pc >> sh, NULL);
        if (ok && in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size &&
            (t->stream != STREAM_LOADS || in->mem == EDAN_MEM_LOAD)) {
            reuse_row *row = row_of(t, r);
            ok = row != NULL;
            const uint64_t last = (r->addr + in->mem_size - 1) >> sh;
            for (uint64_t b = r->addr >> sh; ok; b++) {
                ok = access_block(t, b, row);
                if (b == last)
                    break;
            }
        }
        if (!ok) {
            edan_error_set(&t->err, "out of memory for the reuse tracker (%" PRIu64 " distinct blocks)",
                           edan_reuse_blocks(t->tracker));
            return;
        }
    }
}

static int finish(void *ctx)
{
    return ((reuse_tool *)ctx)->err.set ? -1 : 0;
}

/* ===================================================================== */
/* The tool                                                               */
/* ===================================================================== */

static void destroy(void *tool)
{
    reuse_tool *t = tool;
    if (!t)
        return;
    edan_reuse_free(t->tracker);
    free(t->dist);
    free(t->id_row);
    free(t->rows);
    free(t->row_pc);
    free(t);
}

static void *create(edan_session *s, edan_error *err)
{
    const edan_options *o = edan_session_options(s);
    reuse_tool *t = calloc(1, sizeof *t);
    if (!t) {
        edan_error_set(err, "out of memory");
        return NULL;
    }
    t->stream = parse_stream(edan_options_last(o, "reuse-stream"));
    t->block_shift = 6;
    const char *block = edan_options_last(o, "reuse-block");
    const char *sizes = edan_options_last(o, "reuse-sizes");
    if (t->stream < 0 || (block && parse_block(block, &t->block_shift, err)) ||
        parse_sizes(sizes ? sizes : "32K,1M,32M", t->sizes, &t->n_sizes, err)) {
        if (t->stream < 0)
            check_stream(edan_options_last(o, "reuse-stream"), err);
        destroy(t);
        return NULL;
    }
    if (!(t->tracker = edan_reuse_new(true))) {
        edan_error_set(err, "out of memory");
        destroy(t);
        return NULL;
    }
    return t;
}

static edan_consumer consumer(void *t)
{
    return (edan_consumer){t, consume, finish, NULL};
}

static const edan_error *error(const void *t)
{
    return &((const reuse_tool *)t)->err;
}

/* ===================================================================== */
/* Views                                                                  */
/* ===================================================================== */

/* Misses of a fully associative LRU cache of c blocks (c a power of two) among a row's accesses. */
static uint64_t row_misses(const reuse_row *r, uint64_t c)
{
    uint64_t m = r->cold;
    for (unsigned k = bin_of(c) + 1; k < BINS; k++) /* bin k >= 1 holds [2^(k-1), 2^k): all >= c from bin_of(c)+1 */
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
    uint64_t pc; /* an access's instruction (0 for a function) */
    reuse_row v;
    uint64_t key; /* misses at the first size: the order */
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
    view_row *funcs, *accesses;
    size_t n_funcs, n_accesses;
    bool have_symbols;
} views;

static void row_sum(reuse_row *into, const reuse_row *r)
{
    into->accesses += r->accesses;
    into->cold += r->cold;
    for (int k = 0; k < BINS; k++)
        into->hist[k] += r->hist[k];
}

/* Rows per function (ELF symbols) and per static instruction (with its source line from DWARF). */
static void make_views(const reuse_tool *t, const edan_session *s, views *v)
{
    memset(v, 0, sizeof *v);
    const char *binary = edan_session_source(s)->binary;
    edan_elf elf;
    edan_error ignored = {0};
    const bool have_elf = binary && *binary && !edan_elf_open(binary, &elf, &ignored);
    v->have_symbols = have_elf && !elf.is_pie;
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
    /* names and files must outlive the ELF and the source map: copy what is kept */
    for (size_t i = 0; i < v->n_funcs; i++)
        v->funcs[i].name = v->funcs[i].name ? strdup(v->funcs[i].name) : NULL;
    for (size_t i = 0; i < v->n_accesses; i++) {
        v->accesses[i].name = v->accesses[i].name ? strdup(v->accesses[i].name) : NULL;
        v->accesses[i].file = v->accesses[i].file ? strdup(v->accesses[i].file) : NULL;
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
    free(v->funcs);
    free(v->accesses);
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

/* Mean distinct blocks per window of 2^k accesses, k = 0 .. the first window that holds the whole stream. */
static size_t windows(const reuse_tool *t, double *w, double *f, size_t cap)
{
    size_t n = 0;
    for (int k = 0; k < WINDOWS && n < cap && t->accesses; k++) {
        const uint64_t size = 1ull << k, count = (t->accesses + size - 1) / size;
        w[n] = (double)size;
        f[n] = (double)t->first_in_window[k] / (double)count;
        n++;
        if (size >= t->accesses)
            break;
    }
    return n;
}

static void hist_text(const reuse_tool *t, FILE *f)
{
    unsigned top = 0;
    uint64_t dbin[BINS] = {0};
    for (size_t d = 0; d < t->dist_cap; d++)
        dbin[bin_of(d)] += t->dist[d];
    for (unsigned k = 0; k < BINS; k++) {
        if (dbin[k] || t->rtime[k])
            top = k;
    }
    fprintf(f, "  %-22s %14s %7s   %14s %7s\n", "distance / reuse time", "by distance", "cum %", "by reuse time",
            "cum %");
    uint64_t cd = 0, ct = 0;
    for (unsigned k = 0; k <= top && t->accesses; k++) {
        char range[48];
        const uint64_t lo = bin_lo(k), hi = k == BINS - 1 ? 0 : (k ? 2 * lo - 1 : 0);
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

static void rows_text(const reuse_tool *t, FILE *f, const view_row *rows, size_t n, bool accesses)
{
    fprintf(f, "  %-44s %12s %10s", accesses ? "access (pc, function, line)" : "function", "accesses", "cold");
    for (int i = 0; i < t->n_sizes; i++) {
        char l[32];
        size_label(t->sizes[i], l, sizeof l);
        fprintf(f, " %9s %s", "miss@", l);
    }
    fputc('\n', f);
    for (size_t i = 0; i < n && i < TEXT_ROWS; i++) {
        const view_row *r = &rows[i];
        char name[160];
        if (accesses) {
            const char *base = r->file ? strrchr(r->file, '/') : NULL;
            snprintf(name, sizeof name, "%" PRIx64 " %s %s:%u", r->pc, r->name ? r->name : "?",
                     base      ? base + 1
                     : r->file ? r->file
                               : "?",
                     r->line);
        } else {
            snprintf(name, sizeof name, "%s", r->name ? r->name : "?");
        }
        fprintf(f, "  %-44.44s %12" PRIu64 " %10" PRIu64, name, r->v.accesses, r->v.cold);
        for (int k = 0; k < t->n_sizes; k++) {
            const uint64_t m = row_misses(&r->v, size_blocks(t, t->sizes[k]));
            fprintf(f, " %12.1f%%", r->v.accesses ? 100.0 * (double)m / (double)r->v.accesses : 0.0);
        }
        fputc('\n', f);
    }
    if (n > TEXT_ROWS)
        fprintf(f, "  (%zu more; --json lists %s)\n", n - TEXT_ROWS, accesses ? "the top 100" : "all");
}

static void report_text(const reuse_tool *t, const views *v, FILE *f)
{
    const uint64_t bsize = 1ull << t->block_shift, blocks = edan_reuse_blocks(t->tracker);
    fprintf(f, "\nreuse (exact LRU stack distance and reuse time; %" PRIu64 "-byte blocks; %s)\n", bsize,
            t->stream == STREAM_DATA    ? "loads and stores"
            : t->stream == STREAM_LOADS ? "loads"
                                        : "loads, stores and instruction fetches");
    fprintf(f, "  accesses %" PRIu64 "%s, distinct blocks %" PRIu64 " (%" PRIu64 " bytes), cold %" PRIu64 "\n",
            t->accesses, t->stream == STREAM_ALL ? " (fetches included)" : "", blocks, blocks * bsize, t->cold);
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
    n = windows(t, x, y, 64);
    fputs("  footprint over windows of W accesses (mean distinct blocks F, growth F/W):", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%sW=%.0f F=%.4g (%.3g)", i % 4 ? ", " : "\n    ", x[i], y[i], y[i] / x[i]);
    fputc('\n', f);
    if (v->have_symbols && v->n_funcs)
        rows_text(t, f, v->funcs, v->n_funcs, false);
    if (v->n_accesses)
        rows_text(t, f, v->accesses, v->n_accesses, true);
}

static void json_row(const reuse_tool *t, FILE *f, const view_row *r, bool access)
{
    fputs("{", f);
    if (access) {
        fprintf(f, "\"pc\":%" PRIu64 ",\"function\":", r->pc);
        edan_json_str(f, r->name);
        fputs(",\"file\":", f);
        edan_json_str(f, r->file);
        fprintf(f, ",\"line\":%u", r->line);
    } else {
        fputs("\"name\":", f);
        edan_json_str(f, r->name);
    }
    fprintf(f, ",\"accesses\":%" PRIu64 ",\"cold\":%" PRIu64 ",\"misses\":[", r->v.accesses, r->v.cold);
    for (int k = 0; k < t->n_sizes; k++)
        fprintf(f, "%s%" PRIu64, k ? "," : "", row_misses(&r->v, size_blocks(t, t->sizes[k])));
    fputs("],\"distance_histogram\":", f);
    edan_json_u64_array(f, r->v.hist, BINS);
    fputc('}', f);
}

static void report_json(const reuse_tool *t, const views *v, FILE *f)
{
    fprintf(f,
            ",\"reuse\":{\"block_bytes\":%" PRIu64 ",\"stream\":\"%s\",\"accesses\":%" PRIu64 ",\"fetches\":%" PRIu64
            ",\"blocks\":%" PRIu64 ",\"cold\":%" PRIu64,
            (uint64_t)1 << t->block_shift, stream_name[t->stream], t->accesses, t->fetches,
            edan_reuse_blocks(t->tracker), t->cold);
    uint64_t dbin[BINS] = {0}, lo[BINS];
    for (size_t d = 0; d < t->dist_cap; d++)
        dbin[bin_of(d)] += t->dist[d];
    for (unsigned k = 0; k < BINS; k++)
        lo[k] = bin_lo(k);
    fputs(",\"bin_lo\":", f);
    edan_json_u64_array(f, lo, BINS);
    fputs(",\"distance_histogram\":", f);
    edan_json_u64_array(f, dbin, BINS);
    fputs(",\"reuse_time_histogram\":", f);
    edan_json_u64_array(f, t->rtime, BINS);
    double x[64], y[64];
    size_t n = mrc(t, x, y, 64);
    fputs(",\"miss_ratio_curve\":{\"bytes\":", f);
    edan_json_num_array(f, x, n);
    fputs(",\"miss_ratio\":", f);
    edan_json_num_array(f, y, n);
    n = windows(t, x, y, 64);
    fputs("},\"footprint_windows\":{\"window\":", f);
    edan_json_num_array(f, x, n);
    fputs(",\"blocks\":", f);
    edan_json_num_array(f, y, n);
    fputs("},\"sizes\":", f);
    edan_json_u64_array(f, t->sizes, (size_t)t->n_sizes);
    fputs(",\"functions\":", f);
    if (!v->have_symbols) {
        fputs("null", f);
    } else {
        fputc('[', f);
        for (size_t i = 0; i < v->n_funcs; i++) {
            fputs(i ? "," : "", f);
            json_row(t, f, &v->funcs[i], false);
        }
        fputc(']', f);
    }
    fputs(",\"accesses_by_instruction\":[", f);
    for (size_t i = 0; i < v->n_accesses && i < JSON_ROWS; i++) {
        fputs(i ? "," : "", f);
        json_row(t, f, &v->accesses[i], true);
    }
    fputs("]}", f);
}

static void report(void *tool, const edan_session *s, edan_report_format fmt, FILE *f)
{
    const reuse_tool *t = tool;
    if (fmt == EDAN_FORMAT_TABLE)
        return;
    views v;
    make_views(t, s, &v);
    if (fmt == EDAN_FORMAT_JSON)
        report_json(t, &v, f);
    else
        report_text(t, &v, f);
    free_views(&v);
}

/* --plot-dir: the histograms, the miss-ratio curve and the footprint over windows. */
static int outputs(void *tool, const edan_session *s, edan_error *err)
{
    const reuse_tool *t = tool;
    const edan_options *o = edan_session_options(s);
    if (!o->plot_dir[0] || !t->accesses)
        return 0;
    char name[1100];
    edan_session_source_name(s, true, name, sizeof name);
    double x[BINS], d[BINS] = {0}, r[BINS];
    for (size_t i = 0; i < t->dist_cap; i++)
        d[bin_of(i)] += (double)t->dist[i];
    for (unsigned k = 0; k < BINS; k++) {
        x[k] = (double)bin_lo(k);
        r[k] = (double)t->rtime[k];
    }
    edan_plot_xy_spec h = {"reuse-histogram",
                           "Stack distance and reuse time (log2 bins; bin 0 at x=0.5)",
                           "lower end of the bin (blocks, accesses)",
                           "accesses",
                           true,
                           true,
                           2,
                           {"stack distance (distinct blocks)", "reuse time (accesses)"},
                           BINS,
                           x,
                           {d, r}};
    x[0] = 0.5; /* distance 0 on a log scale */
    double mx[64], my[64], wx[64], wy[64];
    edan_plot_xy_spec m = {"mrc",
                           "Miss ratio of a fully associative LRU cache",
                           "cache size (bytes)",
                           "miss ratio",
                           true,
                           false,
                           1,
                           {"exact (stack distances)"},
                           mrc(t, mx, my, 64),
                           mx,
                           {my}};
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
                           {wy}};
    return edan_plot_xy(o->plot_dir, name, &h, err) || edan_plot_xy(o->plot_dir, name, &m, err) ||
                   edan_plot_xy(o->plot_dir, name, &w, err)
               ? -1
               : 0;
}

static const edan_tool_option options[] = {
    {"reuse", false,
     "  --reuse             exact LRU stack distances and reuse times of the accesses to\n"
     "                      blocks: histograms, the miss-ratio curve of every fully\n"
     "                      associative cache size, footprint over windows of 2^k accesses,\n"
     "                      per function and per access (docs/locality.md)\n",
     NULL},
    {"reuse-stream", true,
     "  --reuse-stream=S    what --reuse counts: data (loads and stores) [data], loads, or\n"
     "                      all (instruction fetches too)\n",
     check_stream},
    {"reuse-block", true, "  --reuse-block=BYTES the block size of --reuse, a power of two [64]\n", check_block},
    {"reuse-sizes", true,
     "  --reuse-sizes=LIST  cache sizes at which --reuse counts each function's and each\n"
     "                      access's misses (fully associative LRU) [32K,1M,32M]\n",
     check_sizes},
    {NULL, false, NULL, NULL},
};

const edan_tool_def edan_reuse_tool = {
    .name = "reuse",
    .summary = "exact stack distances, reuse times, miss-ratio curve, footprint over windows",
    .options = options,
    .wanted = wanted,
    .create = create,
    .consumer = consumer,
    .error = error,
    .report = report,
    .outputs = outputs,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
};
