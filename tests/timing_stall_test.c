/*
 * The timing model's memory stall (analysis/timing/timing.h, a lane's
 * mem_stall_cycles and each id's; docs/model.md): the commit time spent
 * waiting on memory, on hand-built streams of the test machine of
 * timing_check.h (zero hit latencies, a miss the memory latency exactly):
 *  - stores to fresh lines behind a full store queue: the queue holds each
 *    store until the oldest one's line has come from memory, so the time
 *    grows with the latency and that growth is stall (the stores' own
 *    rows'), the first fetch's line too (fetch waits for it: its code);
 *    before the store queue's waits were stall, these streams had a slope
 *    and no stall at all;
 *  - the same stores to one line (L1d hits after the first): the first
 *    line's latency more, and the fetch's, all of it stall;
 *  - loads of fresh lines: their waits are stall, the growth all of it;
 *  - instructions each in a code line of its own that no cache holds:
 *    fetch waits for each line from memory, one after another, and that
 *    wait is stall (before fetch's waits counted, these streams had a
 *    slope of N and no stall); as RISC-V's instructions without an access
 *    and as x86 stores' micro-operations to one data line;
 *  - in every lane the stall is at most the cycles, and the rows' stalls
 *    sum to the lane's.
 * Stores as RISC-V's and as x86's micro-operations (timing_uops.h). At two
 * latencies in one pass, in each of the step's builds
 * (timing_lanes_test compares them for random streams).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "timing_check.h"

enum { N = 512 };

/* The lanes at LAT (100, 200 ns) of recs[0..n) on m: cycles and stall of each, and the rows' (ids below N) stall sums.
 */
static int run_stall(const edan_machine *m, const edan_exec *recs, size_t n, double *cyc, double *stall, double *rows)
{
    edan_timing *t = timing_run(m, recs, n, LAT, 2, 64, 1);
    if (!t)
        return -1;
    for (int k = 0; k < 2; k++) {
        const edan_timing_lane l = edan_timing_lane_get(t, k);
        cyc[k] = l.cycles;
        stall[k] = l.mem_stall_cycles;
        rows[k] = 0;
        for (uint32_t id = 0; id < N; id++)
            rows[k] += edan_timing_id_stall(t, id, k);
    }
    edan_timing_free(t);
    return 0;
}

/*
 * One stream's checks: from 100 to 200 ns the cycles grow by at least `least` and at most `most`, all of it stall
 * (every cycle the latency adds is a wait for a line from memory).
 */
static void check_growth(const char *what, const edan_machine *m, const edan_exec *r, double least, double most)
{
    double cyc[2], stall[2], rows[2];
    if (run_stall(m, r, N, cyc, stall, rows))
        return;
    const double grow = cyc[1] - cyc[0], stall_grow = stall[1] - stall[0];
    for (int k = 0; k < 2; k++)
        CHECK(stall[k] >= 0 && stall[k] <= cyc[k] && fabs(rows[k] - stall[k]) <= 1e-9 * cyc[k],
              "%s, lane %d: stall %g of %g cycles, the rows' %g", what, k, stall[k], cyc[k], rows[k]);
    CHECK(grow >= least && grow <= most && fabs(stall_grow - grow) <= 1e-9 * cyc[1],
          "%s: %g cycles more at 200 ns than at 100, %g of them stall; expected %g to %g, all of it stall", what, grow,
          stall_grow, least, most);
}

/* From 100 to 200 ns the cycles grow by at least 100 (N / 8 - 1) (many) or 200 at most (one line's and the fetch's). */
static void check_stream(const char *what, const edan_machine *m, const edan_exec *r, bool many)
{
    check_growth(what, m, r, many ? 100 * (N / 8 - 1) : 100, many ? 1e300 : 200);
}

/* Stores as RISC-V has them, or (uops) as x86's split into micro-operations (timing_uops.h) with a store's alone. */
static void test_store_queue(bool uops)
{
    static edan_exec r[N];
    static edan_insn st[2];
    for (int j = 0; j < 2; j++) {
        st[j] = store(EDAN_REG_X(5), EDAN_REG_X(6 + j), 0x1000 + 4 * (uint64_t)j, 4);
        st[j].uops = uops ? EDAN_UOP_STORE : 0;
    }
    for (uint32_t sq = 2; sq <= 8; sq *= 2) {
        edan_machine m = base_machine();
        m.sq_entries = sq;
        char what[64];
        for (size_t i = 0; i < N; i++) {
            r[i] = rec(&st[i % 2], fresh(i));
            r[i].id = (uint32_t)(i % 2);
        }
        snprintf(what, sizeof what, "%d stores%s to fresh lines, %" PRIu32 " store queue entries", N,
                 uops ? " (micro-ops)" : "", sq);
        check_stream(what, &m, r, true);
        for (size_t i = 0; i < N; i++)
            r[i].addr = fresh(0);
        snprintf(what, sizeof what, "%d stores%s to one line, %" PRIu32 " store queue entries", N,
                 uops ? " (micro-ops)" : "", sq);
        check_stream(what, &m, r, false);
    }
}

static void test_loads(void)
{
    static edan_exec r[N];
    static edan_insn ld[2];
    for (int j = 0; j < 2; j++)
        ld[j] = load(EDAN_REG_X(10 + j), EDAN_REG_X(3), 0x1000 + 4 * (uint64_t)j);
    edan_machine m = base_machine();
    m.lq_entries = 8;
    for (size_t i = 0; i < N; i++) {
        r[i] = rec(&ld[i % 2], fresh(i));
        r[i].id = (uint32_t)(i % 2);
    }
    check_stream("loads of fresh lines, 8 load queue entries", &m, r, true);
}

/*
 * N instructions, each alone in a code line (LINE bytes apart) that no cache holds: fetch misses the L1i and the
 * L2 at each and waits for the line from memory before the next; no access (uops false), or x86 stores'
 * micro-operations to one data line (uops: hits after the first). From 100 to 200 ns the time grows by 100 a
 * line, N lines (and the data line's 100 with stores), all of it stall.
 */
static void test_code_lines(bool uops)
{
    static edan_exec r[N];
    static edan_insn code[N];
    for (size_t i = 0; i < N; i++) {
        const uint64_t pc = 0x100000 + (uint64_t)i * LINE;
        if (uops) {
            code[i] = store(EDAN_REG_X(5), EDAN_REG_X(6), pc, 4);
            code[i].uops = EDAN_UOP_STORE;
        } else {
            code[i] = add(EDAN_REG_X(7 + (int)(i % 4)), EDAN_REG_X(3), pc);
        }
        r[i] = rec(&code[i], uops ? fresh(0) : 0);
        r[i].id = (uint32_t)i;
    }
    edan_machine m = base_machine();
    const double lines = 100.0 * N + (uops ? 100 : 0);
    check_growth(uops ? "stores (micro-ops) each in a code line from memory"
                      : "instructions each in a code line from memory",
                 &m, r, lines - 100, lines + 100);
}

int main(void)
{
    test_store_queue(false);
    test_store_queue(true);
    test_loads();
    test_code_lines(false);
    test_code_lines(true);
    return check_summary();
}
