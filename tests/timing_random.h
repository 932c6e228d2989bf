/*
 * timing_random.h - random machines and instruction streams for the timing
 * model's property tests (timing_lanes_test.c, timing_sample_test.c): a
 * small machine where every limit bites, and streams that exercise every
 * part of the model. Deterministic for a seed (random_trace.h).
 */
#ifndef EDAN_TESTS_TIMING_RANDOM_H
#define EDAN_TESTS_TIMING_RANDOM_H

#include <string.h>

#include "analysis/timing/timing.h"
#include "isa/riscv_ops.h"
#include "random_trace.h"
#include "timing_check.h"

#define NRECS 4000
#define NIDS 40

/* A small machine where every limit bites on a random stream. */
static inline edan_machine small_machine(void)
{
    edan_machine m;
    memset(&m, 0, sizeof m);
    strcpy(m.name, "lanes");
    m.clock_ghz = 1.0 + (double)rt_below(3);
    m.fetch_width = 1 + (uint32_t)rt_below(8);
    m.fetch_taken_limit = (uint32_t)rt_below(3);
    m.fetch_block_bytes = rt_below(2) ? 16u << rt_below(3) : 0;
    m.frontend_cycles = (uint32_t)rt_below(6);
    m.dispatch_width = 1 + (uint32_t)rt_below(8);
    m.issue_width = 8;
    m.commit_width = 1 + (uint32_t)rt_below(8);
    m.rob_entries = 4 + (uint32_t)rt_below(120);
    m.lq_entries = 1 + (uint32_t)rt_below(32);
    m.sq_entries = 1 + (uint32_t)rt_below(32);
    m.iq_entries = 1 + (uint32_t)rt_below(64);
    m.int_div_units = 1 + (uint32_t)rt_below(2);
    m.fp_div_units = 1 + (uint32_t)rt_below(2);
    m.mispredict_penalty = (uint32_t)rt_below(12);
    m.serialize_cycles = (uint32_t)rt_below(8);
    m.predictor = rt_below(2) ? EDAN_PRED_TOURNAMENT : EDAN_PRED_BIMODAL;
    m.predictor_entries = 64;
    m.store_set_bytes = rt_below(3) ? 8u << rt_below(2) : 0;
    for (int c = 0; c < EDAN_CLASS_COUNT; c++)
        m.latency[c] = 1 + (uint32_t)rt_below(4);
    m.latency[EDAN_CLASS_DIV] = 5 + (uint32_t)rt_below(20);
    m.latency[EDAN_CLASS_FDIV] = 5 + (uint32_t)rt_below(20);
    m.latency[EDAN_CLASS_FSQRT] = 5 + (uint32_t)rt_below(20);
    const uint32_t line = 64;
    const bool wb = rt_below(2);
    m.l1i = (edan_machine_cache){{512, line, 2, false, false}, 1 + (uint32_t)rt_below(2), 2, 4, {0}};
    m.n_data_levels = 2 + (int)rt_below(2);
    m.data[0] = (edan_machine_cache){
        {512, line, 2, wb, wb}, 1 + (uint32_t)rt_below(3), 1 + (uint32_t)rt_below(4), 1 + (uint32_t)rt_below(6), {0}};
    m.data[1] = (edan_machine_cache){
        {2048, line, 4, true, true}, 5 + (uint32_t)rt_below(10), 1 + (uint32_t)rt_below(8), 4, {0}};
    m.data[2] = (edan_machine_cache){{8192, line, 8, true, true}, 20, 4 + (uint32_t)rt_below(8), 8, {0}};
    m.mem_latency_ns = 100;
    m.mem_bandwidth_gbs = 1.0 + (double)rt_below(32);
    return m;
}

/*
 * Random [issue_interval]s on m: each divider class busy for its latency (0)
 * or for part of it. Apart from small_machine(), whose machines (and draws)
 * stay those timing_lanes_test's digest was taken on.
 */
static inline void small_issue_intervals(edan_machine *m)
{
    const int dividers[] = {EDAN_CLASS_DIV, EDAN_CLASS_FDIV, EDAN_CLASS_FSQRT};
    for (int i = 0; i < 3; i++)
        m->issue_interval[dividers[i]] = rt_below(2) ? 1 + (uint32_t)rt_below(m->latency[dividers[i]]) : 0;
}

/*
 * n records over table[0..NIDS-1]: pcs in a loop of NIDS instructions over a
 * few fetch blocks and L1i lines, conditional branches whose outcome the
 * next record's pc shows, addresses over a few KiB (hits, misses at every
 * level, lines in flight) and now and then far away.
 */
static inline void random_stream(edan_insn *table, edan_exec *recs, size_t n)
{
    for (int i = 0; i < NIDS; i++) {
        rt_random_insn(&table[i]);
        table[i].pc = 0x10000 + 4 * (uint64_t)i + (i >= NIDS / 2 ? 0x2000 : 0);
        table[i].size = 4;
        static const uint8_t heavy[] = {EDAN_CLASS_DIV, EDAN_CLASS_FDIV, EDAN_CLASS_FSQRT, EDAN_CLASS_MUL};
        if (table[i].mem == EDAN_MEM_NONE && rt_below(3) == 0)
            table[i].cls = heavy[rt_below(4)];
        if (table[i].mem == EDAN_MEM_NONE && rt_below(4) == 0)
            table[i].flow = EDAN_FLOW_BRANCH;
        else if (table[i].mem == EDAN_MEM_NONE && rt_below(16) == 0) { /* a CSR access: it serializes */
            table[i].op = EDAN_OP_CSRRS;
            table[i].fmt = EDAN_FMT_CSR;
            table[i].cls = EDAN_CLASS_INT;
        } else if (rt_below(20) == 0)
            table[i].flow = (uint8_t)(EDAN_FLOW_CALL + rt_below(3)) /* a call, return or jump */;
    }
    size_t at = 0;
    const uint64_t base = 0x400000 + 8 * rt_below(1024);
    for (size_t i = 0; i < n; i++) {
        /* a branch's outcome: the next record is the fall-through or elsewhere */
        if (i && recs[i - 1].insn->flow != EDAN_FLOW_NONE && rt_below(3) == 0)
            at = rt_below(NIDS);
        const edan_insn *in = &table[at];
        at = (at + 1) % NIDS;
        memset(&recs[i], 0, sizeof recs[i]);
        recs[i].insn = in;
        recs[i].id = (uint32_t)(in - table);
        if (in->mem != EDAN_MEM_NONE) {
            uint64_t r = rt_below(16);
            recs[i].addr = r < 10   ? base + 8 * rt_below(512)
                           : r < 15 ? base + 8 * rt_below(65536)
                                    : 0x7f000000 + 8 * rt_below(1u << 20);
            if (in->mem == EDAN_MEM_STORE && rt_below(50) == 0)
                recs[i].flags = EDAN_EXEC_NO_ACCESS; /* a failed sc */
        }
    }
}

/* What a pass gives at one latency: every result the tests compare. */
typedef struct result {
    double cycles, stall;
    double id_cycles[NIDS], id_stall[NIDS];
    edan_timing_counts counts;
} result;

/* The model over recs at lat[0..nl-1], in batches of `batch`, sampled as smp says (NULL: not): out[k] at lat[k]. 0
 * or -1. */
static inline int run_sampled(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat, int nl,
                              size_t batch, int threads, const edan_timing_sampling *smp, result *out)
{
    edan_timing *t = timing_run_sampled(m, recs, n, lat, nl, batch, threads, smp);
    if (!t)
        return -1;
    for (int k = 0; k < nl; k++) {
        memset(&out[k], 0, sizeof out[k]);
        edan_timing_lane l = edan_timing_lane_get(t, k);
        out[k].cycles = l.cycles;
        out[k].stall = l.mem_stall_cycles;
        for (uint32_t id = 0; id < NIDS; id++) {
            out[k].id_cycles[id] = edan_timing_id_cycles(t, id, k);
            out[k].id_stall[id] = edan_timing_id_stall(t, id, k);
        }
        out[k].counts = *edan_timing_counts_get(t);
    }
    edan_timing_free(t);
    return 0;
}

static inline bool same(const result *a, const result *b)
{
    return a->cycles == b->cycles && a->stall == b->stall &&
           memcmp(a->id_cycles, b->id_cycles, sizeof a->id_cycles) == 0 &&
           memcmp(a->id_stall, b->id_stall, sizeof a->id_stall) == 0 &&
           memcmp(&a->counts, &b->counts, sizeof a->counts) == 0;
}

static inline int run(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat, int nl, size_t batch,
                      int threads, result *out)
{
    return run_sampled(m, recs, n, lat, nl, batch, threads, NULL, out);
}

#endif
