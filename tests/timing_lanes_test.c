/*
 * The timing model's lanes are independent: one pass with N memory
 * latencies gives, at each latency, exactly what a pass with that latency
 * alone gives (analysis/timing/timing.h: the cache contents, the predictor and the
 * dependencies are shared; every time is per lane). Compared: the cycles,
 * the memory stall, the time and stall attributed to every static
 * instruction, and the counts, on random streams that exercise every part
 * of the model (misses at every level, MSHRs and their targets, finite
 * bandwidth, a small window and issue queue, stores and forwarding, store
 * sets, dividers (partly pipelined too), branches, fetch blocks and L1i misses) with up to 32
 * latencies in any order, repeated and zero included. The pass with many
 * latencies runs them in 1 to 4 lane groups on threads
 * (edan_timing_new_threaded()), which must change nothing.
 * The same again with a random [dram] in place of the fixed-latency memory
 * (every lane its own banks, bus and queues), without the digest.
 *
 * The lanes of one pass and a pass of one lane may run different builds of
 * the step (timing_lanes.h: four lanes at a time, or one), which this holds
 * to each other; what every build computes alike is held to a digest of
 * every result of these streams, first taken from the model as it was
 * before it took lanes as vectors (a671044) and taken again when a rule of
 * the model changed (serializing instructions, and their count), or a count
 * was added (ram_epochs: without its bytes the digest is the one before)
 * or redefined (ram_epochs' epochs bounded by the L1d's MSHRs: without its
 * bytes, 0xdf6e23f148ec622d before and after). A change to the model's
 * rules changes the digest; the test prints the new one.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "timing_check.h"
#include "timing_random.h"

/*
 * FNV-1a over the bytes of a result, but the prefetchers' counts (these
 * machines have none; the bytes before are the same as before they were
 * counted, so the digest still holds the model without prefetchers)
 */
static uint64_t digest(uint64_t h, const result *r)
{
    const unsigned char *p = (const unsigned char *)r;
    for (size_t i = 0; i < offsetof(result, counts) + offsetof(edan_timing_counts, prefetch); i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The digest of every lane's result in test_lanes(), computed by the model with serializing instructions,
 * misses in time order (miss_ahead()), a store forwarding until the cycle after its commit (before it:
 * 0xd1c574020fee3214), clean victims keeping their lines young in the level below
 * (edan_cache_evict_clean(); before it: 0x8d5caa1707b0618e) and the wrong-path fetch's L1i line
 * (before it: 0x684c083822bb8fe7), wrong-path loads (before them: 0xbe6e9934d180115e) with each lane's requests
 * its own and the skipped bytes as decoded (before: 0xe62b0bae1c7a30de; the lanes' requests alone: 0x65d317447d851a2c),
 * a dirty line going up dirty from the level below (cache.h; before it: 0x7b1d3eb03f265c82) and the wrong path's
 * loads of a bisection's other half (timing_bisect.h; before them: 0xaf1098c9fdd62a29), and the stall of a store held
 * by a full store queue whose oldest store writes a line from memory (sq_held(); before it: 0xa862b49a8d9fc8d0),
 * and the commit wait of an instruction whose fetch waits for a code line from memory as stall (front.fetch_ram;
 * before it: 0x74bcbd04072394da).
 */
#define MODEL_DIGEST 0xcaf15600646fb4b0ull
/* the digest is of this many trials of test_lanes() */
#define DIGEST_TRIALS 80

/* A random DRAM in place of the fixed-latency memory (its lanes each have their own banks and queues). */
static edan_machine_dram small_dram(void)
{
    edan_machine_dram d;
    memset(&d, 0, sizeof d);
    d.present = true;
    d.channels = 1u << rt_below(2);
    d.ranks = 1 + (uint32_t)rt_below(2);
    d.banks = 2u << rt_below(3);
    d.bank_groups = rt_below(2) ? 2 : 0;
    d.burst_bytes = 64;
    d.row_bytes = 256u << rt_below(3);
    d.tck = 1;
    d.tburst = 2 + (double)rt_below(4);
    d.tccd_l = d.tburst + 1;
    d.trcd = d.tcl = d.trp = 5 + (double)rt_below(15);
    d.tras = 10 + (double)rt_below(30);
    d.twr = d.trtp = 5;
    d.trtw = 1 + (double)rt_below(3);
    d.twtr = 2 + (double)rt_below(5);
    d.read_queue = 1 + (uint32_t)rt_below(16);
    d.write_queue = 4 + (uint32_t)rt_below(16);
    d.write_high_percent = 85;
    d.write_low_percent = 50;
    d.min_writes_per_switch = 1 + (uint32_t)rt_below(4);
    d.page = (edan_dram_page)rt_below(4);
    d.map = (edan_dram_map)rt_below(3);
    d.sched = (edan_dram_sched)rt_below(2);
    d.frontend_ns = d.backend_ns = (double)rt_below(10);
    return d;
}

static void test_lanes(int trials, bool with_dram, bool inorder)
{
    static edan_exec recs[NRECS];
    static edan_insn table[NIDS];
    static result many[EDAN_TIMING_MAX_LATENCIES], one;
    int bad = 0, lanes = 0, stalled = 0, spread = 0;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int trial = 0; trial < trials; trial++) {
        rt_seed(4242 + (uint64_t)trial);
        const size_t n = 1 + rt_below(NRECS);
        edan_machine m = small_machine();
        if (with_dram)
            m.dram = small_dram();
        if (with_dram || inorder) /* dividers partly pipelined, now and then (the digest is of machines without) */
            small_issue_intervals(&m);
        if (inorder) { /* starts in program order: the issue stage's state is per lane too */
            m.core_model = EDAN_CORE_INORDER;
            m.issue_width = 1 + (uint32_t)rt_below(3);
        }
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
    if (!with_dram && !inorder && trials == DIGEST_TRIALS)
        CHECK(h == MODEL_DIGEST, "the results' digest is 0x%016" PRIx64 ", the model's 0x%016" PRIx64, h,
              (uint64_t)MODEL_DIGEST);
    /* the streams are not trivial: memory stalls, and times that depend on the latency */
    CHECK(stalled > lanes / 2 && spread > trials / 2, "%d of %d lanes stall on memory, %d trials differ between lanes",
          stalled, lanes, spread);
}

/*
 * With prefetchers (stride or next-line at each level, small queues and
 * reserves so that prefetches wait and are dropped), the highest latency's
 * lane decides which accesses find their line in flight and train them
 * (memtime.h): each lane gives exactly what a pass of its latency and the
 * highest gives, and lane groups on threads change nothing (there is one);
 * the counts are the same in every pass.
 */
static void test_prefetch_lanes(int trials)
{
    static edan_exec recs[NRECS];
    static edan_insn table[NIDS];
    static result many[EDAN_TIMING_MAX_LATENCIES], pair[2];
    int bad = 0, lanes = 0, dropped = 0, issued = 0;
    for (int trial = 0; trial < trials; trial++) {
        rt_seed(777 + (uint64_t)trial);
        const size_t n = 1 + rt_below(NRECS);
        edan_machine m = small_machine();
        small_issue_intervals(&m);
        for (int l = 0; l < m.n_data_levels; l++) {
            if (rt_below(3) == 0)
                continue;
            edan_prefetch_config c = {rt_below(2) ? EDAN_PREFETCH_STRIDE : EDAN_PREFETCH_TAGGED,
                                      1 + (uint32_t)rt_below(8),
                                      (uint32_t)rt_below(3),
                                      1 + (uint32_t)rt_below(6),
                                      (uint32_t)rt_below(m.data[l].mshrs),
                                      rt_below(4) == 0,
                                      16,
                                      4,
                                      3,
                                      4,
                                      50};
            if (c.mshr_reserve + 2 > m.data[l].mshrs) /* the machine file's bound: two MSHRs free beyond it */
                c.mshr_reserve = m.data[l].mshrs >= 2 ? m.data[l].mshrs - 2 : 0;
            m.data[l].prefetch = c;
        }
        random_stream(table, recs, n);
        const int nl = 1 + (int)rt_below(EDAN_TIMING_MAX_LATENCIES);
        double lat[EDAN_TIMING_MAX_LATENCIES];
        for (int k = 0; k < nl; k++)
            lat[k] = (double)rt_below(600);
        edan_timing *t = timing_run(&m, recs, n, lat, nl, 1 + rt_below(700), 1 + trial % 4);
        if (!t)
            return;
        for (int k = 0; k < nl; k++)
            dropped += edan_timing_lane_get(t, k).prefetch_dropped > 0;
        for (int l = 0; l < m.n_data_levels; l++)
            issued += edan_timing_counts_get(t)->prefetch[l].issued > 0;
        edan_timing_free(t);
        if (run(&m, recs, n, lat, nl, 1 + rt_below(700), 1 + trial % 4, many))
            return;
        double hi = lat[0];
        for (int k = 1; k < nl; k++)
            hi = lat[k] > hi ? lat[k] : hi;
        for (int k = 0; k < nl; k++) {
            const double two[2] = {lat[k], hi};
            if (run(&m, recs, n, two, 2, 1 + rt_below(700), 1, pair))
                return;
            const result *one = &pair[0];
            lanes++;
            if (!same(&many[k], one) ||
                memcmp(&many[k].counts.prefetch, &one->counts.prefetch, sizeof one->counts.prefetch)) {
                if (bad < 4)
                    fprintf(stderr,
                            "prefetch trial %d lane %d of %d (%g ns): %g cycles in one pass, %g with the highest (%g "
                            "ns) alone\n",
                            trial, k, nl, lat[k], many[k].cycles, one->cycles, hi);
                bad++;
            }
        }
    }
    CHECK(bad == 0, "with prefetchers, %d of %d lanes differ from a pass of their latency and the highest", bad, lanes);
    CHECK(issued > trials * 10 / 24 && dropped > trials * 10 / 24,
          "the streams prefetch (%d) and drop prefetches (%d lanes)", issued, dropped);
}

/*
 * timing_lanes_test [TRIALS]: TRIALS random streams per part (80 by default, those of the digest; the
 * prefetchers' part takes 24 of every 80); fewer in the sanitizer build, whose
 * run of this test checks memory errors, the normal build's the digest too.
 */
int main(int argc, char **argv)
{
    const int trials = argc > 1 ? atoi(argv[1]) : DIGEST_TRIALS;
    if (trials < 4) {
        fprintf(stderr, "usage: timing_lanes_test [TRIALS >= 4]\n");
        return 2;
    }
    test_lanes(trials, false, false);
    test_lanes(trials, true, false); /* with a DRAM: its state is per lane too */
    test_lanes(trials, false, true); /* an in-order core */
    test_prefetch_lanes(trials * 24 / DIGEST_TRIALS);
    return check_summary();
}
