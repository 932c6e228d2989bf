/*
 * reuse_test.c - the stack distance and reuse time tracker (analysis/locality/reuse.h)
 * against a brute-force LRU list, on random, strided, pointer-chasing and
 * phase-changing block streams, with windows small enough that compactions
 * and hash-table growth happen many times; and the miss-ratio curve against
 * edan's own cache model configured fully associative. The caller's word
 * of each block (edan_reuse_access_user) keeps what was stored there.
 *
 * Usage: reuse_test [streams]
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/locality/reuse.h"
#include "check.h"
#include "random_trace.h"

/* ===================================================================== */
/* Brute force                                                            */
/* ===================================================================== */

/* An LRU list: stack[0] the most recent block. Distance = index of the block; then move it to the front. */
typedef struct naive {
    uint64_t *stack, *last_block, *last_time;
    size_t n, cap, now;
} naive;

static void naive_access(naive *v, uint64_t b, uint64_t *dist, uint64_t *rtime)
{
    size_t i = 0;
    while (i < v->n && v->stack[i] != b)
        i++;
    if (i == v->n) {
        *dist = *rtime = EDAN_REUSE_COLD;
        v->last_block[v->n] = b;
        v->last_time[v->n] = v->now;
        memmove(v->stack + 1, v->stack, v->n * sizeof *v->stack);
        v->n++;
    } else {
        *dist = i;
        memmove(v->stack + 1, v->stack, i * sizeof *v->stack);
        size_t k = 0;
        while (v->last_block[k] != b)
            k++;
        *rtime = v->now - v->last_time[k];
        v->last_time[k] = v->now;
    }
    v->stack[0] = b;
    v->now++;
}

/* ===================================================================== */
/* Streams                                                                */
/* ===================================================================== */

enum { RANDOM, STRIDED, CHASE, PHASES, EXTREMES, N_KINDS };
static const char *const kind_name[] = {"random", "strided", "chase", "phases", "extremes"};

/* Block i of a stream of kind k over (about) `universe` blocks. */
static uint64_t stream_block(int k, size_t i, size_t universe, const uint64_t *perm)
{
    switch (k) {
    case RANDOM:
        return 1000 + rt_below(universe);
    case STRIDED: /* a loop nest: rows of `universe / 8` blocks, stride 3, each row twice */
        return 77 + ((i / (2 * (universe / 8))) * 5 + (i % (universe / 8)) * 3) % (4 * universe);
    case CHASE: /* a random cycle through all blocks, repeated */
        return perm[i % universe] << 4;
    case PHASES: /* hot small set, then a sweep, then random */
        if ((i / 3000) % 3 == 0)
            return rt_below(16);
        if ((i / 3000) % 3 == 1)
            return 500000 + i % universe;
        return rt_below(universe * 2);
    default: /* blocks at the ends of the range, including UINT64_MAX */
        return rt_below(2) ? UINT64_MAX - rt_below(universe / 2 + 1) : rt_below(universe / 2 + 1);
    }
}

/* edan_reuse_final against the LRU list: a block's final distance is its index there. */
typedef struct final_check {
    const naive *v;
    size_t visited, wrong;
} final_check;

static void final_visit(void *ctx, uint64_t b, uint64_t f, uint32_t user)
{
    final_check *c = ctx;
    size_t i = 0, k = 0;
    while (i < c->v->n && c->v->stack[i] != b)
        i++;
    while (k < c->v->n && c->v->last_block[k] != b)
        k++;
    c->visited++;
    c->wrong += i == c->v->n || f != i || k == c->v->n || user != (uint32_t)(c->v->last_time[k] + 1);
}

/* A stream of kind over a universe of blocks; big: 5000 to 13000 blocks, so the tables grow several times. */
static void one_stream(int kind, uint64_t seed, bool big)
{
    rt_seed(seed);
    const size_t n = big ? 30000 + rt_below(20000) : 2000 + rt_below(30000);
    const size_t universe = big ? 5000 + rt_below(8000) : 8 + rt_below(kind == PHASES ? 3000 : 1500);
    const size_t window = rt_below(2) ? 512 : 4096;
    uint64_t *perm = malloc(universe * sizeof *perm);
    for (size_t i = 0; i < universe; i++)
        perm[i] = i;
    for (size_t i = universe - 1; i > 0; i--) {
        const size_t j = rt_below(i + 1);
        const uint64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    naive v = {calloc(n, 8), calloc(n, 8), calloc(n, 8), 0, n, 0};
    edan_reuse *full = edan_reuse_new_window(true, window), *times = edan_reuse_new(false);
    char ctx[96];
    snprintf(ctx, sizeof ctx, "%s%s stream seed %llu", big ? "big " : "", kind_name[kind], (unsigned long long)seed);
    size_t bad = 0;
    for (size_t i = 0; i < n && !bad; i++) {
        const uint64_t b = stream_block(kind, i, universe, perm);
        uint64_t nd, nt, d = 12345, d2 = 12345, prev = 0, prev2 = 0;
        naive_access(&v, b, &nd, &nt);
        /* the caller's word of the block: what the previous access to it left there (its index + 1), 0 when cold */
        uint32_t *user = NULL;
        const uint64_t t = edan_reuse_access_user(full, b, &d, &prev, &user);
        const uint32_t want_user = nt == EDAN_REUSE_COLD ? 0 : (uint32_t)(i - nt + 1);
        const bool user_ok = user && *user == want_user;
        if (user)
            *user = (uint32_t)(i + 1);
        const uint64_t t2 = edan_reuse_access(times, b, &d2, &prev2);
        if (d != nd || t != nt || t2 != nt || d2 != 12345 || (nt != EDAN_REUSE_COLD && prev != i - nt) ||
            (nt != EDAN_REUSE_COLD && prev2 != i - nt) || !user_ok) {
            bad++;
            CHECK(0, "%s, access %zu (block %llu): distance %llu, time %llu / %llu; expected %llu, %llu", ctx, i,
                  (unsigned long long)b, (unsigned long long)d, (unsigned long long)t, (unsigned long long)t2,
                  (unsigned long long)nd, (unsigned long long)nt);
        }
    }
    CHECK(!bad, "%s", ctx);
    CHECK_EQ_U64(edan_reuse_blocks(full), v.n, ctx);
    /* after the stream: each block's final distance is its place in the LRU list, its word its last access + 1 */
    final_check fc = {&v, 0, 0};
    if (!bad && v.n)
        edan_reuse_final(full, final_visit, &fc);
    CHECK(bad || (fc.visited == v.n && fc.wrong == 0), "%s: final distances: %zu of %zu blocks, %zu wrong", ctx,
          fc.visited, v.n, fc.wrong);
    CHECK_EQ_U64(edan_reuse_accesses(times), n, ctx);
    CHECK_EQ_U64(edan_reuse_blocks(times), v.n, ctx);
    edan_reuse_free(full);
    edan_reuse_free(times);
    free(v.stack);
    free(v.last_block);
    free(v.last_time);
    free(perm);
}

/* ===================================================================== */
/* Miss-ratio curve against the cache model                               */
/* ===================================================================== */

/* Misses of a fully associative LRU cache of c lines = cold accesses + accesses at distance >= c. */
static void mrc_against_cache(uint64_t seed)
{
    rt_seed(seed);
    const size_t n = 50000, universe = 3000;
    static const uint32_t sizes[] = {1, 4, 16, 64, 256, 1024};
    edan_cache caches[6];
    for (int k = 0; k < 6; k++) {
        edan_cache_config cfg = {.n_levels = 1};
        cfg.level[0] = (edan_cache_level_config){(uint64_t)sizes[k] * 64, 64, sizes[k], true, true};
        edan_error err = {0};
        CHECK(!edan_cache_init(&caches[k], &cfg, &err), "cache init: %s", err.msg);
    }
    edan_reuse *r = edan_reuse_new_window(true, 512);
    uint64_t misses[6] = {0};
    for (size_t i = 0; i < n; i++) {
        /* a mix: a hot set, a sweep and random lines */
        const uint64_t line = i % 5 < 2 ? rt_below(40) : i % 5 < 4 ? 100 + (i / 5) % 700 : rt_below(universe);
        const uint64_t addr = line * 64 + rt_below(8) * 8;
        uint64_t d, prev;
        edan_reuse_access(r, addr >> 6, &d, &prev);
        for (int k = 0; k < 6; k++) {
            edan_cache_access(&caches[k], addr, 8, false);
            misses[k] += d == EDAN_REUSE_COLD || d >= sizes[k];
        }
    }
    for (int k = 0; k < 6; k++) {
        char ctx[64];
        snprintf(ctx, sizeof ctx, "fully associative LRU, %u lines", sizes[k]);
        CHECK_EQ_U64(misses[k], caches[k].level[0].misses, ctx);
        edan_cache_free(&caches[k]);
    }
    edan_reuse_free(r);
}

int main(int argc, char **argv)
{
    const int streams = argc > 1 ? atoi(argv[1]) : 100;
    for (int s = 0; s < streams; s++)
        one_stream(s % N_KINDS, 7000 + (uint64_t)s, false);
    for (int s = 0; s < 2 * N_KINDS; s++)
        one_stream(s % N_KINDS, 9100 + (uint64_t)s, true);
    /* the reuse-time tracker keeps no caller's word */
    edan_reuse *times = edan_reuse_new(false);
    uint32_t *word = (uint32_t *)&streams;
    uint64_t d, prev;
    CHECK(edan_reuse_access_user(times, 5, &d, &prev, &word) == EDAN_REUSE_NOMEM && word == NULL,
          "edan_reuse_access_user without distances");
    edan_reuse_free(times);
    mrc_against_cache(42);
    mrc_against_cache(43);
    return check_summary();
}
