/*
 * The timing model (analysis/timing/timing.h) on hand-built instruction streams
 * with exact answers, and at its limits against the dependency tracker:
 *  - a chain of n dependent misses takes n latencies;
 *  - n independent misses with k MSHRs take ceil(n/k) latencies;
 *  - a reorder buffer of R entries overlaps only the misses that fit in it;
 *  - a streaming loop is bound by bytes / bandwidth;
 *  - an L1i miss delays dispatch;
 *  - unlimited window, MSHRs and widths give the eDAG's span (deps.h), and
 *    width 1 with a window of 1 the serial sum of latencies, on random
 *    streams;
 *  - results do not depend on batch sizes;
 *  - a divider is busy its class's issue interval ([issue_interval]).
 * A test machine has zero hit latencies and a bandwidth so high that a
 * transfer takes no time, unless a case says otherwise, so a miss costs the
 * memory latency exactly. Its first fetch misses the L1i: every stream
 * starts one memory latency late (D0 below).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deps/deps.h"
#include "analysis/edag/cost.h"
#include "analysis/timing/timing.h"
#include "check.h"
#include "random_trace.h"
#include "timing_check.h"

static void test_chain(void)
{
    static edan_exec r[MAXN];
    edan_insn ld = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    for (size_t n = 1; n <= 256; n *= 4) {
        for (size_t i = 0; i < n; i++)
            r[i] = rec(&ld, fresh(i));
        edan_machine m = base_machine();
        double c[2];
        predict(&m, r, n, LAT, 2, 64, c, NULL);
        /* the first fetch's miss, then n misses one after the other, each value written back in a cycle */
        CHECK(c[0] == (double)((n + 1) * 100 + n) && c[1] == (double)((n + 1) * 200 + n),
              "a chain of %zu misses: %g and %g cycles, expected %zu and %zu", n, c[0], c[1], (n + 1) * 100 + n,
              (n + 1) * 200 + n);
        /* a dispatch width of 1 and a small window change nothing: each waits for the one before */
        m.dispatch_width = m.fetch_width = m.commit_width = 1;
        m.rob_entries = 4;
        CHECK(exposed(&m, r, n) == (double)(n + 1), "a chain of %zu misses on a narrow core: %g latencies", n,
              exposed(&m, r, n));
    }
}

static void test_mshrs(void)
{
    static edan_exec r[MAXN];
    static edan_insn ld[8];
    for (int j = 0; j < 8; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
    const size_t n = 64;
    for (size_t i = 0; i < n; i++)
        r[i] = rec(&ld[i % 8], fresh(i));
    for (uint32_t k = 1; k <= 64; k *= 2) {
        edan_machine m = base_machine();
        m.data[0].mshrs = k;
        double e = exposed(&m, r, n);
        double want = (double)((n + k - 1) / k + 1);
        CHECK(e == want, "%zu independent misses with %u L1 MSHRs: %g latencies exposed, expected %g", n, k, e, want);
        /* the L2's MSHRs bind the same way */
        m.data[0].mshrs = 1024;
        m.data[1].mshrs = k;
        e = exposed(&m, r, n);
        CHECK(e == want, "%zu independent misses with %u L2 MSHRs: %g latencies, expected %g", n, k, e, want);
    }
}

/*
 * An MSHR holds mshr_targets accesses (the miss and those that merge into
 * it); the access that fills the last target blocks the L1d until that
 * MSHR's fill, as gem5's cache does. n lines, each read by 4 independent
 * loads in a row, every MSHR free: with 5 or more targets the n misses
 * overlap (one latency, and the first fetch's); with at most 4 the last
 * access to each line (the second one with 1 target: the miss alone never
 * blocks) blocks the L1d, the next line's miss goes out when the line is
 * back, and each line costs a latency of its own.
 */
static void test_mshr_targets(void)
{
    static edan_exec r[MAXN];
    static edan_insn ld[4];
    for (int j = 0; j < 4; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
    const size_t n = 32;
    for (size_t i = 0; i < 4 * n; i++)
        r[i] = rec(&ld[i % 4], fresh(i / 4) + 8 * (i % 4));
    const uint32_t targets[] = {1, 2, 4, 5, 8};
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) {
        edan_machine m = base_machine();
        m.data[0].mshr_targets = targets[i];
        double e = exposed(&m, r, 4 * n), want = targets[i] <= 4 ? (double)n + 1 : 2;
        CHECK(e == want, "%zu lines of 4 loads, %u targets an MSHR: %g latencies exposed, expected %g", n, targets[i],
              e, want);
    }
}

static void test_rob(void)
{
    static edan_exec r[MAXN];
    static edan_insn body[4];
    body[0] = load(EDAN_REG_X(10), EDAN_REG_X(3), 0x1000);
    for (int j = 1; j < 4; j++)
        body[j] = add(EDAN_REG_X(20 + j), EDAN_REG_X(4), 0x1000 + 4 * (uint64_t)j);
    const size_t misses = 64;
    for (size_t i = 0; i < 4 * misses; i++)
        r[i] = rec(&body[i % 4], fresh(i / 4));
    for (uint32_t rob = 4; rob <= 64; rob *= 2) {
        edan_machine m = base_machine();
        m.rob_entries = rob;
        /* a miss every 4 instructions: rob / 4 of them fit in the window at once */
        double want = (double)(misses / (rob / 4) + 1);
        double e = exposed(&m, r, 4 * misses);
        CHECK(e == want, "ROB %u, a miss every 4 instructions: %g latencies exposed, expected %g", rob, e, want);
    }
    /* the load queue binds like a window of loads */
    edan_machine m = base_machine();
    m.lq_entries = 2;
    double e = exposed(&m, r, 4 * misses);
    CHECK(e == (double)(misses / 2 + 1), "2 load queue entries: %g latencies exposed, expected %zu", e, misses / 2 + 1);
}

/*
 * The issue queue: an instruction holds an entry from dispatch until it
 * issues, a load until its data is back. (a) A division (300 cycles) and
 * 16 additions that wait for it fill a 16-entry queue: a later independent
 * miss dispatches when the division is done, and its latency adds to the
 * division's (two latencies exposed with the first fetch's, against one
 * with a queue of 17). (b) 64 independent misses and a queue of 16: a
 * batch of 16 holds the queue until its data is back, so the misses go out
 * in 4 batches, one latency each.
 */
static void test_issue_queue(void)
{
    static edan_exec r[MAXN];
    static edan_insn div, adds[16], ld[8];
    div = add(EDAN_REG_X(10), EDAN_REG_X(11), 0x1000);
    div.cls = EDAN_CLASS_DIV;
    size_t n = 0;
    r[n++] = rec(&div, 0);
    for (int j = 0; j < 16; j++) {
        adds[j] = add(EDAN_REG_X(12 + j % 8), EDAN_REG_X(10), 0x1004 + 4 * (uint64_t)j);
        r[n++] = rec(&adds[j], 0);
    }
    static edan_insn miss;
    miss = load(EDAN_REG_X(20), EDAN_REG_X(3), 0x1044);
    r[n++] = rec(&miss, fresh(0));
    for (uint32_t q = 16; q <= 17; q++) {
        edan_machine m = base_machine();
        m.latency[EDAN_CLASS_DIV] = 300;
        m.iq_entries = q;
        double e = exposed(&m, r, n), want = q == 16 ? 2 : 1;
        CHECK(e == want, "a miss behind 16 waiting instructions, issue queue %u: %g latencies, expected %g", q, e,
              want);
    }
    for (int j = 0; j < 8; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
    for (size_t i = 0; i < 64; i++)
        r[i] = rec(&ld[i % 8], fresh(i));
    edan_machine m = base_machine();
    m.iq_entries = 16;
    double e = exposed(&m, r, 64);
    CHECK(e == 5, "64 misses, issue queue 16: %g latencies exposed, expected 5", e);
}

static void test_bandwidth(void)
{
    static edan_exec r[MAXN];
    static edan_insn ld[8];
    for (int j = 0; j < 8; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
    const size_t n = 1000;
    for (size_t i = 0; i < n; i++)
        r[i] = rec(&ld[i % 8], fresh(i));
    edan_machine m = base_machine();
    m.mem_bandwidth_gbs = 6.4; /* 6.4 bytes a cycle: a 128-byte line every 20 cycles */
    double c[1], lat = 100;
    predict(&m, r, n, &lat, 1, 64, c, NULL);
    /*
     * the fetch's miss (100 + 20), then one line every 20 cycles, the last
     * back 100 after it is through; the bandwidth's calendar may finish a
     * transfer up to one bucket (8 lines) early
     */
    double want = 2 * lat + 20.0 * (double)n + 20;
    CHECK(c[0] <= want && c[0] >= want - 8 * 20, "%zu lines at 6.4 GB/s: %g cycles, expected %g", n, c[0], want);
    double rate = (double)(n - 8) * LINE / ((c[0] - 2 * lat) * 1e-9) / 1e9;
    CHECK(rate <= 6.4 + 1e-9, "the stream moved %g GB/s, more than the bandwidth", rate);
}

static void test_l1i(void)
{
    static edan_exec r[MAXN];
    static edan_insn code[MAXN];
    const size_t lines = 16, per_line = LINE / 4;
    for (size_t i = 0; i < lines * per_line; i++) {
        code[i] = add(EDAN_REG_X(10 + i % 8), EDAN_REG_X(3), 0x100000 + 4 * i);
        r[i] = rec(&code[i], 0);
    }
    edan_machine m = base_machine();
    double e = exposed(&m, r, lines * per_line);
    CHECK(e == (double)lines, "%zu lines of straight-line code: %g latencies of fetch misses, expected %zu", lines, e,
          lines);
    /* the same code again: it hits, and costs no more latencies */
    for (size_t i = 0; i < lines * per_line; i++)
        r[lines * per_line + i] = r[i];
    e = exposed(&m, r, 2 * lines * per_line);
    CHECK(e == (double)lines, "the code run twice: %g latencies, expected %zu", e, lines);
}

/* cycles of a loop of `body` instructions at 0x1000, 4 bytes each, the last a jump back, run n times */
static double loop_cycles(const edan_machine *m, size_t body, size_t n)
{
    static edan_exec r[MAXN];
    static edan_insn code[64];
    for (size_t j = 0; j < body; j++) {
        code[j] = add(EDAN_REG_X(10 + j % 8), EDAN_REG_X(3), 0x1000 + 4 * j);
        code[j].flow = j + 1 == body ? EDAN_FLOW_JUMP : EDAN_FLOW_NONE;
    }
    for (size_t i = 0; i < body * n; i++)
        r[i] = rec(&code[i % body], 0);
    double c[1], lat = 100;
    predict(m, r, body * n, &lat, 1, 64, c, NULL);
    return c[0];
}

/*
 * Fetch ends its cycle at its fetch_taken_limit-th taken branch or jump. 64
 * turns of a 3-instruction loop, 8 fetched a cycle: with no limit the 192
 * instructions take 24 fetch cycles, with a limit of 1 one turn a cycle
 * (64), with 2 two turns a cycle (32); everything else is the same.
 */
static void test_fetch_taken(void)
{
    edan_machine m = base_machine();
    m.fetch_width = 8;
    const double free = loop_cycles(&m, 3, 64);
    m.fetch_taken_limit = 1;
    double c = loop_cycles(&m, 3, 64);
    CHECK(c - free == 64 - 24, "one taken jump a fetch cycle: %g cycles more, expected 40", c - free);
    m.fetch_taken_limit = 2;
    c = loop_cycles(&m, 3, 64);
    CHECK(c - free == 32 - 24, "two taken jumps a fetch cycle: %g cycles more, expected 8", c - free);
}

/*
 * Fetch reads fetch_block_bytes of the L1i at a time, the next block when
 * it gets to it: the L1i's hit latency (3) after its last fetch from the
 * block before. A 32-instruction loop (128 bytes), 8 fetched a cycle, no
 * limit on taken jumps: in one block a turn takes 4 fetch cycles; in two
 * 64-byte blocks 8 (2 from each, and a wait of 2 before each); 16 turns
 * end 8 (16 - 1) + 5 cycles after the first fetch instead of 4 16 - 1. A
 * 128-byte block holds the loop and the jump back stays in it: no wait.
 */
static void test_fetch_blocks(void)
{
    edan_machine m = base_machine();
    m.fetch_width = 8;
    m.l1i.hit_latency = 3;
    const double free = loop_cycles(&m, 32, 16);
    m.fetch_block_bytes = 64;
    double c = loop_cycles(&m, 32, 16);
    CHECK(c - free == (8 * 15 + 5) - (4 * 16 - 1), "a loop over two fetch blocks: %g cycles more, expected 62",
          c - free);
    m.fetch_block_bytes = 128;
    c = loop_cycles(&m, 32, 16);
    CHECK(c == free, "a loop within one fetch block: %g cycles, expected %g", c, free);
}

/*
 * A random stream whose loads and atomics each touch a line of their own
 * and whose stores are plain instructions, so every access misses and the
 * eDAG (no cache, alpha = the memory latency) and the model agree on what
 * a vertex costs; one code line.
 */
static void random_stream(edan_insn table[24], edan_exec *recs, size_t n)
{
    rt_random_records(table, recs, n);
    for (int i = 0; i < 24; i++) {
        table[i].pc = 0x1000;
        table[i].flow = EDAN_FLOW_NONE;
        if (table[i].mem == EDAN_MEM_STORE) {
            table[i].mem = EDAN_MEM_NONE;
            table[i].mem_size = 0;
            table[i].cls = EDAN_CLASS_INT;
        }
        if (table[i].mem != EDAN_MEM_NONE)
            table[i].mem_size = 8;
    }
    for (size_t i = 0; i < n; i++) {
        recs[i].flags = 0;
        recs[i].addr = recs[i].insn->mem != EDAN_MEM_NONE ? fresh(i) : 0;
    }
}

/* The eDAG's span and work with cost c per class and alpha for a memory access. */
static void edag_of(const edan_exec *recs, size_t n, const edan_machine *m, uint64_t alpha, uint64_t *tinf,
                    uint64_t *t1)
{
    edan_lane_config lane;
    memset(&lane, 0, sizeof lane);
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        lane.cost.cls[c] = m->latency[c];
    lane.cost.alpha = alpha;
    edan_error err = {0};
    edan_deps *d = edan_deps_new(&lane, false, 0, &err);
    edan_deps_info info;
    for (size_t i = 0; i < n; i++)
        edan_deps_step(d, &recs[i], &info);
    *tinf = edan_deps_totals_get(d)->Tinf;
    *t1 = edan_deps_totals_get(d)->T1;
    edan_deps_free(d);
}

static void test_limits(void)
{
    static edan_exec recs[1000];
    static edan_insn table[24];
    int bad_span = 0, bad_serial = 0;
    for (int trial = 0; trial < 200; trial++) {
        rt_seed(1000 + (uint64_t)trial);
        size_t n = 1 + rt_below(999);
        random_stream(table, recs, n);
        edan_machine m = base_machine();
        for (int c = 0; c < EDAN_CLASS_COUNT; c++)
            m.latency[c] = 1 + (uint32_t)rt_below(6);
        m.data[0].hit_latency = (uint32_t)rt_below(4);
        m.data[1].hit_latency = (uint32_t)rt_below(10);
        m.l1i.hit_latency = (uint32_t)rt_below(3);
        const double lat = (double)rt_below(400);
        /* lookups on the way down, responses on the way up, the loaded value written back in a cycle */
        const uint64_t miss = 2 * (m.data[0].hit_latency + m.data[1].hit_latency) + (uint64_t)lat + 1;
        const double d0 = 2 * (m.l1i.hit_latency + m.data[1].hit_latency) + lat; /* the first fetch's miss */
        uint64_t tinf, t1;
        edag_of(recs, n, &m, miss, &tinf, &t1);
        double c;
        predict(&m, recs, n, &lat, 1, 1 + rt_below(100), &c, NULL);
        bad_span += c != d0 + (double)tinf;
        if (c != d0 + (double)tinf && bad_span < 4)
            fprintf(stderr, "trial %d: unlimited machine %g cycles, eDAG span %" PRIu64 " + %g\n", trial, c, tinf, d0);
        m.fetch_width = m.dispatch_width = m.issue_width = m.commit_width = 1;
        m.rob_entries = 1;
        predict(&m, recs, n, &lat, 1, 1 + rt_below(100), &c, NULL);
        bad_serial += c != d0 + (double)t1;
        if (c != d0 + (double)t1 && bad_serial < 4)
            fprintf(stderr, "trial %d: window 1 %g cycles, serial sum %" PRIu64 " + %g\n", trial, c, t1, d0);
    }
    CHECK(bad_span == 0, "%d of 200 random streams: an unlimited machine's time is not the eDAG's span", bad_span);
    CHECK(bad_serial == 0, "%d of 200 random streams: width 1, window 1 is not the serial sum", bad_serial);
}

/* The time attributed to each static instruction adds up to the region's time, at every lane: the count of lanes where
 * not. */
static int attribution_sum(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat, int nl)
{
    edan_error err = {0};
    edan_timing *t = edan_timing_new(m, lat, nl, &err);
    edan_consumer c = edan_timing_consumer(t);
    c.consume(c.ctx, recs, n);
    c.finish(c.ctx);
    int wrong = 0;
    for (int k = 0; k < nl; k++) {
        double sum = 0, stall = 0;
        uint64_t count = 0;
        for (uint32_t id = 0; id < edan_timing_ids(t); id++) {
            sum += edan_timing_id_cycles(t, id, k);
            stall += edan_timing_id_stall(t, id, k);
            count += edan_timing_id_count(t, id);
        }
        edan_timing_lane l = edan_timing_lane_get(t, k);
        wrong += sum != l.cycles || stall != l.mem_stall_cycles || count != n;
    }
    edan_timing_free(t);
    return wrong;
}

/* Random streams as they come (reuse, stores, partial overlaps, failed sc), a small realistic machine. */
static void test_batches(void)
{
    static edan_exec recs[3000];
    static edan_insn table[24];
    const double lat[3] = {50, 120, 300};
    int bad = 0;
    for (int trial = 0; trial < 50; trial++) {
        rt_seed(77 + (uint64_t)trial);
        size_t n = 1 + rt_below(3000);
        rt_random_records(table, recs, n);
        for (int i = 0; i < 24; i++) {
            table[i].pc = 0x1000 + 4 * (uint64_t)i;
            table[i].size = 4;
            if (rt_below(4) == 0)
                table[i].flow = EDAN_FLOW_BRANCH;
        }
        edan_machine m = base_machine();
        m.fetch_width = m.dispatch_width = m.commit_width = 4;
        m.rob_entries = 32;
        m.lq_entries = m.sq_entries = 8;
        m.data[0].geo.size = 1024;
        m.data[0].mshrs = 4;
        m.data[0].hit_latency = 2;
        m.data[1].hit_latency = 10;
        m.mem_bandwidth_gbs = 8;
        m.mispredict_penalty = 7;
        m.predictor = trial % 2 ? EDAN_PRED_TOURNAMENT : EDAN_PRED_BIMODAL;
        double a[3], b[3];
        edan_timing_counts ca, cb;
        predict(&m, recs, n, lat, 3, n, a, &ca);
        bad += attribution_sum(&m, recs, n, lat, 3) != 0;
        predict(&m, recs, n, lat, 3, 1 + rt_below(17), b, &cb);
        bad += memcmp(a, b, sizeof a) != 0 || memcmp(&ca, &cb, sizeof ca) != 0;
        /* more latency never makes the region faster */
        bad += !(a[0] <= a[1] && a[1] <= a[2]);
    }
    CHECK(bad == 0, "%d differences between batch sizes, or a time that fell with more latency", bad);
}

/* A loop of 8 iterations run 1000 times: bimodal misses every exit, the tournament predictor learns it. */
static void test_predictors(void)
{
    edan_predictor p;
    edan_error err = {0};
    for (int kind = 0; kind < 2; kind++) {
        CHECK(edan_predictor_init(&p, (edan_predictor_kind)kind, 8192, &err) == 0, "%s", err.msg);
        int wrong_late = 0;
        for (int rep = 0; rep < 1000; rep++)
            for (int i = 0; i < 8; i++) {
                bool wrong = edan_predictor_branch(&p, 0x1000, i < 7);
                wrong_late += rep >= 100 && wrong;
                if (i == 7)
                    edan_predictor_jump(&p); /* the outer loop's jump back */
            }
        if (kind == EDAN_PRED_BIMODAL)
            CHECK(wrong_late == 900, "bimodal: %d mispredictions in the last 900 loops, expected one a loop",
                  wrong_late);
        else
            CHECK(wrong_late == 0, "tournament: %d mispredictions in the last 900 loops, expected none", wrong_late);
        edan_predictor_free(&p);
    }
    CHECK(edan_predictor_init(&p, EDAN_PRED_BIMODAL, 12, &err) == -1, "12 entries refused");
}

/* n independent divisions on u dividers of latency L take ceil(n/u) L; pipelined multiplies do not queue. */
static void test_dividers(void)
{
    static edan_exec r[64];
    static edan_insn op[8];
    for (int cls = EDAN_CLASS_MUL; cls <= EDAN_CLASS_FSQRT; cls++) {
        if (cls != EDAN_CLASS_MUL && cls != EDAN_CLASS_DIV && cls != EDAN_CLASS_FDIV && cls != EDAN_CLASS_FSQRT)
            continue;
        for (int j = 0; j < 8; j++) {
            op[j] = add(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
            op[j].cls = (uint8_t)cls;
        }
        for (int i = 0; i < 64; i++)
            r[i] = rec(&op[i % 8], 0);
        for (uint32_t u = 1; u <= 4; u *= 2) {
            edan_machine m = base_machine();
            m.latency[cls] = 20;
            m.int_div_units = m.fp_div_units = u;
            double c[1], lat = 0;
            predict(&m, r, 64, &lat, 1, 64, c, NULL);
            /* lat 0: the fetch's miss costs nothing; each op starts at 0 or when a unit frees */
            double want = cls == EDAN_CLASS_MUL ? 20 : 20.0 * (64 / u);
            CHECK(c[0] == want, "64 independent ops of class %d on %u units: %g cycles, expected %g", cls, u, c[0],
                  want);
        }
    }
}

/*
 * [issue_interval]: a divider busy k cycles per operation (k at most the
 * latency L; 0, the key not given: L). n independent operations on u units
 * start every k cycles per unit, the last at floor((n - 1) / u) k, and end
 * L later; n dependent ones take n L whatever k. Out of order and in order,
 * unsampled and sampled (a unit covering every period: the same schedule);
 * at a memory latency of 50 the first fetch's miss adds 50.
 */
static void test_issue_interval(void)
{
    enum { N = 64 };
    static edan_exec ind[N], dep[N];
    static edan_insn op[8], chain;
    const int classes[] = {EDAN_CLASS_DIV, EDAN_CLASS_FDIV, EDAN_CLASS_FSQRT};
    for (int ci = 0; ci < 3; ci++) {
        const int cls = classes[ci];
        for (int j = 0; j < 8; j++) {
            op[j] = add(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
            op[j].cls = (uint8_t)cls;
        }
        chain = add(EDAN_REG_X(20), EDAN_REG_X(20), 0x2000);
        chain.cls = (uint8_t)cls;
        for (int i = 0; i < N; i++) {
            ind[i] = rec(&op[i % 8], 0);
            dep[i] = rec(&chain, 0);
        }
        const uint32_t L = 21, intervals[] = {0, 21, 9, 1};
        for (int inorder = 0; inorder < 2; inorder++)
            for (uint32_t u = 1; u <= 2; u++)
                for (int ki = 0; ki < 4; ki++) {
                    edan_machine m = base_machine();
                    m.core_model = inorder ? EDAN_CORE_INORDER : EDAN_CORE_O3;
                    m.latency[cls] = L;
                    m.issue_interval[cls] = intervals[ki];
                    m.int_div_units = m.fp_div_units = u;
                    const uint32_t k = intervals[ki] ? intervals[ki] : L;
                    CHECK(edan_machine_issue_interval(&m, cls) == k, "class %d: interval %u", cls, k);
                    const double want_ind = (double)((N - 1) / u * k + L), want_dep = (double)(N * L);
                    const double lat[2] = {0, 50};
                    double c[2];
                    predict(&m, ind, N, lat, 2, 16, c, NULL);
                    CHECK(
                        c[0] == want_ind && c[1] == want_ind + 50,
                        "%s: %d independent ops of class %d, %u units busy %u of %u cycles: %g %g cycles, expected %g",
                        inorder ? "in order" : "o3", N, cls, u, k, L, c[0], c[1], want_ind);
                    predict(&m, dep, N, lat, 2, 16, c, NULL);
                    CHECK(c[0] == want_dep, "%s: a chain of %d ops of class %d busy %u of %u cycles: %g, expected %g",
                          inorder ? "in order" : "o3", N, cls, k, L, c[0], want_dep);
                    const edan_timing_sampling smp = {16, 0, 16, 0, 0};
                    edan_timing *t = timing_run_sampled(&m, ind, N, lat, 2, 16, 1, &smp);
                    if (t) {
                        const double s = edan_timing_lane_get(t, 0).cycles;
                        CHECK(s == want_ind, "sampled, class %d busy %u: %g cycles, expected %g", cls, k, s, want_ind);
                        edan_timing_free(t);
                    }
                }
    }
}

/*
 * Store sets: a load next to an older store (same 16-byte block, other bytes) trains its pc into the
 * store's set; from then on each load waits for the set's last store. Here a division feeds a store,
 * the next load feeds the next division: with store sets the loop is one chain of divisions, without
 * them the divisions overlap.
 */
static void test_store_sets(void)
{
    static edan_exec r[3 * 64];
    static edan_insn div, st, ld;
    div = add(EDAN_REG_X(10), EDAN_REG_X(11), 0x1000);
    div.cls = EDAN_CLASS_DIV;
    st = load(0, EDAN_REG_X(10), 0x1004);
    st.cls = EDAN_CLASS_STORE;
    st.mem = EDAN_MEM_STORE;
    st.n_src = 2;
    st.src[1] = EDAN_REG_X(2);
    st.n_dst = 0;
    ld = load(EDAN_REG_X(11), EDAN_REG_X(2), 0x1008);
    for (int i = 0; i < 64; i++) {
        r[3 * i] = rec(&div, 0);
        r[3 * i + 1] = rec(&st, 0x8000 + 8 * (uint64_t)i);
        r[3 * i + 2] = rec(&ld, 0x8000 + 8 * (uint64_t)(i + 1));
    }
    for (uint32_t bytes = 0; bytes <= 16; bytes += 16) {
        edan_machine m = base_machine();
        m.latency[EDAN_CLASS_DIV] = 20;
        m.store_set_bytes = bytes;
        m.mem_latency_ns = 0;
        double c[1], lat = 0;
        predict(&m, r, 3 * 64, &lat, 1, 64, c, NULL);
        if (bytes)
            CHECK(c[0] >= 64 * 20, "with store sets the loop is a chain of 64 divisions: %g cycles", c[0]);
        else
            CHECK(c[0] < 200, "without store sets the divisions overlap: %g cycles", c[0]);
    }
}

/* A machine for the store-set cases: misses cost nothing, a division 20 cycles, 16-byte store sets. */
static double store_set_cycles(const edan_exec *r, size_t n)
{
    edan_machine m = base_machine();
    m.latency[EDAN_CLASS_DIV] = 20;
    m.store_set_bytes = 16;
    m.mem_latency_ns = 0;
    double c[1], lat = 0;
    predict(&m, r, n, &lat, 1, 64, c, NULL);
    return c[0];
}

/*
 * gem5 indexes its store-set table by pc / 4, so a compressed load in the
 * same 4-byte word as a store of a set belongs to the set. Per iteration a
 * division feeds a 2-byte store at 0x1004, and a load from an unrelated
 * address feeds the next division; a trainer load next to the store (same
 * 16-byte block) puts the store into a set in iteration 0. A load at 0x1006
 * shares the store's entry: from iteration 1 on it waits for the store, and
 * iteration i >= 1 is the chain division (20), store (1), load (1, its
 * value written back in 1), 22 cycles. A
 * load at 0x1008 has an entry of its own and never waits: the divisions
 * overlap, and only the stores, ordered in their set (see the next case),
 * follow one another a cycle apart. The trainer reads the block before the
 * store has executed (it waits for the division, until 20): a violation,
 * and fetch starts again at 20 (penalty 0): iteration 1's division ends at
 * 40, its store at 41, and the loads at 0x1006 end at 42 + 22 (N - 2);
 * with the load at 0x1008 the last store ends at 41 + (N - 2).
 */
static void test_store_set_index(void)
{
    enum { N = 64 };
    static edan_exec r[4 * N];
    static edan_insn div, st, ld[2], trainer;
    div = add(EDAN_REG_X(10), EDAN_REG_X(11), 0x1000);
    div.cls = EDAN_CLASS_DIV;
    st = store(EDAN_REG_X(10), EDAN_REG_X(2), 0x1004, 2);
    trainer = load(EDAN_REG_X(12), EDAN_REG_X(2), 0x2000);
    for (int alias = 1; alias >= 0; alias--) {
        ld[alias] = load(EDAN_REG_X(11), EDAN_REG_X(3), alias ? 0x1006 : 0x1008);
        ld[alias].size = 2;
        size_t n = 0;
        for (int i = 0; i < N; i++) {
            r[n++] = rec(&div, 0);
            r[n++] = rec(&st, 0x8000 + 16 * (uint64_t)i);
            r[n++] = rec(&ld[alias], 0x100000 + 8 * (uint64_t)i);
            if (i == 0)
                r[n++] = rec(&trainer, 0x8000 + 8);
        }
        double c = store_set_cycles(r, n), want = alias ? 42 + 22 * (N - 2) : 41 + (N - 2);
        CHECK(c == want, "a load %s the store's 4-byte word: %g cycles, expected %g", alias ? "in" : "outside", c,
              want);
    }
}

/*
 * gem5's store sets order the stores of a set as well: a store waits for
 * the set's last store before it. Per iteration i a division feeds store P
 * (2 bytes at 0x1004, to 32i), store Q (2 bytes at 0x1006, the same SSIT
 * entry, so the same set) writes a constant to 32i + 16, and a load reads
 * Q's bytes and feeds the next division. A trainer load in iteration 0
 * reads the other half of P's 16-byte block before P has executed (P waits
 * for the division): a violation, which puts P (and so Q) in a set, and
 * fetch starts again when P executes (20; penalty 0). From iteration 1 Q
 * waits for P, and the loop is the chain division (20), P (1), Q (1), the
 * load (1, its value written back in 1). In iteration 1 the load also
 * violates (it does not know Q's address before Q executes, at 41, and it
 * is in no set yet): it is fetched again then, reads Q's data (42) and
 * ends at 43; it is in Q's set from then on, and iteration i ends at
 * 43 + 23 (i - 1).
 * Without the order Q would not wait for the division, nor the load for
 * Q, and the divisions would overlap.
 */
static void test_store_set_stores(void)
{
    enum { N = 64 };
    static edan_exec r[5 * N];
    static edan_insn div, sp, sq, ld, trainer, warm;
    div = add(EDAN_REG_X(10), EDAN_REG_X(11), 0x1000);
    div.cls = EDAN_CLASS_DIV;
    sp = store(EDAN_REG_X(10), EDAN_REG_X(2), 0x1004, 2);
    sq = store(0, EDAN_REG_X(2), 0x1006, 2);
    ld = load(EDAN_REG_X(11), EDAN_REG_X(2), 0x1008);
    trainer = load(EDAN_REG_X(12), EDAN_REG_X(2), 0x2000);
    /* the lines are cached first, so that no access waits for another's fill */
    warm = load(EDAN_REG_X(20), EDAN_REG_X(3), 0x3000);
    size_t n = 0;
    for (uint64_t at = 0x8000; at < 0x8000 + 32 * N; at += LINE)
        r[n++] = rec(&warm, at);
    for (int i = 0; i < N; i++) {
        const uint64_t a = 0x8000 + 32 * (uint64_t)i, b = a + 16;
        r[n++] = rec(&div, 0);
        r[n++] = rec(&sp, a);
        r[n++] = rec(&sq, b);
        r[n++] = rec(&ld, b);
        if (i == 0)
            r[n++] = rec(&trainer, a + 8);
    }
    double c = store_set_cycles(r, n), want = 43 + 23 * (N - 2);
    CHECK(c == want, "stores of one set in order: %g cycles, expected %g", c, want);
}

/*
 * Misses in time order (timing_lanes.h, miss_ahead()): a load A whose
 * address comes from a division (20 cycles) misses, and a younger load B of
 * the same line, its address ready, reaches the L1d first: the line's miss
 * is B's, sent at dispatch, and A finds the line on its way, as when A's own
 * address is ready at once: an add that uses A ends at the same cycle in
 * both. With B in another line A's miss is its own, sent after the
 * division: 20 cycles later. In program order (the cache model's) A, the
 * older, took the miss in all three, and the first stream came out as the
 * third.
 */
static void test_miss_order(void)
{
    static edan_exec r[8];
    static edan_insn div, a_late, a_now, b, use;
    div = add(EDAN_REG_X(10), EDAN_REG_X(11), 0x1000);
    div.cls = EDAN_CLASS_DIV;
    a_late = load(EDAN_REG_X(12), EDAN_REG_X(10), 0x1004);
    a_now = load(EDAN_REG_X(12), EDAN_REG_X(2), 0x1004);
    b = load(EDAN_REG_X(13), EDAN_REG_X(3), 0x1008);
    use = add(EDAN_REG_X(14), EDAN_REG_X(12), 0x100c);
    edan_machine m = base_machine();
    m.latency[EDAN_CLASS_DIV] = 20;
    double c[3], lat = 100;
    for (int i = 0; i < 3; i++) {
        r[0] = rec(&div, 0);
        r[1] = rec(i == 1 ? &a_now : &a_late, 0x8000);
        r[2] = rec(&b, i == 2 ? 0x9000 : 0x8008);
        r[3] = rec(&use, 0);
        predict(&m, r, 4, &lat, 1, 64, &c[i], NULL);
    }
    CHECK(c[0] == c[1], "the younger load's miss first: %g cycles, as with the older's address ready: %g", c[0], c[1]);
    CHECK(c[2] == c[1] + 20, "the older load's own miss after the division: %g cycles, expected %g", c[2], c[1] + 20);
}

/*
 * Store-to-load forwarding: a load whose bytes come from one store still
 * in the store queue takes them from there. A store to a line no cache
 * has is followed by a load of its bytes and a division that uses the
 * load. When an older division (100 cycles) holds the store's commit, the
 * load runs long before the store goes to the L1d: forwarded, it never
 * waits for the store's write-allocate miss, and only the first fetch's
 * latency is exposed. When the load's address comes from that division
 * (three additions after it) instead, the store has gone to the L1d by then
 * (it commits with the division) and the load waits for the line like any
 * access: two latencies. When the
 * store's data comes from the division and the load, its address ready,
 * waits for the store's bytes, the load starts when the store executes,
 * which is when the store, at the head of the window, commits: it is still
 * in the queue (sent a cycle after its commit, after that cycle's loads, as
 * gem5's IEW does) and forwards: one latency (adi's q[i][j-1], stored the
 * turn before, 2026-11-29: two, the model's slope +52 %).
 */
static void test_forwarding(void)
{
    static edan_exec r[7];
    static edan_insn slow, st, st_data, ld[2], use, hop[3];
    slow = add(EDAN_REG_X(10), EDAN_REG_X(10), 0x1000);
    slow.cls = EDAN_CLASS_DIV;
    st = store(0, EDAN_REG_X(2), 0x1004, 4);
    st.mem_size = 8;
    st_data = store(EDAN_REG_X(10), EDAN_REG_X(2), 0x1004, 4);
    st_data.mem_size = 8;
    ld[0] = load(EDAN_REG_X(11), EDAN_REG_X(2), 0x1008);
    ld[1] = load(EDAN_REG_X(11), EDAN_REG_X(13), 0x1008);
    hop[0] = add(EDAN_REG_X(13), EDAN_REG_X(10), 0x1010);
    hop[1] = add(EDAN_REG_X(13), EDAN_REG_X(13), 0x1014);
    hop[2] = add(EDAN_REG_X(13), EDAN_REG_X(13), 0x1018);
    use = add(EDAN_REG_X(12), EDAN_REG_X(11), 0x100c);
    use.cls = EDAN_CLASS_DIV;
    for (int late = 0; late < 3; late++) {
        size_t n = 0;
        r[n++] = rec(&slow, 0);
        r[n++] = rec(late == 2 ? &st_data : &st, fresh(1));
        for (int h = 0; late == 1 && h < 3; h++)
            r[n++] = rec(&hop[h], 0);
        r[n++] = rec(&ld[late == 1], fresh(1));
        r[n++] = rec(&use, 0);
        edan_machine m = base_machine();
        m.latency[EDAN_CLASS_DIV] = 100;
        double e = exposed(&m, r, n), want = late == 1 ? 2 : 1;
        CHECK(e == want, "a load of a store's bytes %s: %g latencies exposed, expected %g",
              late == 1   ? "after the store went to the L1d"
              : late == 2 ? "as the store commits"
                          : "forwarded",
              e, want);
    }
}

static void test_bad_machine(void)
{
    edan_machine m = base_machine();
    m.n_data_levels = 1;
    edan_error err = {0};
    double lat = 100;
    CHECK(edan_timing_new(&m, &lat, 1, &err) == NULL && err.set, "a machine without an L2 is refused");
    m = base_machine();
    edan_error_clear(&err);
    CHECK(edan_timing_new(&m, &lat, 0, &err) == NULL && err.set, "no latency is refused");
}

int main(void)
{
    test_chain();
    test_mshrs();
    test_mshr_targets();
    test_rob();
    test_issue_queue();
    test_bandwidth();
    test_l1i();
    test_fetch_taken();
    test_fetch_blocks();
    test_limits();
    test_batches();
    test_predictors();
    test_dividers();
    test_issue_interval();
    test_store_sets();
    test_store_set_index();
    test_store_set_stores();
    test_forwarding();
    test_miss_order();
    test_bad_machine();
    return check_summary();
}
