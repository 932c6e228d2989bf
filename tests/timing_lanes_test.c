/*
 * The timing model's lanes are independent: one pass with N memory
 * latencies gives, at each latency, exactly what a pass with that latency
 * alone gives (analysis/timing.h: the cache contents, the predictor and the
 * dependencies are shared; every time is per lane). Compared: the cycles,
 * the memory stall, the time and stall attributed to every static
 * instruction, and the counts, on random streams that exercise every part
 * of the model (misses at every level, MSHRs and their targets, finite
 * bandwidth, a small window and issue queue, stores and forwarding, store
 * sets, dividers, branches, fetch blocks and L1i misses) with up to 32
 * latencies in any order, repeated and zero included. The pass with many
 * latencies runs them in 1 to 4 lane groups on threads
 * (edan_timing_new_threaded()), which must change nothing.
 *
 * The lanes of one pass and a pass of one lane may run different builds of
 * the step (timing_lanes.h: four lanes at a time, or one), which this holds
 * to each other; what every build computes alike is held to a digest of
 * every result of these streams, first taken from the model as it was
 * before it took lanes as vectors (a671044) and taken again when a rule of
 * the model changed (serializing instructions, and their count). A change to the model's
 * rules changes the digest; the test prints the new one.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/timing.h"
#include "check.h"
#include "isa/riscv_ops.h"
#include "random_trace.h"
#include "timing_check.h"

#define NRECS 4000
#define NIDS 40

/* A small machine where every limit bites on a random stream. */
static edan_machine small_machine(void)
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
    m.l1i = (edan_machine_cache){{512, line, 2, false, false}, 1 + (uint32_t)rt_below(2), 2, 4};
    m.n_data_levels = 2 + (int)rt_below(2);
    m.data[0] = (edan_machine_cache){
        {512, line, 2, wb, wb}, 1 + (uint32_t)rt_below(3), 1 + (uint32_t)rt_below(4), 1 + (uint32_t)rt_below(6)};
    m.data[1] =
        (edan_machine_cache){{2048, line, 4, true, true}, 5 + (uint32_t)rt_below(10), 1 + (uint32_t)rt_below(8), 4};
    m.data[2] = (edan_machine_cache){{8192, line, 8, true, true}, 20, 4 + (uint32_t)rt_below(8), 8};
    m.mem_latency_ns = 100;
    m.mem_bandwidth_gbs = 1.0 + (double)rt_below(32);
    return m;
}

/*
 * n records over table[0..NIDS-1]: pcs in a loop of NIDS instructions over a
 * few fetch blocks and L1i lines, conditional branches whose outcome the
 * next record's pc shows, addresses over a few KiB (hits, misses at every
 * level, lines in flight) and now and then far away.
 */
static void random_stream(edan_insn *table, edan_exec *recs, size_t n)
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

typedef struct result {
    double cycles, stall;
    double id_cycles[NIDS], id_stall[NIDS];
    edan_timing_counts counts;
} result;

/* The model over recs at lat[0..nl-1], in batches of `batch`: out[k] at lat[k]. 0 or -1. */
static int run(const edan_machine *m, const edan_exec *recs, size_t n, const double *lat, int nl, size_t batch,
               int threads, result *out)
{
    edan_timing *t = timing_run(m, recs, n, lat, nl, batch, threads);
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

static bool same(const result *a, const result *b)
{
    return a->cycles == b->cycles && a->stall == b->stall &&
           memcmp(a->id_cycles, b->id_cycles, sizeof a->id_cycles) == 0 &&
           memcmp(a->id_stall, b->id_stall, sizeof a->id_stall) == 0 &&
           memcmp(&a->counts, &b->counts, sizeof a->counts) == 0;
}

/* FNV-1a over the bytes of a result */
static uint64_t digest(uint64_t h, const result *r)
{
    const unsigned char *p = (const unsigned char *)r;
    for (size_t i = 0; i < sizeof *r; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The digest of every lane's result in test_lanes(), computed by the model with serializing instructions. */
#define MODEL_DIGEST 0xdf6e23f148ec622dull

static void test_lanes(void)
{
    static edan_exec recs[NRECS];
    static edan_insn table[NIDS];
    static result many[EDAN_TIMING_MAX_LATENCIES], one;
    int bad = 0, lanes = 0, stalled = 0, spread = 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int trial = 0; trial < 80; trial++) {
        rt_seed(4242 + (uint64_t)trial);
        const size_t n = 1 + rt_below(NRECS);
        edan_machine m = small_machine();
        random_stream(table, recs, n);
        int nl = 1 + (int)rt_below(EDAN_TIMING_MAX_LATENCIES);
        if (trial % 4 == 0)
            nl = EDAN_TIMING_MAX_LATENCIES;
        double lat[EDAN_TIMING_MAX_LATENCIES];
        for (int k = 0; k < nl; k++)
            /* now and then a latency given before (an earlier index: lat[k] itself is not set yet) */
            lat[k] =
                k && rt_below(8) == 0 ? lat[rt_below((uint64_t)k)] : (double)rt_below(600) + 0.5 * (double)rt_below(2);
        if (run(&m, recs, n, lat, nl, 1 + rt_below(700), 1 + trial % 4, many))
            return;
        for (int k = 0; k < nl; k++)
            h = digest(h, &many[k]);
        for (int k = 0; k < nl; k++) {
            if (run(&m, recs, n, &lat[k], 1, 1 + rt_below(700), 1, &one))
                return;
            lanes++;
            stalled += one.stall > 0;
            if (!same(&many[k], &one)) {
                if (bad < 4)
                    fprintf(stderr,
                            "trial %d lane %d of %d (%g ns): %g cycles (stall %g) in one pass, %g (stall %g) alone\n",
                            trial, k, nl, lat[k], many[k].cycles, many[k].stall, one.cycles, one.stall);
                bad++;
            }
        }
        spread += nl > 1 && many[0].cycles != many[nl - 1].cycles;
    }
    CHECK(bad == 0, "%d of %d lanes differ from the same latency alone", bad, lanes);
    CHECK(h == MODEL_DIGEST, "the results' digest is 0x%016" PRIx64 ", the model's 0x%016" PRIx64, h,
          (uint64_t)MODEL_DIGEST);
    /* the streams are not trivial: memory stalls, and times that depend on the latency */
    CHECK(stalled > lanes / 2 && spread > 40, "%d of %d lanes stall on memory, %d trials differ between lanes", stalled,
          lanes, spread);
}

int main(void)
{
    test_lanes();
    return check_summary();
}
