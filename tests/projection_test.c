/*
 * projection_test.c - the projection's arithmetic (analysis/projection/projection.h,
 * analysis/projection/opmix.h):
 *   - ExaSAT's own Table 1 (IJHPCA 2015, SMC dynamics on a 128^3 box):
 *     each row's weighted Gflops, B:F and time recomputed from its
 *     operation counts and traffic with ExaSAT's formulas (runner.py:
 *     wflops = adds + muls + 39 divides + 125 specials; B:F = traffic /
 *     wflops; time = max(wflops / (threads x Gflop/s x 10^9), traffic /
 *     (threads x GB/s x 2^30)); the program's time the sum of its loops'),
 *     on its default machine (1024 threads of 10 Gflop/s and 1 GB/s), to
 *     the precision the table prints;
 *   - the traffic of every fully associative cache size at once
 *     (edan_lru_step, edan_lru_finish over the reuse tracker) against a
 *     naive LRU list per size with dirty bits, block reads, write-backs and
 *     lines dirty at the end charged per owner, and against edan's cache
 *     model configured fully associative, write-back, write-allocate;
 *   - the FP kind of every op against its mnemonic, and libm's names.
 *
 * Usage: projection_test [streams]
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/locality/reuse.h"
#include "analysis/projection/projection.h"
#include "check.h"
#include "isa/riscv_ops.h"
#include "random_trace.h"

/* ===================================================================== */
/* ExaSAT's Table 1                                                       */
/* ===================================================================== */

typedef struct table1_row {
    const char *where;
    double add, mul, div, exp; /* flops per cell */
    double cells; /* the loop's iterations: 128^3 inside the box, 136^3 with 4 ghost cells, 128^2 x 129 faces */
    double traffic_gib, wgflop, bf, ms; /* as printed (2 decimals) */
} table1_row;

static const table1_row table1[] = {
    {"advance 418", 128, 174, 0, 0, 128.0 * 128 * 128, 0.69, 0.63, 1.16, 0.67},
    {"advance 533", 2, 2, 0, 0, 136.0 * 136 * 136, 0.11, 0.01, 12.00, 0.11},
    {"advance 720", 32, 39, 0, 0, 128.0 * 128 * 128, 0.19, 0.15, 1.39, 0.19},
    {"advance 771", 18, 27, 9, 0, 136.0 * 136 * 136, 1.41, 1.00, 1.52, 1.37},
    {"advance 1529", 860, 959, 18, 0, 128.0 * 128 * 129, 1.44, 5.33, 0.29, 1.41},
    {"ctoprim 85", 3, 17, 1, 0, 136.0 * 136 * 136, 1.54, 0.15, 11.12, 1.50},
    {"ctoprim 136", 4, 4, 2, 1, 128.0 * 128 * 128, 0.23, 0.44, 0.57, 0.23},
};

/* Whether [lo, hi] meets the values that print as `printed` with two decimals. */
static bool prints_as(double lo, double hi, double printed)
{
    return hi >= printed - 0.005 - 1e-12 && lo < printed + 0.005;
}

static void exasat_table1(void)
{
    /* ExaSAT's default machine (params.py): 1024 threads, 10 Gflop/s and 1 GB/s (2^30 bytes) each */
    const edan_proj_machine m = {1024 * 10e9, 1024 * 1073741824.0, {39, 39, 125}};
    double total_w = 0, total_bytes = 0, total_ms = 0;
    for (size_t i = 0; i < sizeof table1 / sizeof table1[0]; i++) {
        const table1_row *r = &table1[i];
        edan_opmix x;
        memset(&x, 0, sizeof x);
        x.fp[EDAN_FP_ADD] = (uint64_t)(r->add * r->cells);
        x.fp[EDAN_FP_MUL] = (uint64_t)(r->mul * r->cells);
        x.fp[EDAN_FP_DIV] = (uint64_t)(r->div * r->cells);
        x.transcendentals = (uint64_t)(r->exp * r->cells); /* ExaSAT's "specials" */
        /* the traffic as printed is anywhere in [t - 0.005, t + 0.005] GiB */
        const edan_proj lo = edan_proj_evaluate(&x, (r->traffic_gib - 0.005) * 1073741824.0, &m);
        const edan_proj hi = edan_proj_evaluate(&x, (r->traffic_gib + 0.005) * 1073741824.0, &m);
        CHECK(fabs(lo.weighted_flops / 1e9 - r->wgflop) <= 0.005 + 1e-9, "%s: weighted %.4f Gflop, the table %.2f",
              r->where, lo.weighted_flops / 1e9, r->wgflop);
        CHECK(prints_as(lo.bytes_per_flop, hi.bytes_per_flop, r->bf), "%s: B:F in [%.4f, %.4f], the table %.2f",
              r->where, lo.bytes_per_flop, hi.bytes_per_flop, r->bf);
        CHECK(lo.memory_bound && hi.memory_bound, "%s: memory bound (%.3g s of compute)", r->where, lo.time_compute);
        CHECK(prints_as(lo.time * 1e3, hi.time * 1e3, r->ms), "%s: time in [%.4f, %.4f] ms, the table %.2f", r->where,
              lo.time * 1e3, hi.time * 1e3, r->ms);
        CHECK(lo.flops == (r->add + r->mul + r->div + r->exp) * r->cells, "%s: flops", r->where);
        const edan_proj mid = edan_proj_evaluate(&x, r->traffic_gib * 1073741824.0, &m);
        total_w += mid.weighted_flops;
        total_bytes += mid.dram_bytes;
        total_ms += mid.time * 1e3;
    }
    /* Total/Max: 5.61 GB, 7.71 weighted Gflop, B:F 0.78, 5.48 ms (the sum of the loops' times) */
    CHECK(fabs(total_bytes / 1073741824.0 - 5.61) < 1e-9, "total traffic %.4f", total_bytes / 1073741824.0);
    CHECK(fabs(total_w / 1e9 - 7.71) <= 0.005, "total weighted %.4f Gflop, the table 7.71", total_w / 1e9);
    CHECK(fabs(total_bytes / total_w - 0.78) <= 0.005, "total B:F %.4f, the table 0.78", total_bytes / total_w);
    CHECK(fabs(total_ms - 5.48) <= 0.005, "total time %.4f ms, the table 5.48", total_ms);
    /* compute bound: the CPU time only when strictly larger (ExaSAT's "if cputime > ramtime") */
    const edan_proj c = edan_proj_bound(10, 20, 5, 10, 5);
    CHECK(!c.memory_bound && c.time == 2 && c.time_memory == 1 && c.bytes_per_flop == 0.25, "compute bound: %g",
          c.time);
    const edan_proj tie = edan_proj_bound(10, 20, 10, 10, 5);
    CHECK(tie.memory_bound && tie.time == 2, "a tie is memory bound");
    const edan_proj e = edan_proj_bound(0, 0, 5, 10, 5);
    CHECK(e.memory_bound && e.time == 1 && isnan(e.bytes_per_flop), "no flops: B:F undefined");
}

/* ===================================================================== */
/* Traffic of every fully associative size against naive LRU lists        */
/* ===================================================================== */

#define OWNERS 6
#define KS 8 /* sizes 2^0 .. 2^7 blocks */

typedef struct lru_entry {
    uint64_t block;
    bool dirty;
    int owner;
} lru_entry;

typedef struct naive_cache {
    lru_entry e[1u << (KS - 1)];
    unsigned n, cap;
    uint64_t reads[OWNERS], wb[OWNERS];
} naive_cache;

static void naive_access(naive_cache *c, uint64_t b, bool store, int who)
{
    unsigned i = 0;
    while (i < c->n && c->e[i].block != b)
        i++;
    lru_entry x;
    if (i < c->n) {
        x = c->e[i];
        memmove(c->e + 1, c->e, i * sizeof *c->e);
    } else {
        c->reads[who]++; /* a miss reads the block, for a store too (write-allocate) */
        x = (lru_entry){b, false, 0};
        if (c->n == c->cap) {
            const lru_entry *v = &c->e[c->n - 1];
            if (v->dirty)
                c->wb[v->owner]++;
            c->n--;
        }
        memmove(c->e + 1, c->e, c->n * sizeof *c->e);
        c->n++;
    }
    if (store) {
        x.dirty = true;
        x.owner = who;
    }
    c->e[0] = x;
}

typedef struct lru_ctx {
    edan_lru_traffic *t;
} lru_ctx;

static void final_block(void *ctx, uint64_t b, uint64_t f, uint32_t word)
{
    (void)b;
    lru_ctx *c = ctx;
    unsigned from;
    const edan_lru_wb wb = edan_lru_finish(word, f, &from);
    if (!(word & EDAN_LRU_DIRTY))
        return;
    if (wb.lo < wb.hi)
        edan_lru_charge(&c->t[wb.owner], wb.lo, wb.hi);
    c->t[wb.owner].end_diff[from]++;
    c->t[wb.owner].end_diff[EDAN_LRU_SIZES]--;
}

static void lru_stream(uint64_t seed)
{
    rt_seed(seed);
    const size_t n = 500 + rt_below(6000);
    const uint64_t universe = 2 + rt_below(300);
    naive_cache *nc = calloc(KS, sizeof *nc);
    edan_cache model[KS];
    for (int k = 0; k < KS; k++) {
        nc[k].cap = 1u << k;
        edan_cache_config cfg = {.n_levels = 1};
        cfg.level[0] = (edan_cache_level_config){64ull << k, 64, 1u << k, true, true};
        edan_error err = {0};
        CHECK(!edan_cache_init(&model[k], &cfg, &err), "cache: %s", err.msg);
    }
    edan_reuse *r = edan_reuse_new_window(true, 512);
    edan_lru_traffic t[OWNERS];
    memset(t, 0, sizeof t);
    for (size_t i = 0; i < n; i++) {
        /* hot blocks, a sweep, and random ones; stores from time to time, by one of a few owners */
        const uint64_t b = i % 3 == 0 ? rt_below(8) : i % 3 == 1 ? (i / 3) % universe : rt_below(universe);
        const bool store = rt_below(3) == 0;
        const int who = (int)rt_below(OWNERS);
        uint64_t d = EDAN_REUSE_COLD, prev;
        uint32_t *word;
        edan_reuse_access_user(r, b, &d, &prev, &word);
        t[who].accesses++;
        if (d == EDAN_REUSE_COLD)
            t[who].cold++;
        else
            t[who].reuse[edan_lru_bin(d)]++;
        const edan_lru_wb wb = edan_lru_step(word, d, store, (uint32_t)who);
        if (wb.lo < wb.hi)
            edan_lru_charge(&t[wb.owner], wb.lo, wb.hi);
        for (int k = 0; k < KS; k++) {
            naive_access(&nc[k], b, store, who);
            edan_cache_access(&model[k], b * 64, 8, store);
        }
    }
    lru_ctx ctx = {t};
    edan_reuse_final(r, final_block, &ctx);
    char what[64];
    snprintf(what, sizeof what, "stream %llu", (unsigned long long)seed);
    for (int k = 0; k < KS; k++) {
        uint64_t reads = 0, wbs = 0;
        for (int o = 0; o < OWNERS; o++) {
            uint64_t dirty_end = 0;
            for (unsigned i = 0; i < nc[k].n; i++)
                dirty_end += nc[k].e[i].dirty && nc[k].e[i].owner == o;
            CHECK(edan_lru_reads(&t[o], (unsigned)k) == nc[k].reads[o] &&
                      edan_lru_writebacks(&t[o], (unsigned)k) == nc[k].wb[o] &&
                      edan_lru_dirty_at_end(&t[o], (unsigned)k) == dirty_end,
                  "%s, %u blocks, owner %d: reads %llu, write-backs %llu, dirty at end %llu; naive %llu, %llu, %llu",
                  what, 1u << k, o, (unsigned long long)edan_lru_reads(&t[o], (unsigned)k),
                  (unsigned long long)edan_lru_writebacks(&t[o], (unsigned)k),
                  (unsigned long long)edan_lru_dirty_at_end(&t[o], (unsigned)k), (unsigned long long)nc[k].reads[o],
                  (unsigned long long)nc[k].wb[o], (unsigned long long)dirty_end);
            reads += nc[k].reads[o];
            wbs += nc[k].wb[o];
        }
        /* the model's final flush: the lines the naive list holds dirty */
        uint64_t dirty = 0, flush = 0;
        for (unsigned i = 0; i < nc[k].n; i++)
            dirty += nc[k].e[i].dirty;
        edan_proj_range *ranges;
        size_t n_ranges;
        CHECK(!edan_proj_cache_dirty(&model[k], &ranges, &n_ranges), "dirty ranges");
        for (size_t i = 0; i < n_ranges; i++) {
            flush += ranges[i].hi - ranges[i].lo;
            CHECK(ranges[i].lo % 64 == 0 && (!i || ranges[i].lo > ranges[i - 1].hi), "%s: ranges sorted, disjoint",
                  what);
        }
        free(ranges);
        CHECK(flush == 64 * dirty, "%s, %u blocks: the model's flush %llu bytes, the naive list's dirty lines %llu",
              what, 1u << k, (unsigned long long)flush, (unsigned long long)dirty);
        CHECK(model[k].ram_read_bytes == 64 * reads && model[k].ram_write_bytes == 64 * wbs,
              "%s, %u blocks: the cache model reads %llu and writes %llu bytes, the curve %llu and %llu", what, 1u << k,
              (unsigned long long)model[k].ram_read_bytes, (unsigned long long)model[k].ram_write_bytes,
              (unsigned long long)(64 * reads), (unsigned long long)(64 * wbs));
        edan_cache_free(&model[k]);
    }
    edan_reuse_free(r);
    free(nc);
}

/* The flush of a hierarchy writes a line dirty at two levels once. */
static void hierarchy_flush(void)
{
    edan_cache c;
    edan_cache_config cfg = {.n_levels = 2};
    cfg.level[0] = (edan_cache_level_config){128, 64, 2, true, true}; /* 2 lines */
    cfg.level[1] = (edan_cache_level_config){256, 64, 4, true, true}; /* 4 lines */
    edan_error err = {0};
    CHECK(!edan_cache_init(&c, &cfg, &err), "cache: %s", err.msg);
    edan_cache_access(&c, 0x1000, 8, true);  /* line A dirty in L1 */
    edan_cache_access(&c, 0x2000, 8, false); /* B, C: A leaves L1, written back to L2 (dirty there) */
    edan_cache_access(&c, 0x3000, 8, false);
    edan_cache_access(&c, 0x1008, 8, true);  /* A dirty in L1 again, still dirty in L2 */
    edan_cache_access(&c, 0x4010, 16, true); /* D dirty in L1 */
    edan_proj_range *r;
    size_t n;
    CHECK(!edan_proj_cache_dirty(&c, &r, &n), "dirty ranges");
    CHECK(n == 2 && r[0].lo == 0x1000 && r[0].hi == 0x1040 && r[1].lo == 0x4000 && r[1].hi == 0x4040,
          "the hierarchy's flush: %zu ranges, A and D once each", n);
    CHECK(c.ram_write_bytes == 0, "nothing written to memory before the flush");
    free(r);
    edan_cache_free(&c);
    edan_cache dry;
    cfg.n_levels = 1;
    CHECK(!edan_cache_init(&dry, &cfg, &err), "cache: %s", err.msg);
    edan_cache_access(&dry, 0x1000, 8, false);
    CHECK(!edan_proj_cache_dirty(&dry, &r, &n) && n == 0 && r == NULL, "no store, no flush");
    edan_cache_free(&dry);
}

/* ===================================================================== */
/* Operation kinds and libm                                               */
/* ===================================================================== */

static bool starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

static void kinds(void)
{
    for (int op = 1; op < EDAN_OP_COUNT; op++) {
        edan_insn in;
        edan_insn_clear(&in);
        in.op = (uint16_t)op;
        edan_rv_finish(&in);
        const char *name = edan_rv_op_name((uint16_t)op);
        /* from the mnemonic alone */
        int want = EDAN_FP_NONE;
        if (starts(name, "fadd.") || starts(name, "fsub."))
            want = EDAN_FP_ADD;
        else if (starts(name, "fmul."))
            want = EDAN_FP_MUL;
        else if (starts(name, "fmadd.") || starts(name, "fmsub.") || starts(name, "fnmadd.") || starts(name, "fnmsub."))
            want = EDAN_FP_FMA;
        else if (starts(name, "fdiv."))
            want = EDAN_FP_DIV;
        else if (starts(name, "fsqrt."))
            want = EDAN_FP_SQRT;
        else if (name[0] == 'f' && !starts(name, "fence") && strcmp(name, "flw") && strcmp(name, "fld") &&
                 strcmp(name, "fsw") && strcmp(name, "fsd"))
            want = EDAN_FP_OTHER;
        CHECK(edan_opmix_fp_kind(&in) == want, "%s: kind %d, expected %d", name, edan_opmix_fp_kind(&in), want);
    }
    CHECK(edan_opmix_kind_flops(EDAN_FP_FMA) == 2 && edan_opmix_kind_flops(EDAN_FP_ADD) == 1 &&
              edan_opmix_kind_flops(EDAN_FP_OTHER) == 0 && edan_opmix_kind_flops(EDAN_FP_NONE) == 0,
          "flops per kind");
    static const char *const tr[] = {"exp",  "__exp", "__ieee754_exp", "__exp_finite", "expf",   "logl",  "log1p",
                                     "pow",  "__pow", "sin",           "cosf",         "tanh",   "atan2", "erf",
                                     "erff", "cbrt",  "hypotf",        "sincos",       "lgammal"};
    static const char *const no[] = {"",      "e",    "ex",   "exp1", "__exp1", "kernel",
                                     "sqrtx", "expx", "main", "f",    "l",      "fma"};
    for (size_t i = 0; i < sizeof tr / sizeof tr[0]; i++)
        CHECK(edan_opmix_libm_kind(tr[i]) == EDAN_LIBM_TRANSCENDENTAL, "%s is transcendental", tr[i]);
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        CHECK(edan_opmix_libm_kind(no[i]) == EDAN_LIBM_NONE, "'%s' is not libm's", no[i]);
    CHECK(edan_opmix_libm_kind("sqrt") == EDAN_LIBM_SQRT && edan_opmix_libm_kind("__sqrtf") == EDAN_LIBM_SQRT &&
              edan_opmix_libm_kind(NULL) == EDAN_LIBM_NONE,
          "sqrt");
    /* weights */
    edan_opmix x;
    memset(&x, 0, sizeof x);
    x.fp[EDAN_FP_ADD] = 3, x.fp[EDAN_FP_MUL] = 5, x.fp[EDAN_FP_FMA] = 7, x.fp[EDAN_FP_DIV] = 2;
    x.fp[EDAN_FP_SQRT] = 1, x.sqrt_calls = 1, x.transcendentals = 4, x.fp[EDAN_FP_OTHER] = 100;
    const edan_flop_weights w = {10, 20, 100};
    CHECK(edan_opmix_flops(&x) == 3 + 5 + 14 + 2 + 1 + 1 + 4, "flops %llu", (unsigned long long)edan_opmix_flops(&x));
    CHECK(edan_opmix_weighted_flops(&x, &w) == 3 + 5 + 14 + 20 + 40 + 400, "weighted %g",
          edan_opmix_weighted_flops(&x, &w));
}

int main(int argc, char **argv)
{
    const int streams = argc > 1 ? atoi(argv[1]) : 200;
    exasat_table1();
    kinds();
    hierarchy_flush();
    for (int s = 0; s < streams; s++)
        lru_stream(500 + (uint64_t)s);
    return check_summary();
}
