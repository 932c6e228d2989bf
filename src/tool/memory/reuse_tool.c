/*
 * reuse_tool.c - the reuse tool (--reuse, --reuse-stream, --reuse-block,
 * --reuse-sizes): exact LRU stack distances and reuse times of the traced
 * region's accesses to blocks (analysis/locality/reuse.h), as
 *   - histograms of both (log2 bins: 0, 1, 2-3, 4-7, ...; cold apart);
 *   - the miss-ratio curve of a fully associative LRU cache of every
 *     power-of-two size, exact (from the histogram of every distance);
 *   - the footprint over MemGaze's execution-interval tree: for windows of
 *     2^k consecutive accesses, the mean number of distinct blocks a window
 *     touches, F(W), and its growth F(W)/W;
 *   - per function, per thread (vCPU; each access's distance on the one
 *     shared stream, as for the other rows), per innermost loop, per loop
 *     nest (a loop with the loops inside it) and per static memory
 *     instruction (with its source line): accesses, cold accesses, and
 *     the accesses that miss a fully associative LRU cache of each of the
 *     --reuse-sizes.
 *
 * The stream: "data" (the default) is every load, store and atomic; "loads"
 * only loads (MemGaze's view); "all" adds an instruction fetch per executed
 * instruction. An access that spans blocks is one access per block, as in
 * the cache model. Accesses that performed none (a failed sc) are skipped.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/locality/locality.h"
#include "tool/base/base.h"
#include "tool/memory/reuse_tool.h"
#include "util/grow.h"
#include "util/parse.h"

const char *const edan_reuse_stream_name[] = {"data", "loads", "all"};

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
    const char *p = v ? v : "", *tok;
    size_t len;
    int rc;
    while ((rc = edan_list_next(&p, ",", &tok, &len)) > 0) {
        uint64_t b;
        if (*n == SIZES || edan_parse_size(tok, len, &b) || !b || b > (1ull << 50)) {
            edan_error_set(err, "--reuse-sizes: '%s' is not a list of 1 to %d cache sizes like 32K,1M,32M", v, SIZES);
            return -1;
        }
        out[(*n)++] = b;
    }
    if (rc < 0 || *n == 0) {
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

static int parse_rate(const char *v, double *rate, edan_error *err)
{
    if (!v || edan_parse_double(v, rate) || !(*rate >= 1.0 / (1u << 24)) || *rate > 1) {
        edan_error_set(err, "--reuse-sample: '%s' is not a sampling rate above 0 and at most 1, like 0.01", v ? v : "");
        return -1;
    }
    return 0;
}

static int check_rate(const char *v, edan_error *err)
{
    double r;
    return parse_rate(v, &r, err);
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

/* The row of vCPU v's accesses, the array grown to hold it (NULL when out of memory). */
static reuse_row *thread_of(reuse_tool *t, uint16_t v)
{
    if (v >= t->threads_cap) {
        const size_t cap = (size_t)v + 1;
        reuse_row *m = edan_grow_zeroed(t->threads, t->threads_cap, cap, sizeof *m);
        if (!m)
            return NULL;
        t->threads = m;
        t->threads_cap = cap;
    }
    return &t->threads[v];
}

/* SHARDS: a block is sampled when its hash's low 24 bits fall below the threshold, so every access to a
 * sampled block is seen and the sample's distances scale by 1 / rate (Waldspurger et al., FAST'15). */
static inline bool shards_sampled(const reuse_tool *t, uint64_t b)
{
    uint64_t h = b * 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (h & ((1u << 24) - 1)) < t->s_threshold;
}

static bool shards_access(reuse_tool *t, uint64_t b)
{
    uint64_t d = EDAN_REUSE_COLD, prev = 0;
    if (edan_reuse_access(t->sampled, b, &d, &prev) == EDAN_REUSE_NOMEM)
        return false;
    t->s_accesses++;
    if (d == EDAN_REUSE_COLD || (t->by_sample && prev < t->s_sample_start)) {
        t->s_cold++;
        return true;
    }
    if (d >= t->s_dist_cap) {
        size_t cap = t->s_dist_cap ? t->s_dist_cap : 1024;
        while (cap <= d)
            cap *= 2;
        uint64_t *m = edan_grow_zeroed(t->s_dist, t->s_dist_cap, cap, sizeof *m);
        if (!m)
            return false;
        t->s_dist = m;
        t->s_dist_cap = cap;
    }
    t->s_dist[d]++;
    return true;
}

/*
 * One access to block b (row: its static instruction's, thread: its vCPU's; both NULL for a fetch). False when
 * out of memory.
 */
static inline bool access_block(reuse_tool *t, uint64_t b, reuse_row *row, reuse_row *thread)
{
    if (t->sampled && shards_sampled(t, b) && !shards_access(t, b))
        return false;
    uint64_t d = EDAN_REUSE_COLD, prev = 0;
    uint64_t now = t->accesses;
    uint64_t rt = edan_reuse_access(t->tracker, b, &d, &prev);
    if (rt == EDAN_REUSE_NOMEM)
        return false;
    t->accesses++;
    if (t->by_sample) { /* a sample's own reuses and windows: accesses number from its first */
        now -= t->sample_start;
        if (rt != EDAN_REUSE_COLD && prev < t->sample_start)
            rt = d = EDAN_REUSE_COLD;
        prev -= t->sample_start;
    }
    if (rt == EDAN_REUSE_COLD) {
        t->cold++;
        edan_windows_access(&t->win, EDAN_WINDOW_NONE, now);
    } else {
        t->rtime[reuse_bin_of(rt)]++;
        edan_windows_access(&t->win, prev, now);
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
        thread->accesses++;
        if (rt == EDAN_REUSE_COLD) {
            row->cold++;
            thread->cold++;
        } else {
            const unsigned k = reuse_bin_of(d);
            row->hist[k]++;
            thread->hist[k]++;
        }
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
        if (t->by_sample && (r->flags & EDAN_EXEC_SAMPLE_START)) {
            edan_window_cuts_add(&t->cuts, t->accesses - t->sample_start);
            t->sample_start = t->accesses;
            t->s_sample_start = t->s_accesses;
        }
        if (t->stream == STREAM_ALL)
            ok = access_block(t, in->pc >> sh, NULL, NULL);
        if (ok && in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size &&
            (t->stream != STREAM_LOADS || in->mem == EDAN_MEM_LOAD)) {
            reuse_row *row = row_of(t, r);
            reuse_row *thread = r->vcpu < t->threads_cap ? &t->threads[r->vcpu] : thread_of(t, r->vcpu);
            ok = row && thread;
            const uint64_t last = (r->addr + in->mem_size - 1) >> sh;
            for (uint64_t b = r->addr >> sh; ok; b++) {
                ok = access_block(t, b, row, thread);
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
    if (t->loops && edan_loops_observe(t->loops, recs, n))
        edan_error_set(&t->err, "out of memory for the loops");
}

static int finish(void *ctx)
{
    reuse_tool *t = ctx;
    if (t->by_sample) {
        edan_window_cuts_add(&t->cuts, t->accesses - t->sample_start);
        t->sample_start = t->accesses;
    }
    if (!t->err.set && t->loops && edan_loops_index(t->loops))
        edan_error_set(&t->err, "out of memory for the loops");
    return t->err.set ? -1 : 0;
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
    edan_reuse_free(t->sampled);
    edan_loops_free(t->loops);
    if (t->have_elf)
        edan_elf_close(&t->elf);
    free(t->s_dist);
    free(t->dist);
    free(t->id_row);
    free(t->rows);
    free(t->row_pc);
    free(t->threads);
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
    const char *rate = edan_options_last(o, "reuse-sample");
    if (rate) {
        if (parse_rate(rate, &t->s_rate, err)) {
            destroy(t);
            return NULL;
        }
        t->s_threshold = (uint64_t)(t->s_rate * (double)(1u << 24) + 0.5);
        t->s_rate = (double)t->s_threshold / (double)(1u << 24); /* the rate the hash realises */
        if (!(t->sampled = edan_reuse_new(true))) {
            edan_error_set(err, "out of memory");
            destroy(t);
            return NULL;
        }
    }
    const char *binary = edan_session_source(s)->binary;
    edan_error ignored = {0};
    t->have_elf = binary && *binary && !edan_elf_open(binary, &t->elf, &ignored);
    t->by_sample = !o->across_samples;
    if (!(t->tracker = edan_reuse_new(true)) || !(t->loops = edan_loops_new(t->have_elf ? &t->elf : NULL))) {
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
    return &((const reuse_tool *)t)->err;
}

static const edan_tool_option options[] = {
    {"reuse", false,
     "  --reuse             exact LRU stack distances and reuse times of the accesses to\n"
     "                      blocks: histograms, the miss-ratio curve of every fully\n"
     "                      associative cache size, footprint over windows of 2^k accesses,\n"
     "                      per function, thread, loop, loop nest and access\n"
     "                      (docs/locality.md)\n",
     NULL},
    {"reuse-stream", true,
     "  --reuse-stream=S    what --reuse counts: data (loads and stores) [data], loads, or\n"
     "                      all (instruction fetches too)\n",
     check_stream},
    {"reuse-sample", true,
     "  --reuse-sample=R    also estimate the miss-ratio curve from a spatially hashed sample\n"
     "                      of the blocks at rate R (SHARDS), with its error against exact\n",
     check_rate},
    {"reuse-block", true, "  --reuse-block=BYTES the block size of --reuse, a power of two [64]\n", check_block},
    {"reuse-sizes", true,
     "  --reuse-sizes=LIST  cache sizes at which --reuse counts the misses of each function,\n"
     "                      thread, loop, loop nest and access (fully associative LRU)\n"
     "                      [32K,1M,32M]\n",
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
    .results = edan_reuse_results,
    .free_results = edan_reuse_free_results,
    .tables = edan_reuse_tables,
    .outputs = edan_reuse_outputs,
    .destroy = destroy,
    .threaded = true,
    .reads_program = true,
};
