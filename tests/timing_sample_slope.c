/*
 * The sampled schedule's slope against --exact's where misses are few
 * units', what dense periods change (the units of their own stretch
 * only; not a regular rise of the rate), other draws of the units, and
 * the estimator's interval where the sampled units hold few misses or none
 * (part of timing_sample_test: timing_sample_test.c calls
 * timing_sample_slope_tests() and adds its checks' counts to its own).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "timing_check.h"
#include "timing_random.h"

void timing_sample_slope_tests(unsigned long *passed, unsigned long *failed, int streams);

/* The slope as cycles: lane 1's (300 ns) less lane 0's (50 ns). */
static double slope_cycles(const edan_timing *t)
{
    return edan_timing_lane_get(t, 1).cycles - edan_timing_lane_get(t, 0).cycles;
}

/*
 * The model on wide_machine() at 50 and 300 ns over r[0..n) (batches of
 * 4096, one thread), sampled as smp says (NULL: not), with info its sample
 * info: NULL after a failed check. The caller frees it.
 */
static edan_timing *wide_run(const edan_exec *r, size_t n, const edan_timing_sampling *smp,
                             edan_timing_sample_info *info)
{
    const edan_machine m = wide_machine();
    const double lat[2] = {50, 300};
    edan_timing *t = timing_run_sampled(&m, r, n, lat, 2, 4096, 1, smp);
    if (t && info)
        edan_timing_sample_info_get(t, info);
    return t;
}

/*
 * Misses in bursts that few units see (trmm's, 2mm's): a stream of
 * additions with a fresh line loaded at a random place in every 1500
 * records, and in its second half bursts of 64 lines back to back, one
 * in about 40,000 records; 16 L1d MSHRs. A burst exposes about 64 / 16
 * latencies, an isolated miss one. Sampled at the default unit and
 * warm-up, periods of 16000 after an exact start of 40 periods of each
 * shorter length (isolated misses only): most units hold an isolated miss
 * or none, where a line and an epoch are the same count, and the fit must
 * price the bursts of the skipped stretches by their epochs. The slope
 * (cycles at 300 ns less at 50 ns) within 5 % of --exact's on each of 6
 * streams. With an epoch that ended a window after the last miss (a burst
 * one epoch of 64 lines, priced by its lines) one was 22 % high; with the
 * fit on the sampled units alone, the few that held a burst's edge priced
 * the lines (+7 %, and +20 % without the exact start).
 */
/* test_burst_slope()'s stream number `trial` in r[0..n): the load's records have id 0, the additions' 1 to 4. */
static size_t burst_stream(edan_exec *r, size_t n, int trial, const edan_insn *ld, const edan_insn *op)
{
    enum { BURST = 64 };
    rt_seed(6060 + (uint64_t)trial);
    size_t lines = 0, bursts = 0;
    for (size_t i = 0; i < n;) {
        if (i >= n / 2 && rt_below(40000) == 0 && i + BURST <= n) {
            for (int b = 0; b < BURST; b++)
                r[i++] = rec(ld, fresh(lines++));
            bursts++;
            continue;
        }
        if (rt_below(1500) == 0) {
            r[i] = rec(ld, fresh(lines++));
        } else {
            r[i] = rec(&op[i % 4], 0);
            r[i].id = 1 + (uint32_t)(i % 4);
        }
        i++;
    }
    return bursts;
}

static void burst_code(edan_insn *ld, edan_insn *op)
{
    *ld = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1000);
    for (int i = 0; i < 4; i++) /* four chains of additions: a few per cycle */
        op[i] = add(EDAN_REG_X(7 + i), EDAN_REG_X(7 + i), 0x1004 + 4 * (uint64_t)i);
}

/* The slope of id's row as cycles (slope_cycles()). */
static double row_slope(const edan_timing *t, uint32_t id)
{
    return edan_timing_id_cycles(t, id, 1) - edan_timing_id_cycles(t, id, 0);
}

/*
 * Also the rows of these streams: the bursts the units missed are the
 * load's (it brings every line), so its row takes their price and the
 * additions' rows keep their units' own cycles (their exact slope is
 * negative: at a higher latency more of their time hides under the load's
 * wait). Each row's slope within 5 % (the load) and 2 % (the additions,
 * together) of the whole run's exact slope from its exact row's, and the
 * rows sum to each lane's estimate. Scaling every row by its lane's
 * estimate over the rows' sum (before fold_unit() and the rows' share of
 * the missed counts) gave the additions the bursts' price in proportion to
 * their cycles: 5 of 6 streams off by 2.8 to 9.1 % (the load's row by up
 * to 9.5 %); now 1.2 % at most.
 */
static void burst_rows(int trial, const edan_timing *e, const edan_timing *t)
{
    const double whole = slope_cycles(e);
    double ops_exact = 0, ops = 0;
    for (uint32_t id = 1; id <= 4; id++) {
        ops_exact += row_slope(e, id);
        ops += row_slope(t, id);
    }
    const double ld_exact = row_slope(e, 0), lds = row_slope(t, 0);
    CHECK(fabs(lds - ld_exact) <= 0.05 * whole && fabs(ops - ops_exact) <= 0.02 * whole,
          "stream %d: the load's row's slope sampled %.0f cycles, exact %.0f; the additions' %.0f, exact "
          "%.0f (the whole run's exact %.0f)",
          trial, lds, ld_exact, ops, ops_exact, whole);
    for (int k = 0; k < 2; k++) {
        double sum = 0;
        for (uint32_t id = 0; id <= 4; id++)
            sum += edan_timing_id_cycles(t, id, k);
        const double lane = edan_timing_lane_get(t, k).cycles;
        CHECK(fabs(sum - lane) <= 1e-9 * lane, "stream %d lane %d: rows %.17g, estimate %.17g", trial, k, sum, lane);
    }
}

static void test_burst_slope(int streams)
{
    enum { N = 800000 };
    static edan_exec r[N];
    static edan_insn ld, op[4];
    burst_code(&ld, op);
    const edan_timing_sampling smp = {EDAN_TIMING_SAMPLE_UNIT, EDAN_TIMING_SAMPLE_WARMUP, 16000, 40, 0};
    for (int trial = 0; trial < streams; trial++) {
        const size_t bursts = burst_stream(r, N, trial, &ld, op);
        edan_timing *e = wide_run(r, N, NULL, NULL);
        edan_timing *t = e ? wide_run(r, N, &smp, NULL) : NULL;
        if (t) {
            const double exact = slope_cycles(e), sampled = slope_cycles(t);
            CHECK(bursts > 3 && fabs(sampled - exact) <= 0.05 * exact,
                  "stream %d (%zu bursts): the slope sampled %.0f cycles, exact %.0f (%+.1f %%)", trial, bursts,
                  sampled, exact, 100 * (sampled - exact) / exact);
            burst_rows(trial, e, t);
        }
        edan_timing_free(t);
        edan_timing_free(e);
    }
}

/*
 * Code that runs once, in a stretch of 200 records (a chain of additions
 * of its own, id 5, in the loop's fetch line: no miss of its own), at 32
 * places 250 records apart after 100,000 records of the burst streams' loop (a
 * fresh line every 1500 records), sampled at units of 1000 in periods of
 * 8000 after a short exact start. A unit weighted by its period (8) stood
 * for 8 times the stretch's cycles where it measured it; the rows are
 * ratios per id (ratio_rows(), timing_sample.c): where a unit holds the
 * stretch its row is its own cycles, where one holds part of it the part's
 * cycles an execution, and never above its exact cycles by more than 20 %
 * in a lane; at some of the places within 10 % (3 of 32, at most 1.12
 * times; weighted by the unit, 4 places 8.04 times in both lanes, none
 * within 10 %).
 */
static void test_rare_code_rows(void)
{
    enum { N = 120000, AT = 100000, LEN = 200, PLACES = 32 };
    static edan_exec r[N];
    static edan_insn ld, op[4];
    burst_code(&ld, op);
    const edan_insn once = add(EDAN_REG_X(11), EDAN_REG_X(11), 0x1014);
    const edan_timing_sampling smp = {1000, 500, 8000, 2, 0};
    int over = 0, close = 0;
    double worst = 0;
    for (int place = 0; place < PLACES; place++) {
        size_t lines = 0;
        const size_t from = AT + 250 * (size_t)place;
        for (size_t i = 0; i < N; i++) {
            if (i >= from && i < from + LEN) {
                r[i] = rec(&once, 0);
                r[i].id = 5;
            } else if (i % 1500 == 0) {
                r[i] = rec(&ld, fresh(lines++));
            } else {
                r[i] = rec(&op[i % 4], 0);
                r[i].id = 1 + (uint32_t)(i % 4);
            }
        }
        edan_timing *e = wide_run(r, N, NULL, NULL);
        edan_timing *t = e ? wide_run(r, N, &smp, NULL) : NULL;
        if (t) {
            bool near = true;
            for (int k = 0; k < 2; k++) {
                const double x = edan_timing_id_cycles(e, 5, k), y = edan_timing_id_cycles(t, 5, k);
                over += y > 1.2 * x;
                near = near && fabs(y - x) <= 0.1 * x;
                worst = y / x > worst ? y / x : worst;
            }
            close += near;
        }
        edan_timing_free(t);
        edan_timing_free(e);
    }
    CHECK(over == 0 && close >= 1,
          "code run once: its row above 1.2 times its exact cycles in %d lanes of %d places, within 10 %% in %d; "
          "at most %.2f times",
          over, PLACES, close, worst);
}

/*
 * Rows on random streams (timing_random.h's, with phases of misses: the
 * stream's loads read fresh lines in bursts in a random third of it), at
 * one to four latencies, sampled at random units and periods: in every
 * lane each row is at least 0, its stall between 0 and its cycles, the
 * rows sum to the lane's estimate and their stalls to its stall. A row of
 * a few heavily weighted units could come out below 0 before the misses'
 * price was lowered for it (price_rows(), timing_sample.c).
 */
static void test_rows_random(int streams)
{
    enum { N = 240000 };
    static edan_exec r[N];
    static edan_insn table[NIDS];
    int negative = 0;
    for (int trial = 0; trial < 4 * streams; trial++) {
        rt_seed(9090 + (uint64_t)trial);
        edan_machine m = small_machine();
        random_stream(table, r, NRECS);
        const size_t burst_from = rt_below(N), burst_to = burst_from + N / 3;
        size_t lines = 0;
        for (size_t i = NRECS; i < N; i++) {
            r[i] = r[i % NRECS];
            if (r[i].addr && i >= burst_from && i < burst_to && rt_below(4) == 0)
                r[i].addr = fresh(lines++);
            else if (r[i].addr)
                r[i].addr += 8 * rt_below(256);
        }
        const int nl = 1 + (int)rt_below(4);
        double lat[4];
        for (int k = 0; k < nl; k++)
            lat[k] = 20 + (double)rt_below(600);
        const uint64_t u = 50 + rt_below(500), w = rt_below(500);
        const edan_timing_sampling smp = {u, w, 4 * (u + w) + rt_below(20000), rt_below(4), 0};
        edan_timing *t = timing_run_sampled(&m, r, N, lat, nl, 1 + rt_below(5000), 1, &smp);
        if (!t)
            return;
        for (int k = 0; k < nl; k++) {
            const edan_timing_lane l = edan_timing_lane_get(t, k);
            double sum = 0, stall = 0;
            for (uint32_t id = 0; id < NIDS; id++) {
                const double c = edan_timing_id_cycles(t, id, k), st = edan_timing_id_stall(t, id, k);
                negative += c < 0 || st < 0 || st > c;
                sum += c;
                stall += st;
            }
            CHECK(fabs(sum - l.cycles) <= 1e-9 * l.cycles && fabs(stall - l.mem_stall_cycles) <= 1e-9 * l.cycles,
                  "stream %d lane %d: rows %.17g cycles, stall %.17g; the lane %.17g, %.17g", trial, k, sum, stall,
                  l.cycles, l.mem_stall_cycles);
        }
        edan_timing_free(t);
    }
    CHECK(negative == 0, "%d rows below 0 or with a stall outside [0, cycles]", negative);
}

/*
 * Misses in a phase (spills.tsp's: its last four periods held three quarters
 * of the memory lines of the run's sampled part): a stream of additions
 * whose last 256,000 records load fresh lines, one in 4 records, in runs of
 * random length at random places, each run chasing pointers (a load's
 * address its predecessor's value: a latency per line) or not (a latency
 * per 16 lines, the L1d's MSHRs), so that a unit's cost is not a fixed
 * price of its counts. At periods of 16000 after an exact start of 40
 * periods of each shorter length, a unit per period gives the phase 16
 * units: slopes up to 14 % off --exact's (4 of 6 streams beyond 5 %); the
 * phase's rate of lines, above 8 times the region's, makes its periods dense,
 * and the slope (cycles at 300 ns less at 50 ns) is within 5 % of
 * --exact's, and inside its interval, on each of 6 streams (3.7 % at most:
 * the phase's first period keeps its one unit).
 */
static void test_phase_slope(int streams)
{
    enum { N = 1200000, PHASE = 256000 };
    static edan_exec r[N];
    static edan_insn chase, stream, op[4];
    chase = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    stream = load(EDAN_REG_X(6), EDAN_REG_X(12), 0x1020);
    for (int i = 0; i < 4; i++)
        op[i] = add(EDAN_REG_X(7 + i), EDAN_REG_X(7 + i), 0x1004 + 4 * (uint64_t)i);
    const edan_timing_sampling smp = {EDAN_TIMING_SAMPLE_UNIT, EDAN_TIMING_SAMPLE_WARMUP, 16000, 40, 0};
    for (int trial = 0; trial < streams; trial++) {
        rt_seed(7070 + (uint64_t)trial);
        size_t lines = 0;
        for (size_t i = 0; i < N;) {
            if (i >= N - PHASE && rt_below(400) == 0) { /* a run of lines */
                const edan_insn *ld = rt_below(2) ? &chase : &stream;
                for (size_t k = 20 + rt_below(300); k && i < N; k--, i++)
                    r[i] = i % 4 ? rec(&op[i % 4], 0) : rec(ld, fresh(lines++));
                continue;
            }
            r[i] = rec(&op[i % 4], 0);
            i++;
        }
        edan_timing *e = wide_run(r, N, NULL, NULL);
        edan_timing_sample_info info;
        edan_timing *t = e ? wide_run(r, N, &smp, &info) : NULL;
        if (t) {
            const double exact = slope_cycles(e), sampled = slope_cycles(t);
            const double half = info.slope_half * 250 * edan_timing_lane_get(t, 0).cycles /
                                (edan_timing_lane_get(t, 0).seconds * 1e9); /* ns per ns to cycles over 250 ns */
            CHECK(lines > 1000 && fabs(sampled - exact) <= 0.05 * exact && fabs(sampled - exact) <= half + 0.5,
                  "stream %d (%zu lines): the slope sampled %.1f +- %.1f cycles, exact %.1f (%+.2f %%)", trial, lines,
                  sampled, half, exact, 100 * (sampled - exact) / exact);
        }
        edan_timing_free(t);
        edan_timing_free(e);
    }
}

/*
 * Dense periods change their own stretch's units only: a stream of
 * additions with an isolated miss every 1499 records (so a unit holds one
 * or two of them by where it lies), with and without a memory phase in
 * its middle (64,000 records loading a fresh line in every 4: dense
 * periods there and a period after it) and the same records after it. Every full period takes the
 * draw of its place, so the tail's units (from 56,000 records after the phase) lie at the
 * same places in both
 * runs, and the tail's addition, which brings no line (its row is its
 * units' own cycles, weighted: none of the misses' price, which the phase
 * moves), gets the same cycles in both. With the units' draws taken in turn, the phase's 8 draws
 * a period moved every later unit (3mm's slope 1.1 -> 8.1 % off --exact,
 * its units unbiased: a new draw).
 */
static void test_dense_keeps_draws(void)
{
    enum { N = 600000, PHASE = 200000, PHASE_END = 264000, TAIL = 320000 };
    static edan_exec r[N];
    static edan_insn ld, op, tail_ld, tail_op;
    load_and_add(&ld, &op);
    tail_ld = load(EDAN_REG_X(8), EDAN_REG_X(6), 0x1008);
    tail_op = add(EDAN_REG_X(9), EDAN_REG_X(9), 0x100c);
    const edan_timing_sampling smp = {500, 250, 16000, 1, 0}; /* dense periods of 2000, a unit of 500 in each */
    for (int trial = 0; trial < 4; trial++) {
        double add[2] = {0, 0};
        uint64_t units[2] = {0, 0};
        for (int phase = 0; phase < 2; phase++) {
            size_t lines = 0, phase_lines = 1u << 20, tail_lines = 1u << 21; /* the tail's lines the same in both */
            const size_t shift = 300 * (size_t)trial; /* where the misses lie against the periods */
            for (size_t i = 0; i < N; i++) {
                const bool miss = (i + shift) % 1499 == 0;
                if (i < PHASE)
                    r[i] = miss ? rec(&ld, fresh(lines++)) : rec(&op, 0);
                else if (i < PHASE_END)
                    r[i] = phase && i % 4 == 0 ? rec(&ld, fresh(phase_lines++)) : rec(&op, 0);
                else if (i < TAIL) /* dense up to a period (16,000) below the rate after the phase */
                    r[i] = miss ? rec(&ld, fresh(tail_lines++)) : rec(&op, 0);
                else
                    r[i] = miss ? rec(&tail_ld, fresh(tail_lines++)) : rec(&tail_op, 0);
                r[i].id = r[i].insn == &tail_ld ? 1 : r[i].insn == &tail_op ? 2 : 0;
            }
            edan_timing_sample_info info;
            edan_timing *t = wide_run(r, N, &smp, &info);
            if (!t)
                return;
            units[phase] = info.units;
            add[phase] = edan_timing_id_cycles(t, 2, 1);
            edan_timing_free(t);
        }
        CHECK(units[1] > units[0] + 20 && add[0] > 0 && fabs(add[1] - add[0]) <= 1e-9 * add[0],
              "shift %d: %" PRIu64 " units without the phase, %" PRIu64 " with it; the tail's addition %.9g "
              "cycles without, %.9g with",
              trial, units[0], units[1], add[0], add[1]);
    }
}

/*
 * A regular kernel whose later loops read more lines than its first
 * (syr2k's later half: 3 times the rate of its first) has no memory
 * phase: a stream of additions with an isolated miss every 1499 records,
 * then every 499, is sampled with the units of a stream whose misses are
 * spread evenly. At twice the region's rate the second half ran in dense
 * periods to its end (syr2k: 2x the instructions scheduled).
 */
static void test_steady_rise_not_dense(void)
{
    enum { N = 600000 };
    static edan_exec r[N];
    static edan_insn ld, op;
    load_and_add(&ld, &op);
    const edan_timing_sampling smp = {500, 250, 16000, 1, 0};
    uint64_t units[2] = {0, 0}, detailed[2] = {0, 0};
    for (int rise = 0; rise < 2; rise++) {
        size_t lines = 0;
        for (size_t i = 0; i < N; i++) {
            const size_t every = rise && i >= N / 2 ? 499 : 1499;
            r[i] = i % every == 0 ? rec(&ld, fresh(lines++)) : rec(&op, 0);
        }
        edan_timing_sample_info info;
        edan_timing *t = wide_run(r, N, &smp, &info);
        if (!t)
            return;
        units[rise] = info.units;
        detailed[rise] = info.detailed;
        edan_timing_free(t);
    }
    CHECK(units[0] > 30 && units[1] == units[0] && detailed[1] < 2 * detailed[0],
          "%" PRIu64 " units (%" PRIu64 " scheduled) with the misses spread evenly, %" PRIu64 " (%" PRIu64
          ") with 3 times their rate in the second half",
          units[0], detailed[0], units[1], detailed[1]);
}

/*
 * The draws' seed (edan_timing_sampling's seed): another seed puts the
 * units elsewhere in the same periods (as many units, but for the last
 * period's, which may fall past the end; other cycles), each draw an
 * estimate of the same exact time: a stream of additions with an isolated
 * miss every 1499 records, sampled with seeds 0 to 3, each within 5 % of
 * --exact's cycles at 300 ns (0.8 % to 2.4 % off), no two seeds' estimates
 * the same.
 */
static void test_seed_draws(void)
{
    enum { N = 600000, SEEDS = 4 };
    static edan_exec r[N];
    static edan_insn ld, op;
    load_and_add(&ld, &op);
    size_t lines = 0;
    for (size_t i = 0; i < N; i++)
        r[i] = i % 1499 == 0 ? rec(&ld, fresh(lines++)) : rec(&op, 0);
    edan_timing *e = wide_run(r, N, NULL, NULL);
    if (!e)
        return;
    const double exact = edan_timing_lane_get(e, 1).cycles;
    edan_timing_free(e);
    double cycles[SEEDS];
    uint64_t units[SEEDS];
    for (int k = 0; k < SEEDS; k++) {
        const edan_timing_sampling smp = {500, 250, 16000, 1, (uint64_t)k};
        edan_timing_sample_info info;
        edan_timing *t = wide_run(r, N, &smp, &info);
        if (!t)
            return;
        cycles[k] = edan_timing_lane_get(t, 1).cycles;
        units[k] = info.units;
        edan_timing_free(t);
        CHECK(fabs(cycles[k] - exact) <= 0.05 * exact && units[k] + 1 >= units[0] && units[k] <= units[0] + 1,
              "seed %d: %.0f cycles in %" PRIu64 " units (seed 0: %" PRIu64 "), exact %.0f", k, cycles[k], units[k],
              units[0], exact);
        for (int j = 0; j < k; j++)
            CHECK(cycles[j] != cycles[k], "seeds %d and %d: the same estimate, %.0f cycles", j, k, cycles[k]);
    }
}

/*
 * Misses so rare that the sampled units often hold none (fits.gapbs-pr's
 * one burst of 12 lines in its sampled stretch, its slope's interval 0
 * wide): populations of blocks of U instructions, an exact start of START
 * blocks measured whole, a burst in one block of 3, then periods of K
 * blocks with one measured at a random place, a burst in one block of 50.
 * A burst is 1 to 16 lines, each costing 50 to 350 cycles (uniform); the
 * blocks cost nothing else, as a slope is made of its misses alone. The
 * units are given their counts (epochs, lines) as the model gives them.
 * The 95 % interval must cover the total in at least 90 % of 1000
 * populations: 92.9 %; the units' spread around the fit alone (b's error
 * and the missed lines' spread left out) covered it in 58.3 %, 298 of its
 * intervals 0 wide.
 */
static void test_rare_bursts_covered(void)
{
    enum { TRIALS = 1000, U = 2000, START = 400, K = 32, PERIODS = 60, UNITS = START + PERIODS };
    static uint64_t x[UNITS], w[UNITS], au[UNITS * EDAN_TIMING_AUX], A[UNITS * EDAN_TIMING_AUX];
    static uint32_t st[UNITS];
    static uint64_t place[UNITS];
    static double y[UNITS];
    int covered = 0, zero = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
        rt_seed(424242 + (uint64_t)trial);
        double truth = 0;
        size_t n = 0;
        for (int blk = 0; blk < START + PERIODS * K; blk++) {
            double c = 0;
            uint64_t lines = 0;
            if (rt_below(blk < START ? 3 : 50) == 0) {
                lines = 1 + rt_below(16);
                for (uint64_t l = 0; l < lines; l++)
                    c += 50 + (double)rt_below(301);
            }
            truth += c;
            const bool start = blk < START;
            const uint64_t in_period = start ? 0 : (uint64_t)(blk - START) % K;
            if (start || in_period == 0) { /* a new unit's period: its counts start, its place drawn */
                st[n] = start ? 0 : 1;
                w[n] = start ? U : (uint64_t)K * U;
                x[n] = U;
                place[n] = start ? 0 : rt_below(K);
                A[n * 2] = A[n * 2 + 1] = 0;
                n++;
            }
            const size_t u = n - 1;
            A[u * 2] += lines != 0;
            A[u * 2 + 1] += lines;
            if (in_period == place[u]) { /* the measured block */
                y[u] = c;
                au[u * 2] = lines != 0;
                au[u * 2 + 1] = lines;
            }
        }
        double half;
        const double est = edan_timing_estimate(n, x, w, st, au, A, y, 1, &half);
        covered += fabs(est - truth) <= half;
        zero += half == 0;
    }
    CHECK(covered >= TRIALS * 90 / 100,
          "rare bursts: the 95%% interval covers the total in %d of %d populations "
          "(%d intervals 0 wide)",
          covered, TRIALS, zero);
}

/* streams: of the bursts' and the phases' random streams (6 each; fewer in the sanitizer build) */
void timing_sample_slope_tests(unsigned long *passed, unsigned long *failed, int streams)
{
    test_burst_slope(streams);
    test_rows_random(streams);
    test_rare_code_rows();
    test_phase_slope(streams);
    test_dense_keeps_draws();
    test_steady_rise_not_dense();
    test_seed_draws();
    test_rare_bursts_covered();
    *passed += check_passed;
    *failed += check_failed;
}
