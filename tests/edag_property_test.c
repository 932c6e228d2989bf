/*
 * Streaming equals explicit: random traces (random registers, addresses with
 * overlaps and partial overlaps and page crossings, sizes 1-8, loads, stores,
 * atomics, failed store-conditionals, zero costs) analysed by the streaming
 * analyzer, several lanes in one pass and in random batch sizes, must give
 * exactly what the naive explicit-graph reference computes.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/deps/deps.h"
#include "analysis/shadow/shadow.h"
#include "check.h"
#include "edag_reference.h"
#include "random_trace.h"

static uint64_t expect_loads, expect_stores, expect_amos;

/* The loads, stores and atomics of recs that access memory: what every lane must count. */
static void expect_counts(const edan_exec *recs, size_t n)
{
    expect_loads = expect_stores = expect_amos = 0;
    for (size_t i = 0; i < n; i++) {
        if (recs[i].flags & EDAN_EXEC_NO_ACCESS)
            continue;
        expect_loads += recs[i].insn->mem == EDAN_MEM_LOAD;
        expect_stores += recs[i].insn->mem == EDAN_MEM_STORE;
        expect_amos += recs[i].insn->mem == EDAN_MEM_AMO;
    }
}

static int compare(const edan_lane_stats *st, const ref_result *ref, int trial, int lane)
{
    char ctx[64];
    snprintf(ctx, sizeof ctx, "trial %d lane %d", trial, lane);
    unsigned long before = check_failed;
    CHECK_EQ_U64(st->vertices, ref->vertices, ctx);
    CHECK_EQ_U64(st->T1, ref->T1, ctx);
    CHECK_EQ_U64(st->Tinf, ref->Tinf, ctx);
    CHECK_EQ_U64(st->W, ref->W, ctx);
    CHECK_EQ_U64(st->D, ref->D, ctx);
    CHECK_EQ_U64(st->C, ref->C, ctx);
    CHECK_EQ_U64(st->bytes, ref->bytes, ctx);
    CHECK_EQ_U64(st->loads, expect_loads, ctx);
    CHECK_EQ_U64(st->stores, expect_stores, ctx);
    CHECK_EQ_U64(st->amos, expect_amos, ctx);
    CHECK_EQ_U64(st->ram_loads, ref->ram_loads, ctx);
    CHECK_EQ_U64(st->ram_stores, ref->ram_stores, ctx);
    CHECK_EQ_U64(st->ram_read_bytes + st->ram_write_bytes, ref->ram_bytes, ctx);
    for (int l = 0; l < EDAN_CACHE_MAX_LEVELS; l++) {
        CHECK_EQ_U64(st->cache_hits[l], ref->hits[l], ctx);
        CHECK_EQ_U64(st->cache_misses[l], ref->misses[l], ctx);
    }
    bool layers_ok = true;
    for (uint64_t i = 1; i <= ref->D && i <= st->D; i++)
        layers_ok &= edan_layers_get(&st->layers, i) == ref->layer[i];
    CHECK(layers_ok, "%s: layers differ", ctx);
    const edan_series *s = &st->series[0];
    CHECK_EQ_U64(s->n, ref->n_phases, ctx);
    bool u_ok = s->n == ref->n_phases, st_ok = u_ok;
    for (size_t i = 0; u_ok && i < s->n; i++) {
        u_ok &= s->U[i] == ref->U[i];
        st_ok &= s->started[i] == ref->started[i];
    }
    CHECK(u_ok, "%s: U series differs", ctx);
    CHECK(st_ok, "%s: started series differs", ctx);
    return check_failed == before ? 0 : -1;
}

/* The footprint's definition: the distinct shadow pages that accesses touched, read or written. */
static uint64_t touched_pages(const edan_exec *recs, size_t n)
{
    static uint64_t page[2 * 256];
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        const edan_insn *in = recs[i].insn;
        if (in->mem == EDAN_MEM_NONE || (recs[i].flags & EDAN_EXEC_NO_ACCESS))
            continue;
        for (uint64_t p = recs[i].addr >> EDAN_SHADOW_PAGE_BITS;
             p <= (recs[i].addr + in->mem_size - 1) >> EDAN_SHADOW_PAGE_BITS; p++) {
            size_t j = 0;
            while (j < np && page[j] != p)
                j++;
            if (j == np && np < sizeof page / sizeof page[0])
                page[np++] = p;
        }
    }
    return np;
}

/*
 * Consume recs in batches of random sizes (1 to 17). With into_consumer the
 * producer writes each batch where the analyzer's consumer asks
 * (edan_consumer.buffer: a sweep on threads offers its second group's feed)
 * and no more than it has room for there, as the trace readers' drivers do.
 */
static void feed(edan_edag *e, const edan_exec *recs, size_t n, bool into_consumer)
{
    const edan_consumer k = edan_edag_consumer(e);
    for (size_t i = 0; i < n;) {
        size_t b = 1 + rt_below(17);
        if (b > n - i)
            b = n - i;
        const edan_exec *batch = recs + i;
        edan_exec *to = into_consumer ? edan_consumer_buffer(&k, NULL, &b) : NULL;
        if (to) {
            memcpy(to, recs + i, b * sizeof *recs);
            batch = to;
        }
        edan_edag_consume(e, batch, b);
        i += b;
    }
}

/*
 * A long trace (several of the sweep's feed buffers) through lanes on two
 * threads, written where the consumer asks, against the same lanes on one.
 */
static void long_trace_on_threads(void)
{
    enum { N = 70000 };
    static edan_exec recs[N];
    static edan_insn table[24];
    rt_random_records(table, recs, N);
    edan_edag_config cfg;
    edan_edag_config_default(&cfg);
    cfg.n_lanes = 4;
    for (int k = 0; k < cfg.n_lanes; k++)
        rt_random_lane(&cfg.lane[k]);
    /* two distinct caches at least: two groups */
    cfg.lane[0].cache.n_levels = 0;
    cfg.lane[1].cache.n_levels = 1;
    cfg.lane[1].cache.level[0] = edan_cache_level_default(1024);
    edan_edag *e[2];
    for (int t = 0; t < 2; t++) {
        cfg.threads = 1 + t;
        edan_error err = {0};
        e[t] = edan_edag_new(&cfg, &err);
        CHECK(e[t] != NULL, "edan_edag_new: %s", err.msg);
        if (!e[t])
            return;
        feed(e[t], recs, N, true);
        CHECK(edan_edag_finish(e[t]) == 0, "finish: %s", edan_edag_error(e[t])->msg);
    }
    for (int k = 0; k < 4; k++) {
        const edan_lane_stats *a = edan_edag_lane(e[0], k), *b = edan_edag_lane(e[1], k);
        CHECK(a->vertices == N && b->vertices == N, "lane %d: %" PRIu64 " and %" PRIu64 " vertices of %d", k,
              a->vertices, b->vertices, N);
        CHECK(a->T1 == b->T1 && a->Tinf == b->Tinf && a->W == b->W && a->D == b->D && a->C == b->C &&
                  a->bytes == b->bytes && a->ram_loads == b->ram_loads && a->ram_stores == b->ram_stores,
              "lane %d: one thread and two differ (T1 %" PRIu64 "/%" PRIu64 ", Tinf %" PRIu64 "/%" PRIu64 ")", k, a->T1,
              b->T1, a->Tinf, b->Tinf);
    }
    edan_edag_free(e[0]);
    edan_edag_free(e[1]);
}

/*
 * One lane's short paths (loads and stores of 4 and 8 bytes at multiples of
 * 4) through two small write-back, write-allocate levels against the naive
 * reference, in both bytes modes (the levels' lines of two sizes, as the
 * reference has them): a first-level miss that the second level
 * serves evicts dirty lines down to RAM, an access that reads no RAM but
 * moves bytes (the short paths take the MRU hit's accounting only for an
 * access that moved none). Returns how many such accesses the traces had.
 */
static uint64_t short_paths_two_levels(int trials)
{
    static ref_result ref;
    uint64_t moved_without_ram = 0;
    for (int trial = 0; trial < trials; trial++) {
        edan_insn table[24];
        const size_t n = 100 + rt_below(200);
        edan_exec *recs = calloc(n, sizeof *recs);
        rt_random_records(table, recs, n);
        for (int i = 0; i < 24; i++)
            table[i].mem_size = rt_below(2) ? 4 : 8;
        for (size_t i = 0; i < n; i++)
            if (recs[i].addr)
                recs[i].addr = 0x3000 + 4 * rt_below(64); /* 256 bytes: 16 and 8 lines over 4 and 4 */
        expect_counts(recs, n);
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        rt_random_lane(&cfg.lane[0]);
        cfg.lane[0].cache.n_levels = 2;
        cfg.lane[0].cache.level[0] = (edan_cache_level_config){64, 16, 1u << rt_below(3), true, true};
        cfg.lane[0].cache.level[1] = (edan_cache_level_config){128, 32, 2, true, true};
        cfg.bytes_mode = trial % 2 ? EDAN_BYTES_LINE : EDAN_BYTES_ACCESS;
        cfg.n_tau = 1;
        cfg.tau[0] = 1 + rt_below(5);
        edan_error err = {0};
        edan_edag *e = edan_edag_new(&cfg, &err);
        CHECK(e != NULL, "edan_edag_new: %s", err.msg);
        if (!e) {
            free(recs);
            return moved_without_ram;
        }
        feed(e, recs, n, false);
        CHECK(edan_edag_finish(e) == 0, "finish: %s", edan_edag_error(e)->msg);
        CHECK(ref_analyze(recs, n, &cfg.lane[0], false, cfg.bytes_mode, cfg.tau[0], &ref) == 0, "reference");
        compare(edan_edag_lane(e, 0), &ref, 10000 + trial, 0);
        ref_free(&ref);
        edan_edag_free(e);
        /* the same trace through the cache alone: accesses that read no RAM and moved bytes */
        edan_cache cache, *c = &cache;
        CHECK(edan_cache_init(c, &cfg.lane[0].cache, &err) == 0, "cache: %s", err.msg);
        for (size_t i = 0; i < n; i++) {
            if (recs[i].insn->mem == EDAN_MEM_NONE || (recs[i].flags & EDAN_EXEC_NO_ACCESS))
                continue;
            const edan_access_class a =
                edan_cache_classify(c, true, recs[i].addr, recs[i].insn->mem_size, recs[i].insn->mem & EDAN_MEM_LOAD,
                                    recs[i].insn->mem & EDAN_MEM_STORE);
            moved_without_ram += !a.rd_ram && !a.wr_ram && a.line_bytes;
        }
        edan_cache_free(c);
        free(recs);
    }
    return moved_without_ram;
}

/*
 * The dependency tracker (deps.h) against the naive reference vertex by
 * vertex and against the streaming analyzer in total, in the four
 * combinations of false dependencies and cache (trial & 3). A third of the
 * trials delay vertices (commit at ready + a random delay, as a timing model
 * would): ready must then be the latest delayed finish over the reference's
 * predecessors. Returns the number of trials per combination in combos.
 */
static void deps_against_reference(int trials, int combos[4])
{
    enum { MAXN = 160 };
    static ref_result ref;
    static uint64_t Fd[MAXN];
    int failed = 0;
    for (int trial = 0; trial < trials && failed < 5; trial++) {
        unsigned long before = check_failed;
        char ctx[64];
        snprintf(ctx, sizeof ctx, "deps trial %d", trial);
        const bool fd = trial & 1, cache = trial & 2, delayed = trial % 3 == 2, all_preds = rt_below(2);
        combos[trial & 3]++;
        edan_insn table[24];
        edan_exec recs[MAXN];
        size_t n = 1 + rt_below(MAXN);
        rt_random_records(table, recs, n);
        /* a fifth of the trials has only aligned 4- and 8-byte accesses: units that are never split */
        if (trial % 5 == 1) {
            for (int i = 0; i < 24; i++)
                table[i].mem_size = table[i].mem_size ? (rt_below(2) ? 4 : 8) : 0;
            for (size_t i = 0; i < n; i++)
                recs[i].addr &= ~(uint64_t)3;
        }
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        cfg.false_deps = fd;
        do
            rt_random_lane(&cfg.lane[0]);
        while (cache != (cfg.lane[0].cache.n_levels > 0));
        edan_error err = {0};
        edan_deps *t = edan_deps_new(&cfg.lane[0], fd, all_preds ? EDAN_DEPS_ALL_PREDS : 0, &err);
        edan_edag *e = edan_edag_new(&cfg, &err);
        CHECK(t && e, "%s: new: %s", ctx, err.msg);
        CHECK(ref_analyze(recs, n, &cfg.lane[0], fd, EDAN_BYTES_ACCESS, 1, &ref) == 0, "%s: reference", ctx);
        if (!t || !e || !ref.edge)
            return;
        edan_edag_consume(e, recs, n);
        CHECK(edan_edag_finish(e) == 0, "%s: finish", ctx);
        bool ok = true;
        for (size_t v = 0; v < n && ok; v++) {
            edan_deps_info info;
            const uint64_t ready = edan_deps_ready(t, &recs[v], &info);
            /* the reference's predecessors: the latest (delayed) finish, the deepest, the earliest of each */
            uint64_t want = 0, crit = 0, deep = 0, n_preds = 0;
            bool preds_ok = true;
            for (size_t u = 0; u < v; u++) {
                const uint8_t edge = ref.edge[u * n + v];
                if (!edge)
                    continue;
                if (!crit || Fd[u] > want) {
                    want = Fd[u];
                    crit = u + 1;
                }
                if (!deep || ref.md[u] > ref.md[deep - 1])
                    deep = u + 1;
                if (all_preds)
                    preds_ok &= n_preds < info.n_preds && info.preds[n_preds].v == u &&
                                info.preds[n_preds].false_dep == (edge == 2);
                n_preds++;
            }
            ok &= ready == want && info.ready == want && info.v == v && info.crit == crit && info.deep == deep;
            ok &= info.md == ref.md[v] && info.mem == ref.is_mem[v];
            ok &= info.cost == (ref.is_mem[v] ? cfg.lane[0].cost.alpha : cfg.lane[0].cost.cls[recs[v].insn->cls]);
            ok &= !all_preds || (preds_ok && info.n_preds == n_preds);
            /* undelayed, the times are the reference's */
            ok &= delayed || (ready == ref.S[v] && ready + info.cost == ref.F[v]);
            const uint64_t start = ready + (delayed ? rt_below(5) : 0);
            Fd[v] = start + info.cost;
            ok &= edan_deps_commit(t, start, info.cost) == 0;
            CHECK(ok,
                  "%s: vertex %zu: ready %" PRIu64 " (want %" PRIu64 "), crit %" PRIu64 " (%" PRIu64 "), deep %" PRIu64
                  " (%" PRIu64 "), md %" PRIu64 " (%" PRIu64 ")",
                  ctx, v, ready, want, info.crit, crit, info.deep, deep, info.md, ref.md[v]);
        }
        const edan_deps_totals *tot = edan_deps_totals_get(t);
        const edan_lane_stats *st = edan_edag_lane(e, 0);
        CHECK_EQ_U64(tot->vertices, st->vertices, ctx);
        CHECK_EQ_U64(tot->T1, st->T1, ctx);
        CHECK_EQ_U64(tot->W, st->W, ctx);
        CHECK_EQ_U64(tot->D, st->D, ctx);
        if (!delayed)
            CHECK_EQ_U64(tot->Tinf, st->Tinf, ctx);
        CHECK(tot->D == 0 || (ref.is_mem[tot->depth_v] && ref.md[tot->depth_v] == tot->D), "%s: depth_v", ctx);
        /* a second ready() without a commit is refused, and so is a start before ready */
        edan_deps_info info;
        if (!delayed && edan_deps_ready(t, &recs[0], &info) != EDAN_DEPS_FAILED)
            CHECK(edan_deps_ready(t, &recs[0], &info) == EDAN_DEPS_FAILED && edan_deps_error(t)->set, "%s: ready twice",
                  ctx);
        ref_free(&ref);
        edan_deps_free(t);
        edan_edag_free(e);
        if (check_failed != before)
            failed++;
    }
}

/* Makes table[i] an access of kind mem (EDAN_MEM_NONE: none) and size bytes, its registers kept. */
static void set_access(edan_insn *in, edan_mem_kind mem, uint8_t size)
{
    in->mem = mem;
    in->mem_size = mem == EDAN_MEM_NONE ? 0 : size;
    in->cls = mem == EDAN_MEM_LOAD    ? EDAN_CLASS_LOAD
              : mem == EDAN_MEM_STORE ? EDAN_CLASS_STORE
              : mem == EDAN_MEM_AMO   ? EDAN_CLASS_ATOMIC
                                      : (uint8_t)rt_below(EDAN_CLASS_LOAD);
    if (mem == EDAN_MEM_STORE) {
        in->n_dst = 0;
    } else if (!in->n_dst) {
        in->n_dst = 1;
        in->dst = 8;
    }
}

/*
 * A one-lane trace over 8-byte words, for the narrow shadow's layouts
 * (shadow.h). Its first part (first of n records) has only whole-word
 * accesses: stores sweeping through one page (more than
 * EDAN_SHADOW_SPARSE_MAX words: a sparse page of words made a full page of
 * words), stores of one word each to up to 40 other pages (inline pages)
 * and now and then another word of one of them (made sparse), loads of
 * words stored. The rest has accesses of 8, 4, 2 and 1 bytes into those
 * words, the first few stores among them whole words still (a word's
 * units and bytes written separately, 8-byte stores over
 * them: pages of words made pages of units, sparse words split into units
 * and joined again), unaligned ones now and then, and accesses across the
 * end of a page.
 */
static void word_records(edan_insn table[24], edan_exec *recs, size_t n, size_t first)
{
    static const struct {
        edan_mem_kind mem;
        uint8_t size;
    } kinds[24] = {{EDAN_MEM_STORE, 8}, {EDAN_MEM_STORE, 8}, {EDAN_MEM_STORE, 8}, {EDAN_MEM_STORE, 8},
                   {EDAN_MEM_STORE, 8}, {EDAN_MEM_LOAD, 8},  {EDAN_MEM_LOAD, 8},  {EDAN_MEM_LOAD, 8},
                   {EDAN_MEM_AMO, 8},   {EDAN_MEM_NONE, 0},  {EDAN_MEM_NONE, 0},  {EDAN_MEM_NONE, 0},
                   {EDAN_MEM_STORE, 4}, {EDAN_MEM_STORE, 4}, {EDAN_MEM_STORE, 2}, {EDAN_MEM_STORE, 1},
                   {EDAN_MEM_LOAD, 4},  {EDAN_MEM_LOAD, 2},  {EDAN_MEM_LOAD, 1},  {EDAN_MEM_AMO, 4},
                   {EDAN_MEM_LOAD, 8},  {EDAN_MEM_STORE, 8}, {EDAN_MEM_NONE, 0},  {EDAN_MEM_NONE, 0}};
    const uint64_t base = 0x300000;
    const uint32_t lone = 8 + (uint32_t)rt_below(33); /* pages 1..lone: a word each, mostly */
    uint32_t word[41], swept = 0;
    for (uint32_t k = 0; k <= lone; k++)
        word[k] = (uint32_t)rt_below(EDAN_SHADOW_WORDS);
    for (int i = 0; i < 24; i++) {
        rt_random_insn(&table[i]);
        set_access(&table[i], kinds[i].mem, kinds[i].size);
    }
    for (size_t i = 0; i < n; i++) {
        /* the first part: whole words only (table entries 0 to 11), two thirds of them stores */
        uint32_t id = (uint32_t)(i >= first ? rt_below(24) : rt_below(3) ? rt_below(5) : 5 + rt_below(7));
        /* then a few loads of parts of words before the first store of one: a page of words read as it is */
        if (i >= first && i < first + n / 16 && table[id].mem != EDAN_MEM_LOAD && table[id].mem_size < 8)
            id = table[id].mem_size == 4 ? 16 : table[id].mem_size == 2 ? 17 : 18;
        const edan_insn *in = &table[id];
        memset(&recs[i], 0, sizeof recs[i]);
        recs[i].insn = in;
        recs[i].id = id;
        if (in->mem == EDAN_MEM_NONE)
            continue;
        if (in->mem == EDAN_MEM_STORE && rt_below(20) == 0)
            recs[i].flags = EDAN_EXEC_NO_ACCESS;
        const bool wr = in->mem != EDAN_MEM_LOAD;
        const uint32_t r = (uint32_t)rt_below(16);
        uint64_t page = 0, off;
        if (r < (i < first ? 12u : 8u)) { /* the swept page: a store sweeps on, a load reads a word swept */
            off = 8 * (wr ? swept++ % EDAN_SHADOW_WORDS : (uint32_t)rt_below(swept ? swept : 1));
        } else {
            page = 1 + rt_below(lone);
            off = 8 * (r < 14 ? word[page] : (uint32_t)rt_below(EDAN_SHADOW_WORDS));
        }
        if (i >= first) {
            const uint32_t size = in->mem_size, q = (uint32_t)rt_below(16);
            if (q == 0)
                off = EDAN_SHADOW_PAGE - 1 - rt_below(size < 8 ? size : 7); /* across the page's end */
            else if (q < 3)
                off += rt_below(8); /* unaligned */
            else
                off += size * rt_below(8 / size); /* a part of the word */
        }
        recs[i].addr = base + page * EDAN_SHADOW_PAGE + off;
    }
}

/* Lane 0's numbers for recs under cfg, in *st; false (and a failed check) when the analysis fails. */
static bool lane0_of(const edan_edag_config *cfg, const edan_exec *recs, size_t n, edan_lane_stats *st)
{
    edan_error err = {0};
    edan_edag *e = edan_edag_new(cfg, &err);
    CHECK(e != NULL, "edan_edag_new: %s", err.msg);
    if (!e)
        return false;
    edan_edag_consume(e, recs, n);
    const bool ok = edan_edag_finish(e) == 0;
    CHECK(ok, "finish: %s", edan_edag_error(e)->msg);
    *st = *edan_edag_lane(e, 0);
    edan_edag_free(e);
    return ok;
}

/*
 * For a one-lane trace: inline pages that keep the fewest bits of md for
 * which the analyzer ends them before its memory depth D is half of what
 * it reaches (the same analysis counts it). Without a cache every access
 * reaches RAM: md grows.
 */
static void end_inline_late(edan_edag_config *cfg, const edan_exec *recs, size_t n)
{
    cfg->lane[0].cache.n_levels = 0;
    edan_lane_stats st;
    if (!lane0_of(cfg, recs, n, &st))
        return;
    const uint64_t D = st.D;
    cfg->shadow_inline_md_bits = 1;
    while ((2ull << cfg->shadow_inline_md_bits) - 1 <= D / 2)
        cfg->shadow_inline_md_bits++;
}

/*
 * Costs for a one-lane trace that take F past 2^32 about four fifths along
 * its longest path: every cost c, so F = c * (vertices on the path), which
 * the same analysis with every cost 1 counts. Long phases keep the
 * reference's series small.
 */
static void widen_late(edan_edag_config *cfg, const edan_exec *recs, size_t n)
{
    edan_lane_config *lane = &cfg->lane[0];
    for (int k = 0; k < EDAN_CLASS_COUNT; k++)
        lane->cost.cls[k] = 1;
    lane->cost.alpha = 1;
    edan_lane_stats st;
    if (!lane0_of(cfg, recs, n, &st))
        return;
    const uint64_t c = (5ull << 30) / (st.Tinf + 1) + 1;
    for (int k = 0; k < EDAN_CLASS_COUNT; k++)
        lane->cost.cls[k] = c;
    lane->cost.alpha = c;
    cfg->tau[0] = 1ull << 28;
}

int main(int argc, char **argv)
{
    rt_seed(0x9E3779B97F4A7C15ull);
    int trials = argc > 1 ? atoi(argv[1]) : 1500;
    static ref_result ref;
    int failed_trials = 0, widened = 0, promoted = 0, word_trials = 0;
    edan_shadow made = {0}; /* the layouts of the word trials' shadows: made.made summed */
    for (int trial = 0; trial < trials; trial++) {
        edan_insn table[24];
        /*
         * An eighth of the trials (one-lane ones) is a trace over words
         * (word_records()), for the narrow shadow's layouts; a quarter of
         * those widens the shadow mid-run (costs that take F past 2^32
         * four fifths along the trace's longest path), a quarter makes pages
         * hot after few lookups, a quarter ends inline pages mid-run (they
         * keep only a few bits of md: the analyzer must end them in time).
         */
        const bool words = trial % 8 == 7;
        const int word_variant = trial / 8 % 4;
        /*
         * A sixteenth of the trials (one-lane ones) is long and spreads its
         * accesses over 4 KiB across a page boundary: a narrow shadow's pages
         * start sparse (or inline) and grow, and with more than
         * EDAN_SHADOW_SPARSE_MAX entries become full pages (shadow.h); or
         * over 64 pages, many small sparse pages side by side in their slab.
         */
        const bool spread = trial % 16 == 5;
        size_t n = spread ? 400 + rt_below(800) : words ? 700 + rt_below(500) : 1 + rt_below(160);
        edan_exec *recs = calloc(n, sizeof *recs);
        if (words)
            word_records(table, recs, n, n / 2 + rt_below(n / 4));
        else
            rt_random_records(table, recs, n);
        const bool pages = spread && trial % 32 == 21; /* half of them: 64 pages, a few units in each */
        if (spread) {
            for (size_t i = 0; i < n; i++)
                if (recs[i].addr)
                    recs[i].addr =
                        pages ? 0x40000 + 4096 * rt_below(64) + rt_below(48) : 0x20000 + 1024 + rt_below(4096);
        }
        /*
         * a quarter of the trials (one-lane ones) has only 4-, 8- and 16-byte accesses at multiples of 4: the short
         * paths (16 bytes: x86's SSE, four narrow records); half of those also byte accesses, whose units a
         * load of whole units then finds split into bytes (unit_writer())
         */
        if (trial % 4 == 1) {
            static const uint8_t sizes[] = {4, 8, 16, 1};
            for (int i = 0; i < 24; i++)
                table[i].mem_size = sizes[rt_below(trial % 8 == 5 ? 4 : 3)];
            for (size_t i = 0; i < n; i++)
                recs[i].addr &= ~(uint64_t)3;
        }
        expect_counts(recs, n);
        edan_edag_config cfg;
        edan_edag_config_default(&cfg);
        /* half the trials take the one-lane fast paths */
        cfg.n_lanes = trial % 2 ? 1 : 1 + (int)rt_below(9); /* up to three blocks of the sweep's vectors */
        for (int k = 0; k < cfg.n_lanes; k++) {
            rt_random_lane(&cfg.lane[k]);
            /* lanes with the same cache and another alpha share one cache simulation */
            if (k && rt_below(3) == 0)
                cfg.lane[k].cache = cfg.lane[0].cache;
        }
        /* some lanes count only the vertices of one "function": a range of the table's pcs */
        for (int i = 0; i < 24; i++)
            table[i].pc = 0x10000 + 4 * (uint64_t)i;
        for (int k = 0; k < cfg.n_lanes; k++) {
            if (rt_below(3))
                continue;
            cfg.lane[k].scope = EDAN_SCOPE_EXCLUSIVE;
            cfg.lane[k].n_ranges = 1 + (int)rt_below(2);
            for (int j = 0; j < cfg.lane[k].n_ranges; j++) {
                cfg.lane[k].range_lo[j] = 0x10000 + 4 * rt_below(24);
                cfg.lane[k].range_hi[j] = cfg.lane[k].range_lo[j] + 4 * (1 + rt_below(10));
            }
        }
        cfg.false_deps = !words && rt_below(3) == 0;
        cfg.bytes_mode = rt_below(2) ? EDAN_BYTES_LINE : EDAN_BYTES_ACCESS;
        cfg.n_tau = 1;
        cfg.tau[0] = 1 + rt_below(5);
        /*
         * An eighth of the trials has an alpha so large that F passes 2^32
         * within the trace: a one-lane shadow starts with narrow records and
         * must widen them in time, pages already written included (with the
         * smaller alphas a batch of at most 17 records cannot pass 2^32 from
         * 0, so the first is narrow). Long phases keep the reference's series
         * small.
         */
        const bool huge_alpha = trial % 8 == 3;
        if (huge_alpha) {
            cfg.lane[0].cost.alpha = (1ull << (27 + rt_below(3))) + rt_below(1u << 27);
            if (rt_below(2))
                cfg.lane[0].cache.n_levels = 0; /* without a cache every access costs alpha */
            cfg.tau[0] = 1ull << 28;
        }
        /* lanes split among up to four threads: results must not depend on it */
        cfg.threads = 1 + (int)rt_below(4);
        /* the sweep loop's portable and AVX2 builds (where the CPU has it) */
        cfg.portable = rt_below(2);
        if (words && word_variant == 1)
            widen_late(&cfg, recs, n);
        /* spread trials make sparse pages full after a few lookups too (hot pages), from the middle of the trace */
        if ((spread && rt_below(2)) || (words && word_variant == 2))
            cfg.shadow_sparse_hot = 1 + (uint32_t)rt_below(400);
        if (words && word_variant == 3)
            end_inline_late(&cfg, recs, n);
        edan_error err = {0};
        edan_edag *e = edan_edag_new(&cfg, &err);
        CHECK(e != NULL, "edan_edag_new: %s", err.msg);
        if (!e)
            return check_summary();
        /* random batch boundaries: results must not depend on them */
        feed(e, recs, n, rt_below(2));
        CHECK(edan_edag_finish(e) == 0, "finish: %s", edan_edag_error(e)->msg);
        CHECK_EQ_U64(edan_edag_footprint(e), touched_pages(recs, n) * EDAN_SHADOW_PAGE, "footprint");
        /* a narrow shadow's sparse pages of the spread and word trials get more entries than they hold: made full */
        if (((spread && !pages) || words) && !cfg.false_deps && !cfg.shadow_sparse_hot)
            promoted += edan_edag_shadow(e)->made.words_made + edan_edag_shadow(e)->made.units_made > 0;
        if (words) {
            const edan_shadow *sh = edan_edag_shadow(e);
            uint64_t *to = &made.made.inline_made;
            const uint64_t *from = &sh->made.inline_made;
            for (size_t i = 0; i < sizeof made.made / sizeof *to; i++)
                to[i] += from[i] != 0; /* trials that made such a page */
            word_trials++;
        }
        for (int k = 0; k < cfg.n_lanes; k++) {
            static bool member[1200];
            const edan_lane_config *lc = &cfg.lane[k];
            uint64_t members = 0;
            for (size_t i = 0; i < n; i++) {
                member[i] = lc->scope == EDAN_SCOPE_ALL;
                for (int j = 0; j < lc->n_ranges; j++)
                    member[i] |= recs[i].insn->pc >= lc->range_lo[j] && recs[i].insn->pc < lc->range_hi[j];
                members += member[i];
            }
            ref_member = lc->scope == EDAN_SCOPE_ALL ? NULL : member;
            int rc = ref_analyze(recs, n, &cfg.lane[k], cfg.false_deps, cfg.bytes_mode, cfg.tau[0], &ref);
            ref_member = NULL;
            if (lc->scope != EDAN_SCOPE_ALL)
                ref.vertices = members;
            CHECK(rc == 0, "reference too small");
            if (compare(edan_edag_lane(e, k), &ref, trial, k))
                failed_trials++;
            widened += huge_alpha && cfg.n_lanes == 1 && !cfg.false_deps && k == 0 && ref.Tinf > UINT32_MAX;
            ref_free(&ref);
        }
        edan_edag_free(e);
        free(recs);
        if (failed_trials > 5)
            break;
    }
    long_trace_on_threads();
    const uint64_t moved = short_paths_two_levels(300);
    printf("%" PRIu64 " accesses through two levels moved bytes without reading or writing RAM\n", moved);
    CHECK(moved >= 100, "too few accesses moved bytes without RAM: %" PRIu64, moved);
    printf("%d random traces compared, %d of them one-lane ones whose F passed 2^32 (narrow shadow widened)\n", trials,
           widened);
    CHECK(trials < 200 || widened >= trials / 100, "too few traces widened the narrow shadow: %d", widened);
    printf("%d traces wrote more to one page than a sparse page holds\n", promoted);
    CHECK(trials < 200 || promoted >= trials / 100, "too few traces made a sparse page full: %d", promoted);
    /* every layout of the narrow shadow, and every change of layout, in some of the word trials */
    const edan_shadow_made_counts *m = &made.made;
    printf("%d one-lane traces over words; of them, made an inline page %" PRIu64 ", a sparse one %" PRIu64
           ", made a sparse page full of words %" PRIu64 " and of units %" PRIu64 ", an inline page sparse %" PRIu64
           ", a page of words one of units %" PRIu64 ", ended inline pages %" PRIu64 ", widened inline pages %" PRIu64
           ", sparse ones %" PRIu64 ", pages of words %" PRIu64 " and of units %" PRIu64 "\n",
           word_trials, m->inline_made, m->sparse_made, m->words_made, m->units_made, m->inline_spilled, m->words_split,
           m->inline_ended, m->widened[EDAN_SHADOW_TAG_INLINE], m->widened[EDAN_SHADOW_TAG_SPARSE],
           m->widened[EDAN_SHADOW_TAG_WORDS], m->widened[0]);
    const uint64_t *count = &m->inline_made;
    bool every = true;
    for (size_t i = 0; i < sizeof *m / sizeof *count; i++)
        every &= count[i] * 100 >= (uint64_t)word_trials;
    CHECK(trials < 200 || every, "some layout of the narrow shadow too rare in the word trials");
    int combos[4] = {0, 0, 0, 0};
    deps_against_reference(trials, combos);
    printf("dependency tracker: %d random traces, %d without false dependencies or cache, %d with false "
           "dependencies, %d with a cache, %d with both\n",
           trials, combos[0], combos[1], combos[2], combos[3]);
    return check_summary();
}
