/*
 * edag_sweep.c - several lanes, true dependencies only, every vertex
 * counted: the sweep over cache and cost configurations, in vectors of
 * LANE_BLOCK lanes where AVX2 runs.
 */
#include <string.h>

#include "analysis/edag/edag_fold.h"

/* edan_edag_consume_lanes() tries its look at the caches' MRU lines (edan_edag.look_on) once in this many batches */
#define LOOK_PROBE 16

/* ---- the look at level 0's most recently used lines -------------------- */

/*
 * The look reads and changes level 0's sets only through cache.h's tag and
 * LRU functions (edan_cache_set() and after), which the model itself uses:
 * what it does to a set is what edan_cache_level_probe() would do.
 */

/* The set at level 0 of lane k's cache that holds addr's line, if any. */
static ALWAYS_INLINE uint64_t *look_set(const mru_look *lk, size_t k, uint64_t addr)
{
    return edan_cache_set(lk->tags[k], lk->set_mask[k], lk->ways[k], addr >> lk->line_shift[k]);
}

/* 1 when the line is the most recently used of its set */
static ALWAYS_INLINE uint32_t look_lane(const mru_look *lk, size_t k, uint64_t addr)
{
    return edan_cache_mru_holds(look_set(lk, k, addr), addr >> lk->line_shift[k]);
}

/* ---- the loop ---------------------------------------------------------- */

/*
 * Several lanes, true dependencies only, every vertex counted: a sweep over
 * cache and cost configurations. The same paths as consume_one_lane(), each
 * step over all lanes at once: with simd in vectors of LANE_BLOCK lanes (the
 * register state, the per-lane sums of the batch and the shadow of whole
 * units, padded to whole blocks), else in plain loops. What is lane by lane:
 * the cache simulations (one per distinct cache) and the rare vertices that
 * reach RAM or move bytes.
 */
static ALWAYS_INLINE void consume_lanes_body(edan_edag *e, const edan_exec *recs, size_t n, const bool simd,
                                             const size_t fixed_stride)
{
    const int K = e->n_lanes;
    const size_t S = fixed_stride ? fixed_stride : e->stride;
    uint64_t *regF = e->regF, *regMd = e->regMd;
    const uint64_t *cost = e->cost_by_class;
    hot_id *ids = e->ids;
    size_t cap = e->id_cap;
    /*
     * Per lane, for this batch: the cost of vertices that stayed in the
     * cache or touched no memory (T1 and C), of those that reached RAM (T1
     * only), and T∞. Then a memory access's per-lane values; entries from K
     * to S are padding and stay 0 where nothing else sets them.
     */
    uint64_t C[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t R[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t Tinf[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t Fin[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t mdin[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t t_of[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0}; /* the access's cost */
    uint64_t ram[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};  /* 1: the access reached RAM */
    uint64_t F[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t md[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t w[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    /* an access's bytes of lines moved, per lane (line mode) */
    uint64_t line_bytes[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    /* the batch's sums and maxima of the lane statistics, added to them at its end */
    uint64_t W[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t D[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t bytes[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t ram_loads[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t ram_stores[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    /* level 0's hits that the look found, and the bytes of the stores it sent through to RAM */
    uint64_t look_hits[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    uint64_t through_bytes[EDAN_MAX_LANES] __attribute__((aligned(32))) = {0};
    const uint64_t *alpha = cost + (size_t)EDAN_CLASS_COUNT * S;
    const bool line_mode = e->cfg.bytes_mode == EDAN_BYTES_LINE;
    static const uint64_t no_lane[EDAN_MAX_LANES] __attribute__((aligned(32)));
    const bool look = e->simulating && (e->look_on || e->batches % LOOK_PROBE == 0);
    uint64_t looks = 0, settled = 0; /* accesses looked at, lanes they settled */
    e->batches++;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        hot_id *h = count_execution(e, r, &ids, &cap);
        if (!h)
            break;
        const hot_op op = seen_op(e, r, h);
        const uint64_t *F0 = regF + op.src[0] * S, *F1 = regF + op.src[1] * S, *F2 = regF + op.src[2] * S;
        const uint64_t *M0 = regMd + op.src[0] * S, *M1 = regMd + op.src[1] * S, *M2 = regMd + op.src[2] * S;
        uint64_t *Fd = regF + op.dst * S, *Md = regMd + op.dst * S;
        const uint64_t *cls_cost = cost + op.cls * S;
        if (op.kind != HOT_PLAIN) {
            if (__builtin_expect(op.kind & (HOT_WIDE | HOT_DST2), 0)) {
                if (!wide_step(e, r, op))
                    return;
                continue;
            }
            if (__builtin_expect(!(r->flags & EDAN_EXEC_NO_ACCESS), 1))
                goto memory_access;
            e->no_access[op.kind & 3]++;
        }
        for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
            const lane_vec f0 = VLOAD(F0 + b), f1 = VLOAD(F1 + b), f2 = VLOAD(F2 + b);
            const lane_vec m0 = VLOAD(M0 + b), m1 = VLOAD(M1 + b), m2 = VLOAD(M2 + b);
            const lane_vec t = VLOAD(cls_cost + b), tinf = VLOAD(Tinf + b);
            const lane_vec f = edan_rule_finish_vec(edan_rule_join3_vec(f0, f1, f2), t);
            VSTORE(Fd + b, f);
            VSTORE(Md + b, edan_rule_depth_vec(edan_rule_join3_vec(m0, m1, m2), (lane_vec){0}));
            VSTORE(C + b, VLOAD(C + b) + t);
            VSTORE(Tinf + b, VMAX(tinf, f));
        }
        for (int k = 0; !simd && k < K; k++) {
            const uint64_t t = cls_cost[k];
            const uint64_t f = edan_rule_finish(edan_rule_join3(F0[k], F1[k], F2[k]), t);
            Md[k] = edan_rule_depth(edan_rule_join3(M0[k], M1[k], M2[k]), 0);
            Fd[k] = f;
            C[k] += t;
            Tinf[k] = max_u64(Tinf[k], f);
        }
        continue;
    memory_access:;
        prefetch_from(e, r);
        const uint32_t size = op.size;
        const uint64_t addr = r->addr;
        const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
        const bool rd = op.kind & EDAN_MEM_LOAD, wr = op.kind & EDAN_MEM_STORE;
        edan_shadow_page *page;
        if (off + size > EDAN_SHADOW_PAGE || !(page = edan_shadow_page_access(&e->shadow, addr, size, wr))) {
            /*
             * page-crossing access (or no memory): the general path handles and reports it, adding to the
             * lanes' totals directly (sums and maxima, which commute with the batch's, added at its end)
             */
            if (!edan_edag_step_lanes(e, r))
                return;
            continue;
        }
        for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
            const lane_vec f0 = VLOAD(F0 + b), f1 = VLOAD(F1 + b), f2 = VLOAD(F2 + b);
            const lane_vec m0 = VLOAD(M0 + b), m1 = VLOAD(M1 + b), m2 = VLOAD(M2 + b);
            VSTORE(Fin + b, edan_rule_join3_vec(f0, f1, f2));
            VSTORE(mdin + b, edan_rule_join3_vec(m0, m1, m2));
        }
        for (int k = 0; !simd && k < K; k++) {
            Fin[k] = edan_rule_join3(F0[k], F1[k], F2[k]);
            mdin[k] = edan_rule_join3(M0[k], M1[k], M2[k]);
        }
        if (rd)
            mem_deps(&e->shadow, page, (int)S, false, false, off, size, Fin, mdin, true, false, simd);
        /*
         * Most accesses of most programs hit the most recently used line of
         * their set at level 0, in most caches: the look below settles those
         * lanes (the class's cost, no RAM; a store through one write-through
         * level reaches RAM and does nothing else). The other lanes, AMOs and
         * lanes without a cache are classified one by one.
         */
        uint32_t missed = e->uncached | e->simulating, through = 0;
        if (look && rd != wr && !((addr ^ (addr + size - 1)) >> e->look_shift)) {
            uint32_t hit = 0;
#pragma GCC unroll 8
            for (size_t k = 0; k < S; k++)
                hit |= look_lane(&e->look, k, addr) << k;
            if (wr) {
                hit &= e->look_write_back | e->look_through;
                for (uint32_t m = hit & e->look_write_back; m; m &= m - 1)
                    edan_cache_mru_make_dirty(look_set(&e->look, (size_t)__builtin_ctz(m), addr));
            }
            /*
             * The lanes that missed their MRU way but hold the line in the
             * next one (two streams alternating in a set): the probe's step
             * for way 1, edan_cache_probe_way(), which moves it to the front.
             */
            for (uint32_t m = (wr ? e->look_second_store : e->look_second_load) & ~hit; m; m &= m - 1) {
                const size_t k = (size_t)__builtin_ctz(m);
                if (edan_cache_probe_way(look_set(&e->look, k, addr), 1, addr >> e->look.line_shift[k],
                                         wr && (e->look_write_back >> k & 1)))
                    hit |= 1u << k;
            }
            /*
             * A store that misses level 0's MRU way at a write-through level
             * without write-allocate also only goes on to RAM: its probe
             * moves a line it finds to the front, and fills nothing.
             */
            uint32_t probed = 0;
            if (wr) {
                probed = e->look_through_noalloc & ~hit;
                for (uint32_t m = probed; m; m &= m - 1) {
                    edan_cache_level *l0 = &e->lane[__builtin_ctz(m)].cache.level[0];
                    edan_cache_level_probe(l0, addr >> l0->line_shift, false);
                }
                through = (hit & e->look_through) | probed;
            }
            missed &= ~(hit | probed);
            looks++;
            settled += (uint32_t)__builtin_popcount(hit | probed);
            for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
                const lane_vec bit = {1, 2, 4, 8};
                const lane_vec h = (((lane_vec){0} + (int64_t)(hit >> b)) & bit) != 0; /* 0 or -1 */
                const lane_vec t = (((lane_vec){0} + (int64_t)(through >> b)) & bit) != 0;
                VSTORE(look_hits + b, VLOAD(look_hits + b) - h);
                VSTORE(through_bytes + b, VLOAD(through_bytes + b) + (t & (int64_t)size));
            }
            for (int k = 0; !simd && k < K; k++) {
                look_hits[k] += hit >> k & 1;
                through_bytes[k] += (through >> k & 1) * size;
            }
        }
        /* every lane's cost, and whether it reached RAM (0 or 1): when all hit, the class's and none */
        const uint64_t *access_cost = missed | through ? t_of : cls_cost, *reached = missed | through ? ram : no_lane;
        uint32_t rare = 0; /* lanes where the access reached RAM or moved bytes */
        if (missed | through) {
            /*
             * Lane by lane only the cache simulations, whose outcomes go to
             * bit masks (kept in registers: vector loads of values just
             * stored one lane at a time would wait for the stores); then
             * every lane's cost, bytes and counts at once.
             */
            uint32_t rd_mask = 0, wr_mask = through;
            if (line_mode) {
                memset(line_bytes, 0, S * sizeof *line_bytes); /* lanes that hit their MRU line moved nothing */
                for (uint32_t m = through; m; m &= m - 1)
                    line_bytes[__builtin_ctz(m)] = size;
                rare |= through;
            }
            for (uint32_t m = missed; m; m &= m - 1) {
                const int k = __builtin_ctz(m);
                lane_state *L = &e->lane[k];
                const edan_access_class ac = edan_cache_classify(&L->cache, L->has_cache, addr, size, rd, wr);
                rd_mask |= (uint32_t)ac.rd_ram << k;
                wr_mask |= (uint32_t)ac.wr_ram << k;
                if (line_mode) {
                    line_bytes[k] = ac.line_bytes;
                    rare |= (uint32_t)(ac.line_bytes != 0) << k;
                }
            }
            /* lanes with another lane's cache take its outcome (it comes first: edan_edag_cache_owner()) */
            for (uint32_t m = e->shared; m; m &= m - 1) {
                const int k = __builtin_ctz(m), o = e->lane[k].cache_owner;
                rd_mask |= (rd_mask >> o & 1) << k;
                wr_mask |= (wr_mask >> o & 1) << k;
                if (line_mode) {
                    line_bytes[k] = line_bytes[o];
                    rare |= (rare >> o & 1) << k;
                }
            }
            rare |= rd_mask | wr_mask;
            for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
                _Static_assert(LANE_BLOCK == 4, "a block's lane bits");
                const lane_vec bit = {1, 2, 4, 8};
                const lane_vec r_ram = (((lane_vec){0} + (int64_t)(rd_mask >> b)) & bit) != 0; /* 0 or -1 */
                const lane_vec w_ram = (((lane_vec){0} + (int64_t)(wr_mask >> b)) & bit) != 0;
                const lane_vec to_ram = -(r_ram | w_ram); /* 0 or 1 */
                const lane_vec sz = (lane_vec){0} + (int64_t)size;
                VSTORE(ram + b, to_ram);
                VSTORE(t_of + b, edan_rule_cost_vec(to_ram, VLOAD(alpha + b), VLOAD(cls_cost + b)));
                VSTORE(w + b, line_mode ? VLOAD(line_bytes + b) : (sz & r_ram) + (sz & w_ram));
                VSTORE(ram_loads + b, VLOAD(ram_loads + b) - r_ram);
                VSTORE(ram_stores + b, VLOAD(ram_stores + b) - w_ram);
            }
            for (int k = 0; !simd && k < K; k++) {
                const uint64_t r_ram = rd_mask >> k & 1, w_ram = wr_mask >> k & 1, to_ram = r_ram | w_ram;
                ram[k] = to_ram;
                t_of[k] = edan_rule_cost(to_ram, alpha[k], cls_cost[k]);
                w[k] = access_bytes(e, (edan_access_class){r_ram, w_ram, (uint32_t)line_bytes[k]}, size);
                ram_loads[k] += r_ram;
                ram_stores[k] += w_ram;
            }
        }
        for (int k = 0; !simd && k < K; k++) {
            const uint64_t t = access_cost[k];
            Fd[k] = F[k] = edan_rule_finish(Fin[k], t);
            Md[k] = md[k] = edan_rule_depth(mdin[k], reached[k]);
            *(reached[k] ? &R[k] : &C[k]) += t;
            Tinf[k] = max_u64(Tinf[k], F[k]);
        }
        for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
            const lane_vec t = VLOAD(access_cost + b), to_ram = VLOAD(reached + b), tinf = VLOAD(Tinf + b);
            const lane_vec f = edan_rule_finish_vec(VLOAD(Fin + b), t),
                           m = edan_rule_depth_vec(VLOAD(mdin + b), to_ram);
            VSTORE(F + b, f);
            VSTORE(md + b, m);
            VSTORE(Fd + b, f);
            VSTORE(Md + b, m);
            VSTORE(C + b, VLOAD(C + b) + (t & (to_ram - 1)));
            VSTORE(R + b, VLOAD(R + b) + (t & -to_ram));
            VSTORE(Tinf + b, VMAX(tinf, f));
        }
        if (rare) {
            for (size_t b = 0; simd && b < S; b += LANE_BLOCK) {
                const lane_vec to_ram = VLOAD(ram + b);
                VSTORE(W + b, VLOAD(W + b) + to_ram);
                VSTORE(D + b, VMAX(VLOAD(D + b), VLOAD(md + b) & -to_ram));
                VSTORE(bytes + b, VLOAD(bytes + b) + VLOAD(w + b));
            }
            for (int k = 0; !simd && k < K; k++) {
                W[k] += ram[k];
                D[k] = max_u64(D[k], ram[k] ? md[k] : 0);
                bytes[k] += w[k];
            }
        }
        /* lane by lane only what is scattered: the memory layers and the series */
        for (; rare; rare &= rare - 1) {
            const int k = __builtin_ctz(rare);
            edan_lane_stats *st = &e->lane[k].st;
            if ((ram[k] && !count_layer(e, st, md[k])) || (w[k] && !add_to_series(e, st, Fin[k], F[k], w[k])))
                return;
        }
        if (wr && !mem_store(&e->shadow, page, (int)S, false, false, off, size, F, md, simd)) {
            edan_error_set(&e->err, "out of memory for shadow state");
            return;
        }
    }
    for (int k = 0; k < K; k++) {
        edan_lane_stats *st = &e->lane[k].st;
        st->T1 += C[k] + R[k];
        st->C += C[k];
        st->Tinf = max_u64(st->Tinf, Tinf[k]);
        st->W += W[k];
        st->D = max_u64(st->D, D[k]);
        st->bytes += bytes[k];
        st->ram_loads += ram_loads[k];
        st->ram_stores += ram_stores[k];
    }
    if (look)
        e->look_on = settled * 3 >= looks * 2 * (uint32_t)__builtin_popcount(e->simulating);
    for (uint32_t m = e->simulating; m; m &= m - 1) {
        const int k = __builtin_ctz(m);
        e->lane[k].cache.level[0].hits += look_hits[k];
        e->lane[k].cache.ram_write_bytes += through_bytes[k];
    }
}

/* ---- its builds -------------------------------------------------------- */

/*
 * Built twice: with vectors for x86-64 CPUs that have AVX2, with plain loops
 * for any other. Without AVX2, GCC turns the comparisons of 256-bit vectors
 * into element-by-element code that ran a sweep at half the plain loops'
 * speed (SSE4.2's 64-bit compare did not help: it was not used).
 */
static void consume_lanes_portable(edan_edag *e, const edan_exec *recs, size_t n)
{
    consume_lanes_body(e, recs, n, false, 0);
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * The AVX2 build, also for the strides of up to four and of five to eight
 * lanes as constants (a sweep of eight split between two threads, or on
 * one): register addresses are then shifts, and the loops over a
 * register's blocks unroll.
 */
__attribute__((target("avx2"))) static void consume_lanes_avx2(edan_edag *e, const edan_exec *recs, size_t n)
{
    if (e->stride == LANE_BLOCK)
        consume_lanes_body(e, recs, n, true, LANE_BLOCK);
    else if (e->stride == 2 * LANE_BLOCK)
        consume_lanes_body(e, recs, n, true, 2 * LANE_BLOCK);
    else
        consume_lanes_body(e, recs, n, true, 0);
}
#endif

void edan_edag_consume_lanes(edan_edag *e, const edan_exec *recs, size_t n)
{
#if defined(__x86_64__) || defined(__i386__)
    if (e->lanes_avx2) {
        consume_lanes_avx2(e, recs, n);
        return;
    }
#endif
    consume_lanes_portable(e, recs, n);
}
