/*
 * Functional warming's in-flight rule (src/analysis/timing/timing_internal.h)
 * against a naive reference on random streams of accesses: the streaming
 * rule keeps per line its last L1d request in a direct-mapped table and per
 * (pc slot, kind, source level, distance bucket) a cell; the reference keeps every
 * request ever made in a list it searches backwards and its cells in a list
 * keyed by the pc itself, with the distance's bucket found by a loop. Lines
 * and pcs are drawn from sets whose table slots differ, so that the two
 * must agree on every decision and every cell. Part of timing_sample_test
 * (timing_sample_test.c calls timing_sample_warm_tests()).
 */
#include <stdlib.h>

#include "analysis/timing/timing_internal.h"
#include "check.h"
#include "timing_random.h"

void timing_sample_warm_tests(unsigned long *passed, unsigned long *failed);

enum { NLINES = 48, NPCS = 6, NACC = 200000 };

typedef struct naive_req {
    uint64_t line, ins, pc;
    int prefetch, src;
    double u; /* a prefetch's draw: the k-th prefetched line's is k 40503 mod 2^16, over 2^16 */
} naive_req;

typedef struct naive_cell {
    uint64_t pc;
    int kind, src, bucket;
    unsigned seen, on_way, credit;
} naive_cell;

static naive_req *reqs;
static size_t n_reqs;
static naive_cell cells[NPCS * TIMING_WARM_KINDS * TIMING_WARM_SRCS * TIMING_WARM_BUCKETS];
static size_t n_cells;
static uint64_t n_pf; /* prefetched lines so far */

static naive_cell *naive_cell_of(uint64_t pc, uint64_t line, uint64_t now, const naive_req **req)
{
    const naive_req *q = NULL;
    for (size_t i = n_reqs; i-- > 0;)
        if (reqs[i].line == line) {
            q = &reqs[i];
            break;
        }
    if (!q)
        return NULL;
    *req = q;
    const uint64_t d = now - q->ins;
    int b = 0;
    while (b + 1 < TIMING_WARM_BUCKETS && ((uint64_t)2 << b) <= d) /* 2^(b+1) <= d: the next bucket */
        b++;
    const int kind = q->prefetch ? 2 : (q->pc == pc ? 0 : 1);
    const int src = q->src - 1; /* the L2 first: a request that found the line in the L1d brought nothing */
    for (size_t i = 0; i < n_cells; i++)
        if (cells[i].pc == pc && cells[i].kind == kind && cells[i].src == src && cells[i].bucket == b)
            return &cells[i];
    cells[n_cells] = (naive_cell){pc, kind, src, b, 0, 0, 0};
    return &cells[n_cells++];
}

/* draws n distinct keys (from base, by step) whose edan_memtime_slot()s (masked by mask) differ */
static void distinct_slots(uint64_t *out, int n, uint64_t base, uint64_t step, uint32_t mask)
{
    int k = 0;
    for (uint64_t key = base; k < n; key += step) {
        int clash = 0;
        for (int i = 0; i < k; i++)
            clash |= (edan_memtime_slot(out[i]) & mask) == (edan_memtime_slot(key) & mask);
        if (!clash)
            out[k++] = key;
    }
}

static void test_against_naive(uint64_t seed)
{
    uint64_t lines[NLINES], pcs[NPCS];
    distinct_slots(lines, NLINES, 0x100000, 1 + 2 * seed, (1u << EDAN_MEMTIME_INFLIGHT_BITS) - 1);
    distinct_slots(pcs, NPCS, 0x10000, 4, TIMING_WARM_PCS - 1);
    edan_timing *t = calloc(1, sizeof *t);
    edan_prefetch_issue issue[4];
    reqs = malloc(NACC * 5 * sizeof *reqs);
    if (!t || !reqs)
        abort();
    t->line_shift = 6;
    t->pf.issue = issue;
    t->wline = calloc((size_t)1 << EDAN_MEMTIME_INFLIGHT_BITS, sizeof *t->wline);
    t->wcell =
        calloc((size_t)TIMING_WARM_PCS * TIMING_WARM_KINDS * TIMING_WARM_SRCS * TIMING_WARM_BUCKETS, sizeof *t->wcell);
    n_reqs = n_cells = 0;
    n_pf = 0;
    rt_seed(seed);
    unsigned decided = 0, differ = 0, trained = 0;
    for (uint64_t i = 0; i < NACC; i++) {
        t->n.instructions += 1 + rt_below(rt_below(8) ? 4 : 3000); /* now and then far from every request */
        const int p = (int)rt_below(NPCS);
        const uint64_t pc = pcs[p], line = lines[rt_below(NLINES)];
        const edan_cache_result r = {.level = rt_below(3) ? 0 : 1 + (int)rt_below(TIMING_WARM_SRCS)};
        const bool scheduled = (i / 5000) % 3 != 2; /* stretches of schedule, then a skip */
        uint32_t n = 0;
        if (scheduled) {
            /* the schedule's decision: each pc on its way at its own rate */
            const bool in_flight = rt_below(NPCS) < (uint64_t)p;
            warm_learn(t, pc, line << 6, &r, in_flight);
            const naive_req *q;
            naive_cell *c = r.level == 0 ? naive_cell_of(pc, line, t->n.instructions, &q) : NULL;
            if (c) {
                if (c->seen >= TIMING_WARM_DECAY) {
                    c->seen /= 2;
                    c->on_way /= 2;
                    c->credit /= 2;
                }
                c->seen++;
                c->on_way += in_flight;
            }
        } else {
            const bool got = warm_in_flight(t, pc, line << 6, &r);
            const naive_req *q = NULL;
            naive_cell *c = r.level == 0 ? naive_cell_of(pc, line, t->n.instructions, &q) : NULL;
            bool want = false;
            if (c && c->seen && q->prefetch) { /* the line's draw against the cell's rate */
                want = q->u < (double)c->on_way / (double)c->seen;
            } else if (c && c->seen) {
                c->credit += c->on_way;
                if (c->credit >= c->seen) {
                    c->credit -= c->seen;
                    want = true;
                }
            }
            decided++;
            differ += got != want;
            trained += want;
        }
        for (uint32_t k = rt_below(3); n < k; n++) /* prefetches: some to the L1d, some to the L2 */
            issue[n] = (edan_prefetch_issue){lines[rt_below(NLINES)],    64, 0, (uint8_t)rt_below(2),
                                             (uint8_t)(1 + rt_below(3)), 0};
        warm_note(t, pc, line << 6, &r, n);
        if (r.level > 0)
            reqs[n_reqs++] = (naive_req){line, t->n.instructions, pc, 0, r.level, 0};
        for (uint32_t k = 0; k < n; k++)
            if (issue[k].level == 0)
                reqs[n_reqs++] = (naive_req){issue[k].line,
                                             t->n.instructions,
                                             pc,
                                             1,
                                             issue[k].src,
                                             (double)((++n_pf * 40503u) % 65536u) / 65536.0};
    }
    CHECK(differ == 0 && decided > 10000, "seed %llu: %u of %u skipped hits decided otherwise than the reference",
          (unsigned long long)seed, differ, decided);
    CHECK(trained > decided / 20 && trained < decided / 2, "seed %llu: %u of %u skipped hits trained in flight",
          (unsigned long long)seed, trained, decided);
    unsigned cell_diff = 0;
    for (size_t i = 0; i < n_cells; i++) {
        const naive_cell *c = &cells[i];
        const size_t slot = edan_memtime_slot(c->pc) & (TIMING_WARM_PCS - 1);
        const timing_wcell *w =
            &t->wcell[((slot * TIMING_WARM_KINDS + (size_t)c->kind) * TIMING_WARM_SRCS + (size_t)c->src) *
                          TIMING_WARM_BUCKETS +
                      (size_t)c->bucket];
        cell_diff += w->seen != c->seen || w->on_way != c->on_way || w->credit != c->credit;
    }
    CHECK(cell_diff == 0 && n_cells > 20, "seed %llu: %u of %zu cells differ from the reference",
          (unsigned long long)seed, cell_diff, n_cells);
    free(t->wline);
    free(t->wcell);
    free(t);
    free(reqs);
}

void timing_sample_warm_tests(unsigned long *passed, unsigned long *failed)
{
    for (uint64_t seed = 1; seed <= 3; seed++)
        test_against_naive(seed);
    *passed += check_passed;
    *failed += check_failed;
}
