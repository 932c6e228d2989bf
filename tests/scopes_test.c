/*
 * The per-function fast path (analysis/scopes/scopes.h) against the analyzer's
 * scoped lanes (analysis/edag/edag.h, checked against the naive reference by the
 * property test): on random traces with calls and returns, random exclusive
 * and inclusive scopes over random pc ranges, random caches and costs, every
 * scope's vertices, W, D and C are equal. Also: a compaction of the depth
 * arena on a long trace, and the configurations it refuses. Ranges added
 * between batches (a shared library's function, known once the library is
 * mapped) give what the same ranges give from the start, in both.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/scopes/scopes.h"
#include "check.h"
#include "random_trace.h"

static void feed(edan_consumer k, const edan_exec *recs, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t b = 1 + rt_below(64);
        if (b > n - i)
            b = n - i;
        k.consume(k.ctx, recs + i, b);
        i += b;
    }
}

/* Scoped lanes over table's pcs: K scopes, each EXCLUSIVE or INCLUSIVE, all with lane 0's cache and costs. */
static void random_scopes(edan_edag_config *cfg, int K)
{
    edan_edag_config_default(cfg);
    cfg->n_lanes = K;
    cfg->n_tau = 0;
    cfg->threads = 1 + (int)rt_below(2);
    rt_random_lane(&cfg->lane[0]);
    for (int k = 0; k < K; k++) {
        edan_lane_config *l = &cfg->lane[k];
        *l = cfg->lane[0];
        l->scope = rt_below(2) ? EDAN_SCOPE_EXCLUSIVE : EDAN_SCOPE_INCLUSIVE;
        l->n_ranges = 1 + (int)rt_below(2);
        for (int j = 0; j < l->n_ranges; j++) {
            l->range_lo[j] = 0x10000 + 4 * rt_below(24);
            l->range_hi[j] = l->range_lo[j] + 4 * (1 + rt_below(10));
        }
    }
}

static int compare(const edan_edag_config *cfg, const edan_exec *recs, size_t n, int trial)
{
    edan_error err = {0};
    edan_edag *e = edan_edag_new(cfg, &err);
    edan_scopes *s = edan_scopes_new(cfg, &err);
    CHECK(e && s, "new: %s", err.msg);
    if (!e || !s)
        return 1;
    feed(edan_edag_consumer(e), recs, n);
    feed(edan_scopes_consumer(s), recs, n);
    CHECK(edan_edag_finish(e) == 0, "edag finish");
    CHECK(edan_scopes_consumer(s).finish(s) == 0, "scopes finish: %s", edan_scopes_error(s)->msg);
    int bad = 0;
    for (int k = 0; k < cfg->n_lanes; k++) {
        const edan_lane_stats *want = edan_edag_lane(e, k);
        const edan_scope_stats *got = edan_scopes_get(s, k);
        if (got->vertices != want->vertices || got->W != want->W || got->D != want->D || got->C != want->C) {
            bad = 1;
            CHECK(false,
                  "trial %d scope %d (%s): vertices %" PRIu64 "/%" PRIu64 " W %" PRIu64 "/%" PRIu64 " D %" PRIu64
                  "/%" PRIu64 " C %" PRIu64 "/%" PRIu64,
                  trial, k, cfg->lane[k].scope == EDAN_SCOPE_EXCLUSIVE ? "exclusive" : "inclusive", got->vertices,
                  want->vertices, got->W, want->W, got->D, want->D, got->C, want->C);
        } else {
            CHECK(true, "%s", "");
        }
    }
    edan_edag_free(e);
    edan_scopes_free(s);
    return bad;
}

/*
 * The first half of the trace runs ids 0..11 alone (the program), the second all 24 (a library mapped at
 * 0x10030): ranges within the library's pcs added at the half equal the same ranges from the start.
 */
static int added_later(int trial)
{
    static edan_insn table[24];
    static edan_exec recs[600];
    const size_t n = 2 + rt_below(599), half = n / 2;
    rt_random_records(table, recs, 1);
    for (int i = 0; i < 24; i++) {
        table[i].pc = 0x10000 + 4 * (uint64_t)i;
        const uint64_t f = rt_below(8);
        table[i].flow = f == 0 ? EDAN_FLOW_CALL : f == 1 ? EDAN_FLOW_RETURN : EDAN_FLOW_NONE;
    }
    for (size_t i = 0; i < n; i++) {
        const uint32_t id = (uint32_t)rt_below(i < half ? 12 : 24);
        recs[i] = (edan_exec){.insn = &table[id], .id = id};
        if (table[id].mem != EDAN_MEM_NONE)
            recs[i].addr = 0x1000 + rt_below(40);
    }
    edan_edag_config from_start, later;
    random_scopes(&from_start, 1 + (int)rt_below(8));
    from_start.threads = 1; /* lanes in groups take no ranges later */
    later = from_start;
    uint64_t lo[EDAN_MAX_SCOPES] = {0}, hi[EDAN_MAX_SCOPES] = {0};
    for (int k = 0; k < from_start.n_lanes; k++) {
        if (rt_below(3) == 0)
            continue;
        lo[k] = 0x10030 + 4 * rt_below(12);
        hi[k] = lo[k] + 4 * (1 + rt_below((0x10060 - lo[k]) / 4));
        edan_lane_add_range(&from_start.lane[k], lo[k], hi[k]);
    }
    edan_error err = {0};
    edan_edag *e[2] = {edan_edag_new(&from_start, &err), edan_edag_new(&later, &err)};
    edan_scopes *sc[2] = {edan_scopes_new(&from_start, &err), edan_scopes_new(&later, &err)};
    CHECK(e[0] && e[1] && sc[0] && sc[1], "new: %s", err.msg);
    int bad = 0;
    for (int v = 0; v < 2 && e[0] && e[1] && sc[0] && sc[1]; v++) {
        feed(edan_edag_consumer(e[v]), recs, half);
        feed(edan_scopes_consumer(sc[v]), recs, half);
        for (int k = 0; v == 1 && k < later.n_lanes; k++)
            CHECK(!hi[k] || (edan_edag_add_range(e[1], k, lo[k], hi[k]) == 0 &&
                             edan_scopes_add_range(sc[1], k, lo[k], hi[k]) == 0),
                  "trial %d: add a range to lane %d", trial, k);
        feed(edan_edag_consumer(e[v]), recs + half, n - half);
        feed(edan_scopes_consumer(sc[v]), recs + half, n - half);
        CHECK(edan_edag_finish(e[v]) == 0 && edan_scopes_consumer(sc[v]).finish(sc[v]) == 0, "finish");
    }
    for (int k = 0; k < later.n_lanes && !bad && e[0] && e[1] && sc[0] && sc[1]; k++) {
        const edan_lane_stats *a = edan_edag_lane(e[0], k), *b = edan_edag_lane(e[1], k);
        const edan_scope_stats *c = edan_scopes_get(sc[0], k), *d = edan_scopes_get(sc[1], k);
        bad = a->vertices != b->vertices || a->W != b->W || a->D != b->D || a->C != b->C ||
              c->vertices != d->vertices || c->W != d->W || c->D != d->D || c->C != d->C || c->D != a->D;
        CHECK(!bad,
              "trial %d lane %d: from the start / later: analyzer W %" PRIu64 "/%" PRIu64 " D %" PRIu64 "/%" PRIu64
              ", fast path W %" PRIu64 "/%" PRIu64 " D %" PRIu64 "/%" PRIu64,
              trial, k, a->W, b->W, a->D, b->D, c->W, d->W, c->D, d->D);
    }
    for (int v = 0; v < 2; v++) {
        edan_edag_free(e[v]);
        edan_scopes_free(sc[v]);
    }
    return bad;
}

int main(int argc, char **argv)
{
    const int trials = argc > 1 ? atoi(argv[1]) : 1000;
    static edan_insn table[24];
    static edan_exec recs[4000];
    int failed = 0;
    for (int trial = 0; trial < trials && failed < 5; trial++) {
        rt_seed(0x5c09e5 + (uint64_t)trial);
        const size_t n = 1 + rt_below(trial % 10 ? 300 : 4000);
        rt_random_records(table, recs, n);
        /* pcs to scope, and calls and returns so that inclusive scopes open and close */
        for (int i = 0; i < 24; i++) {
            table[i].pc = 0x10000 + 4 * (uint64_t)i;
            const uint64_t f = rt_below(8);
            table[i].flow = f == 0 ? EDAN_FLOW_CALL : f == 1 ? EDAN_FLOW_RETURN : EDAN_FLOW_NONE;
        }
        edan_edag_config cfg;
        random_scopes(&cfg, 1 + (int)rt_below(trial % 3 ? 8 : EDAN_MAX_SCOPES));
        failed += compare(&cfg, recs, n, trial);
    }
    for (int trial = 0; trial < trials / 4 && failed < 5; trial++) {
        rt_seed(0xadd + (uint64_t)trial);
        failed += added_later(trial);
    }
    /* many distinct depth vectors over a few pages: the arena fills and is compacted many times */
    {
        rt_seed(7);
        static edan_insn chain[2];
        memset(chain, 0, sizeof chain);
        /* depth moves through memory alone: load x7 <- [a]; store [b] <- x7 */
        chain[0] = (edan_insn){
            .pc = 0x10000, .mem = EDAN_MEM_LOAD, .cls = EDAN_CLASS_LOAD, .mem_size = 8, .n_dst = 1, .dst = 7};
        chain[1] = (edan_insn){
            .pc = 0x10004, .mem = EDAN_MEM_STORE, .cls = EDAN_CLASS_STORE, .mem_size = 8, .n_src = 1, .src = {7}};
        enum { N = 200000 };
        edan_exec *big = calloc(N, sizeof *big);
        for (size_t i = 0; i < N; i++) {
            big[i].id = (uint32_t)(i & 1);
            big[i].insn = &chain[i & 1];
            /* loads anywhere in three pages, stores to the first 3 KiB of each: bytes never written are read */
            big[i].addr = 0x200000 + 4096 * rt_below(3) + 8 * rt_below(i & 1 ? 384 : 512);
        }
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        cfg.n_lanes = 3;
        cfg.n_tau = 0;
        for (int k = 0; k < 3; k++) {
            edan_cost_default(&cfg.lane[k].cost);
            cfg.lane[k].scope = k == 1 ? EDAN_SCOPE_INCLUSIVE : EDAN_SCOPE_EXCLUSIVE;
            cfg.lane[k].n_ranges = 1;
            cfg.lane[k].range_lo[0] = k == 2 ? 0x10004 : 0x10000;
            cfg.lane[k].range_hi[0] = 0x10008;
        }
        failed += compare(&cfg, big, N, -1);
        /*
         * The same with loads and stores of 1, 2, 4 and 8 bytes at any aligned address: words whose bytes
         * have different writers (split), made whole again, and compacted while split.
         */
        static edan_insn sized[8];
        for (int k = 0; k < 8; k++) {
            const uint8_t size = (uint8_t)(1u << (k >> 1));
            sized[k] = k & 1 ? chain[1] : chain[0];
            sized[k].mem_size = size;
            sized[k].pc = 0x10000 + 4 * (uint64_t)(k & 1);
        }
        for (size_t i = 0; i < N; i++) {
            const int k = (int)(2 * rt_below(4) + (i & 1));
            big[i].id = (uint32_t)k; /* one id per static instruction (trace/exec.h) */
            big[i].insn = &sized[k];
            big[i].addr = 0x200000 + 4096 * rt_below(3) +
                          sized[k].mem_size * rt_below(i & 1 ? 3072u / sized[k].mem_size : 4096u / sized[k].mem_size);
        }
        failed += compare(&cfg, big, N, -3);
        /*
         * Bytes never written keep depth 0 across compactions: a chain of 5000 through one word (the arena
         * fills and is compacted on the way), then a fresh chain of 2001 that starts by reading a byte of
         * the same page never written. D is 5000; 7000 and more if that byte took another vector's depth.
         */
        size_t m = 0;
        for (int i = 0; i < 5000; i++) {
            big[m++] = (edan_exec){.insn = &chain[0], .addr = 0x300000, .id = 0};
            big[m++] = (edan_exec){.insn = &chain[1], .addr = 0x300000, .id = 1};
        }
        big[m++] = (edan_exec){.insn = &chain[0], .addr = 0x300100, .id = 0};
        big[m++] = (edan_exec){.insn = &chain[1], .addr = 0x300200, .id = 1};
        for (int i = 0; i < 2000; i++) {
            big[m++] = (edan_exec){.insn = &chain[0], .addr = 0x300200, .id = 0};
            big[m++] = (edan_exec){.insn = &chain[1], .addr = 0x300200, .id = 1};
        }
        failed += compare(&cfg, big, m, -2);
        edan_scopes *s = edan_scopes_new(&cfg, &(edan_error){0});
        edan_scopes_consumer(s).consume(s, big, m);
        CHECK(edan_scopes_consumer(s).finish(s) == 0, "finish");
        CHECK_EQ_U64(edan_scopes_get(s, 2)->D, 5000, "the stores of a chain through one word beside a fresh one");
        edan_scopes_free(s);
        free(big);
    }
    /*
     * A vector stored again after a compaction must not reuse the index it had before it. Each step of the
     * chain through Z (a load, then a store: 2 memory vertices) appends a new vector; at steps 4086..4093
     * x6..x13 take x5 (depth 2i - 1), and Z gets [2i]; the arena (4096 vectors) is compacted at step 4096
     * and those vectors die; at steps 4097..4104 x6..x13 are stored to S0..S7: each vector again, which
     * must be appended anew (its old index, remembered by its hash, holds another vector from step
     * 4096 + 4086 on). Then a chain of 6000 steps from each S: D = 2 * 4093 + 1 + 12000.
     */
    {
        enum { CAPS = 8, Z = 0x400000, S = 0x400100, T = 0x400200 };
        static edan_insn in[3 + 2 * CAPS];
        memset(in, 0, sizeof in);
        in[0] = (edan_insn){
            .pc = 0x10000, .mem = EDAN_MEM_LOAD, .cls = EDAN_CLASS_LOAD, .mem_size = 8, .n_dst = 1, .dst = 5};
        in[1] = (edan_insn){
            .pc = 0x10004, .mem = EDAN_MEM_STORE, .cls = EDAN_CLASS_STORE, .mem_size = 8, .n_src = 1, .src = {5}};
        in[2] = in[0];
        in[2].pc = 0x10008;
        for (int k = 0; k < CAPS; k++) {
            in[3 + k] = (edan_insn){
                .pc = 0x1000c, .cls = EDAN_CLASS_INT, .n_src = 1, .src = {5}, .n_dst = 1, .dst = (uint8_t)(6 + k)};
            in[3 + CAPS + k] = (edan_insn){.pc = 0x10010,
                                           .mem = EDAN_MEM_STORE,
                                           .cls = EDAN_CLASS_STORE,
                                           .mem_size = 8,
                                           .n_src = 1,
                                           .src = {(uint8_t)(6 + k)}};
        }
        size_t m = 0;
        edan_exec *recs = calloc(130000, sizeof *recs);
#define REC(k, a) (recs[m++] = (edan_exec){.insn = &in[k], .addr = (a), .id = (k)})
        for (int i = 1; i <= 8400; i++) {
            REC(0, Z);
            REC(1, Z);
            if (i >= 4086 && i < 4086 + CAPS)
                REC(3 + i - 4086, 0);
            if (i >= 4097 && i < 4097 + CAPS)
                REC(3 + CAPS + i - 4097, S + 8 * (uint64_t)(i - 4097));
        }
        for (int k = 0; k < CAPS; k++) {
            REC(2, S + 8 * (uint64_t)k);
            for (int i = 0; i < 6000; i++) {
                REC(1, T);
                REC(0, T);
            }
        }
#undef REC
        edan_edag_config one;
        edan_edag_config_default(&one);
        one.n_lanes = 1;
        one.n_tau = 0;
        edan_cost_default(&one.lane[0].cost);
        one.lane[0].scope = EDAN_SCOPE_EXCLUSIVE;
        one.lane[0].n_ranges = 1;
        one.lane[0].range_lo[0] = 0x10000;
        one.lane[0].range_hi[0] = 0x10014;
        failed += compare(&one, recs, m, -4);
        edan_scopes *sc = edan_scopes_new(&one, &(edan_error){0});
        edan_scopes_consumer(sc).consume(sc, recs, m);
        CHECK(edan_scopes_consumer(sc).finish(sc) == 0, "finish");
        CHECK_EQ_U64(edan_scopes_get(sc, 0)->D, 2 * 4093 + 1 + 12000, "vectors stored again after a compaction");
        edan_scopes_free(sc);
        free(recs);
    }
    edan_edag_config cfg;
    random_scopes(&cfg, 2);
    cfg.false_deps = true;
    CHECK(!edan_scopes_supported(&cfg), "false dependencies are the analyzer's");
    cfg.false_deps = false;
    cfg.lane[1].cost.alpha++;
    CHECK(!edan_scopes_supported(&cfg), "one cost model for all scopes");
    cfg.lane[1].cost = cfg.lane[0].cost;
    cfg.lane[1].scope = EDAN_SCOPE_ALL;
    CHECK(!edan_scopes_supported(&cfg), "every lane scoped");
    return check_summary();
}
