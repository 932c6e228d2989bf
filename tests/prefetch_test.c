/*
 * Prefetchers in the timing model (analysis/prefetch/prefetch.h, the
 * hierarchy's times in analysis/timing/memtime.h) on hand-built streams with
 * exact answers. Every stream is a chain of loads (each address comes from
 * the load before), so each latency the chain waits for is exposed, on the
 * test machine of timing_check.h (zero hit latencies, free bandwidth, the
 * first fetch an L1i miss: one latency more in every stream). Lines are
 * LINE (128) bytes: 32 a 4 KiB page, and no prefetch leaves its page.
 *  - a stride prefetcher of degree k on a loop with one access a line: the
 *    first three accesses train it (its table entry, the stride, the
 *    confidence), the third sends k prefetches whose lines come with its own
 *    data, and from then on each access's first use sends the line k ahead;
 *    the latencies exposed and the late loads are a naive reference's
 *    (reference(): the rules written plainly for a chain), fewer than the
 *    misses without a prefetcher;
 *  - a pointer chase (no two strides alike) trains it never: every miss stays;
 *  - a next-line (tagged) prefetcher of degree k on a sequential stream: the
 *    first access trains it, the rest as the reference says;
 *  - an access that finds its line's fill still on its way trains the
 *    prefetcher (gem5's MSHR hit is a miss for it), one after the fill does
 *    not, and the highest latency's lane decides which it is;
 *  - a load the store queue serves (store-to-load forwarding) never
 *    reaches the L1d, and trains nothing;
 *  - a lower level's stride table is one for the demand misses and the
 *    upper level's prefetches (gem5's tables by requestor share their
 *    entries): an L2 entry a demand miss made learns its stride from the
 *    L1d's prefetches of the same pc;
 *  - the loads of a line train in the order they ask (gem5's issue order):
 *    a younger load that asks first is the miss that trains, with its pc;
 *  - prefetches compete for MSHRs: one miss sends 8 prefetches with 4 MSHRs,
 *    one kept for demand misses, each sent with two MSHRs free beyond that
 *    one (gem5's canPrefetch()); those beyond an MSHR wait in the queue of
 *    queue_size, and the rest are dropped, which their accesses then pay as
 *    misses of their own;
 *  - a lower level hears of an upper level's prefetch when it is sent: the
 *    prefetches it causes there wait as long as it waited for an MSHR;
 *  - a stream that crosses into a page whose frame is not the next one
 *    (pages = first-touch) trains as gem5's does on physical addresses: the
 *    crossing's stride is a jump between frames, which takes one from the
 *    confidence and keeps the entry's stride, and its prefetches, that jump
 *    ahead, leave the page and are dropped; the next access prefetches
 *    again. One more latency is exposed than with the frames in a row;
 *  - a load that ran before an older store to its block (a violation)
 *    trains at its squashed start, also when its replay is forwarded;
 *  - a wrong-path load that finds its line on its way trains (an MSHR hit).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "analysis/timing/timing.h"
#include "check.h"
#include "timing_check.h"

#define PAGE_LINES (4096 / LINE)

static edan_prefetch_config stride_pf(uint32_t degree)
{
    edan_prefetch_config c = {EDAN_PREFETCH_STRIDE, degree, 0, 1024, 1, false, 64, 4, 3, 4, 50};
    return c;
}

static edan_prefetch_config tagged_pf(uint32_t degree, uint32_t queue, uint32_t reserve)
{
    edan_prefetch_config c = {EDAN_PREFETCH_TAGGED, degree, 0, queue, reserve, false, 0, 0, 0, 0, 0};
    return c;
}

/* The model over the chain at 100 and 200 ns: latencies exposed, and the counts and lanes. */
static double run(const edan_machine *m, const edan_exec *r, size_t n, edan_timing_counts *counts,
                  edan_timing_lane lane[2])
{
    edan_timing *t = timing_run(m, r, n, LAT, 2, 64, 1);
    if (!t)
        return -1;
    *counts = *edan_timing_counts_get(t);
    for (int k = 0; k < 2; k++)
        lane[k] = edan_timing_lane_get(t, k);
    edan_timing_free(t);
    return (lane[1].cycles - lane[0].cycles) / 100.0;
}

/*
 * The naive reference of a chain of n loads of lines[i] (one each, within a
 * page) under a prefetcher of degree k with MSHRs and queue that never
 * bind, at a memory latency of L cycles: each load asks at the previous
 * one's data + 1 cycle; a line prefetched and still on its way is waited
 * for (late); a line neither there nor prefetched is a miss (L). A miss, or
 * the first use of a prefetched line, trains: the tagged prefetcher names
 * the next k lines, the stride one (gem5's counter: 3 bits from 4, 50 %)
 * k lines a stride apart once confident; each named line not yet there is
 * sent at the load's request and comes L later. Returns the cycles; *late
 * the loads that waited.
 */
static double reference(const uint64_t *lines, size_t n, uint32_t k, bool stride, double L, uint64_t *late,
                        uint64_t *issued)
{
    static double fill[PAGE_LINES * 64]; /* by line - lines[0]: when it is there; 0 not asked, -1 used */
    memset(fill, 0, sizeof fill);
    double t = 0;
    int64_t last = -1, step = 0;
    int conf = 4;
    bool seen = false;
    *late = *issued = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t x = lines[i] - lines[0];
        const double req = t;
        bool trains = true;
        if (fill[x] > 0) { /* prefetched, first use */
            if (fill[x] > req) {
                ++*late;
                t = fill[x];
            }
        } else {
            t = req + L;
        }
        fill[x] = -1;
        uint64_t named[16];
        uint32_t m = 0;
        if (trains && !stride) {
            for (uint32_t d = 1; d <= k; d++)
                named[m++] = x + d;
        } else if (trains) {
            if (seen) {
                const int64_t s = (int64_t)x - last;
                if (s == step && s)
                    conf += conf < 7;
                else if (--conf < 4)
                    step = s;
                conf = conf < 0 ? 0 : conf;
                for (uint32_t d = 1; conf >= 4 && d <= k; d++)
                    named[m++] = (uint64_t)((int64_t)x + (int64_t)d * step);
            }
            seen = true;
            last = (int64_t)x;
        }
        for (uint32_t j = 0; j < m; j++)
            if ((named[j] + lines[0]) / PAGE_LINES == lines[i] / PAGE_LINES && fill[named[j]] == 0) {
                fill[named[j]] = req + L;
                ++*issued;
            }
        t += 1;
    }
    return t;
}

static void test_stride(void)
{
    static edan_exec r[PAGE_LINES];
    uint64_t lines[PAGE_LINES];
    const edan_insn ld = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    const size_t n = PAGE_LINES;
    for (size_t i = 0; i < n; i++) {
        r[i] = rec(&ld, fresh(i)); /* fresh(0) starts a page */
        lines[i] = fresh(i) / LINE;
    }
    edan_machine m = base_machine();
    edan_timing_counts c;
    edan_timing_lane l[2];
    CHECK(run(&m, r, n, &c, l) == (double)n + 1, "a chain of %zu misses without a prefetcher", n);
    for (uint32_t k = 1; k <= 16; k *= 2) {
        m.data[0].prefetch = stride_pf(k);
        uint64_t late[2], issued;
        const double ref[2] = {reference(lines, n, k, true, 100, &late[0], &issued),
                               reference(lines, n, k, true, 200, &late[1], &issued)};
        /* the first fetch's miss, then the chain */
        const double e = run(&m, r, n, &c, l), want = 1 + (ref[1] - ref[0]) / 100;
        CHECK(e == want && want < (double)n, "degree %u: %g latencies exposed, expected %g", k, e, want);
        const edan_prefetch_counts *p = &c.prefetch[0];
        /* lines 3 .. 31 prefetched, each used once, none evicted */
        CHECK(p->issued == n - 3 && issued == n - 3 && p->useful == n - 3 && p->useless == 0,
              "degree %u: %" PRIu64 " issued, %" PRIu64 " useful, %" PRIu64 " useless", k, p->issued, p->useful,
              p->useless);
        for (int j = 0; j < 2; j++)
            CHECK(l[j].prefetch_late == late[j] && l[j].prefetch_dropped == 0,
                  "degree %u lane %d: %" PRIu64 " late (expected %" PRIu64 "), %" PRIu64 " dropped", k, j,
                  l[j].prefetch_late, late[j], l[j].prefetch_dropped);
        CHECK(c.level_misses[0] == 3 && c.ram_lines == n + 1, "degree %u: %" PRIu64 " L1d misses, %" PRIu64 " lines", k,
              c.level_misses[0], c.ram_lines);
    }
}

static void test_chase(void)
{
    static edan_exec r[64];
    const edan_insn ld = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    const size_t n = 64;
    for (size_t i = 0; i < n; i++) /* strides of 2i + 1 lines: never the same twice */
        r[i] = rec(&ld, fresh(i * i));
    edan_machine m = base_machine();
    m.data[0].prefetch = stride_pf(4);
    m.data[1].prefetch = stride_pf(4);
    edan_timing_counts c;
    edan_timing_lane l[2];
    const double e = run(&m, r, n, &c, l);
    CHECK(e == (double)n + 1, "a pointer chase under stride prefetchers: %g latencies, expected %zu", e, n + 1);
    CHECK(c.prefetch[0].issued == 0 && c.prefetch[1].issued == 0, "the chase trains no prefetch: %" PRIu64 ", %" PRIu64,
          c.prefetch[0].issued, c.prefetch[1].issued);
}

static void test_tagged(void)
{
    static edan_exec r[PAGE_LINES];
    uint64_t lines[PAGE_LINES];
    const edan_insn ld = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    const size_t n = PAGE_LINES;
    for (size_t i = 0; i < n; i++) {
        r[i] = rec(&ld, fresh(i) + 8 * (i % 4)); /* anywhere in its line */
        lines[i] = fresh(i) / LINE;
    }
    for (uint32_t k = 1; k <= 8; k *= 2) {
        edan_machine m = base_machine();
        m.data[0].prefetch = tagged_pf(k, 1024, 1);
        edan_timing_counts c;
        edan_timing_lane l[2];
        uint64_t late[2], issued;
        const double ref[2] = {reference(lines, n, k, false, 100, &late[0], &issued),
                               reference(lines, n, k, false, 200, &late[1], &issued)};
        const double e = run(&m, r, n, &c, l), want = 1 + (ref[1] - ref[0]) / 100;
        CHECK(e == want && want < (double)n, "next-line degree %u: %g latencies exposed, expected %g", k, e, want);
        CHECK(c.prefetch[0].issued == n - 1 && issued == n - 1 && c.prefetch[0].useful == n - 1 &&
                  l[0].prefetch_late == late[0] && l[1].prefetch_late == late[1],
              "next-line degree %u: %" PRIu64 " issued, %" PRIu64 " useful, %" PRIu64 " late (expected %" PRIu64 ")", k,
              c.prefetch[0].issued, c.prefetch[0].useful, l[0].prefetch_late, late[0]);
    }
}

/*
 * Accesses to a line in flight train (gem5 notifies its prefetcher of an
 * MSHR hit as of a miss). Three loads of one pc read bytes 0, 16 and 32 of
 * line X, then a load of another pc, which needs the third's data, reads
 * line X+1. The first load misses (a new table entry); with the other two
 * asking before X's fill, the second learns the stride of 16 and the third
 * brings the confidence to 4 of 7: it prefetches X+1 (a stride under a line
 * counts as a line), which is there when the last load asks, so the stream
 * exposes two latencies (the first fetch's L1i miss and X). With each load
 * needing the one before (they ask after X's fill: L1d hits, no training)
 * nothing is prefetched and X+1 misses: three. Asking 150 cycles after X's
 * miss, after the fill at 100 ns and before it at 200 ns, the two loads
 * train: the highest latency's lane decides.
 */
static void test_in_flight(void)
{
    const uint64_t x = fresh(0);
    const edan_insn alone = load(EDAN_REG_X(6), EDAN_REG_X(7), 0x1000); /* x7 is never written: asks at once */
    const edan_insn after = load(EDAN_REG_X(6), EDAN_REG_X(6), 0x1000); /* asks when the load before has its data */
    const edan_insn next = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1004);
    const edan_insn first = load(EDAN_REG_X(9), EDAN_REG_X(7), 0x1000);
    const edan_insn add0 = add(EDAN_REG_X(8), EDAN_REG_X(7), 0x1008), addn = add(EDAN_REG_X(8), EDAN_REG_X(8), 0x1008);
    const edan_insn late = load(EDAN_REG_X(6), EDAN_REG_X(8), 0x1000); /* asks when the adds are done */
    const edan_exec on_way[] = {rec(&alone, x), rec(&alone, x + 16), rec(&alone, x + 32), rec(&next, x + LINE)};
    const edan_exec filled[] = {rec(&alone, x), rec(&after, x + 16), rec(&after, x + 32), rec(&next, x + LINE)};
    const struct {
        const char *what;
        const edan_exec *r;
        double exposed;
        uint64_t issued, misses;
    } cases[] = {{"on its way", on_way, 2, 1, 1}, {"after the fill", filled, 3, 0, 2}};
    edan_machine m = base_machine();
    m.data[0].prefetch = stride_pf(1);
    edan_timing_counts c;
    edan_timing_lane l[2];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const double e = run(&m, cases[i].r, 4, &c, l);
        CHECK(e == cases[i].exposed && c.prefetch[0].issued == cases[i].issued &&
                  c.prefetch[0].useful == cases[i].issued && c.level_misses[0] == cases[i].misses &&
                  l[0].prefetch_late == 0 && l[1].prefetch_late == 0,
              "loads of a line %s: %g latencies exposed (expected %g), %" PRIu64 " prefetched (expected %" PRIu64
              "), %" PRIu64 " L1d misses (expected %" PRIu64 "), %" PRIu64 " late",
              cases[i].what, e, cases[i].exposed, c.prefetch[0].issued, cases[i].issued, c.level_misses[0],
              cases[i].misses, l[1].prefetch_late);
    }
    static edan_exec lane[155];
    size_t n = 0;
    lane[n++] = rec(&first, x);
    lane[n++] = rec(&add0, 0);
    while (n < 151)
        lane[n++] = rec(&addn, 0);
    lane[n++] = rec(&late, x + 16);
    lane[n++] = rec(&late, x + 32);
    lane[n++] = rec(&next, x + LINE);
    (void)run(&m, lane, n, &c, l);
    CHECK(c.prefetch[0].issued == 1 && c.prefetch[0].useful == 1,
          "loads 150 cycles after a miss, its line there at 100 ns, on its way at 200 ns: %" PRIu64
          " prefetched (expected 1: the highest latency decides)",
          c.prefetch[0].issued);
}

/*
 * A load forwarded from the store queue never reaches the L1d: gem5 notifies
 * no prefetcher of it. test_in_flight()'s three loads of pc P (bytes 0, 16,
 * 32 of line X, at once), with a store of bytes 16 .. 23 before the second:
 * the second takes its bytes from the store (still in the queue: it writes
 * after X's miss commits) and does not train, so the third sees a stride of
 * 32 (confidence 3), nothing is prefetched and X+1 misses: three latencies
 * exposed. Were the forwarded load to train, the stride of 16 would reach
 * confidence 4 with the third and prefetch X+1: two.
 */
static void test_forwarded(void)
{
    const uint64_t x = fresh(0);
    const edan_insn alone = load(EDAN_REG_X(6), EDAN_REG_X(7), 0x1000); /* x7 is never written: asks at once */
    const edan_insn st = store(EDAN_REG_X(9), EDAN_REG_X(7), 0x1010, 8);
    const edan_insn next = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1004);
    const edan_exec r[] = {rec(&alone, x), rec(&st, x + 16), rec(&alone, x + 16), rec(&alone, x + 32),
                           rec(&next, x + LINE)};
    edan_machine m = base_machine();
    m.data[0].prefetch = stride_pf(1);
    edan_timing_counts c;
    edan_timing_lane l[2];
    const double e = run(&m, r, sizeof r / sizeof *r, &c, l);
    CHECK(e == 3 && c.prefetch[0].issued == 0 && c.level_misses[0] == 2,
          "a forwarded load between two of a stream: %g latencies exposed (expected 3), %" PRIu64
          " prefetched (expected 0), %" PRIu64 " L1d misses (expected 2)",
          e, c.prefetch[0].issued, c.level_misses[0]);
}

/*
 * The L2's stride table is one for the L1d's misses and the L1d's
 * prefetches (gem5 v22.1's tables by requestor share their entries,
 * prefetch.c). Loads of pc P read bytes 0, 16 and 32 of line X at once: the
 * first misses both levels (a new entry for P in each table), the other two
 * find X on its way and bring the L1d's entry to confidence 4, so the third
 * prefetches X+1 and X+2 (degree 2), both missing the L2. There they go on
 * with P's entry from X's miss: the stride of a line (confidence 3), the
 * same again (4), and the L2 prefetches X+3 (degree 1). A chain of other pcs
 * then reads X+1, X+2 (in the L1d) and X+3 (in the L2, a hit of no
 * latency): two latencies exposed (the first fetch's L1i miss and X). With
 * a table for each requestor, the L1d's prefetches would start an entry of
 * their own that reaches only confidence 3: X+3 would miss, three.
 */
static void test_shared_table(void)
{
    const uint64_t x = fresh(0);
    const edan_insn alone = load(EDAN_REG_X(6), EDAN_REG_X(7), 0x1000); /* x7 is never written: asks at once */
    const edan_insn c1 = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1004), c2 = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1008),
                    c3 = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x100c);
    const edan_exec r[] = {rec(&alone, x),     rec(&alone, x + 16),    rec(&alone, x + 32),
                           rec(&c1, x + LINE), rec(&c2, x + 2 * LINE), rec(&c3, x + 3 * LINE)};
    edan_machine m = base_machine();
    m.data[0].prefetch = stride_pf(2);
    m.data[1].prefetch = stride_pf(1);
    edan_timing_counts c;
    edan_timing_lane l[2];
    const double e = run(&m, r, sizeof r / sizeof *r, &c, l);
    CHECK(e == 2 && c.prefetch[0].issued == 2 && c.prefetch[1].issued == 1 && c.prefetch[1].useful == 1 &&
              c.level_misses[1] == 1,
          "the L2's table trained by the L1d's prefetches: %g latencies exposed (expected 2), %" PRIu64
          " L1d and %" PRIu64 " L2 prefetches (expected 2 and 1), %" PRIu64 " L2 misses (expected 1)",
          e, c.prefetch[0].issued, c.prefetch[1].issued, c.level_misses[1]);
}

/*
 * One miss to line X (the 24th of its page) sends prefetches of X+1 .. X+8
 * (the page's last line) at once, with 4 L1d MSHRs, one kept for demand
 * misses: as gem5's MSHRQueue::canPrefetch() (allocated < mshrs - 1 -
 * reserve), a prefetch goes only when two MSHRs are free beyond the reserve,
 * so with the miss holding one, one goes at once, and the others wait for
 * MSHRs, two at a time, queue_size of them; the rest are dropped. Then the
 * chain reads X+1 .. X+8 (no further prefetch: all are held, and the next
 * page is out of reach). With a queue of 2: X+1 comes with X; X+2 and X+3
 * go when X's and X+1's MSHRs free, a latency later, and X+2 waits for its
 * line; X+4 .. X+8 were dropped and miss, a latency each: 1 + 1 + 1 + 5 = 8
 * latencies. With a queue of 8 nothing is dropped: X+4, X+5 go a latency
 * after X+2, X+3, X+6, X+7 a latency later, X+8 one more, and X+2, X+4, X+6,
 * X+8 each wait a latency: 1 + 1 + 4 = 6.
 */
static void test_mshrs(void)
{
    static edan_exec r[9];
    const edan_insn ld = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    for (size_t i = 0; i < 9; i++)
        r[i] = rec(&ld, fresh(PAGE_LINES - 9 + i));
    const struct {
        uint32_t queue;
        double exposed;
        uint64_t dropped, late;
    } cases[] = {{2, 8, 5, 1}, {8, 6, 0, 4}};
    edan_machine m = base_machine();
    m.data[0].mshrs = 4;
    edan_timing_counts c;
    edan_timing_lane l[2];
    CHECK(run(&m, r, 9, &c, l) == 10, "nine misses without a prefetcher: %g", run(&m, r, 9, &c, l));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        m.data[0].prefetch = tagged_pf(8, cases[i].queue, 1);
        const double e = run(&m, r, 9, &c, l);
        CHECK(e == cases[i].exposed, "queue of %u: %g latencies exposed, expected %g", cases[i].queue, e,
              cases[i].exposed);
        CHECK(c.prefetch[0].issued == 8 && c.prefetch[0].useful == 8,
              "queue of %u: %" PRIu64 " issued, %" PRIu64 " used", cases[i].queue, c.prefetch[0].issued,
              c.prefetch[0].useful);
        for (int j = 0; j < 2; j++)
            CHECK(l[j].prefetch_dropped == cases[i].dropped && l[j].prefetch_late == cases[i].late,
                  "queue of %u lane %d: %" PRIu64 " dropped, %" PRIu64 " late, expected %" PRIu64 " and %" PRIu64,
                  cases[i].queue, j, l[j].prefetch_dropped, l[j].prefetch_late, cases[i].dropped, cases[i].late);
    }
}

/*
 * A lower level hears of an upper level's prefetch when it is sent (gem5's
 * L2 is notified when the L1d's prefetch request arrives there), so what
 * that prefetch makes the lower level prefetch waits as long as it did. A
 * miss to line X (the 24th of its page) with 4 L1d MSHRs, one kept for
 * demand misses, and a next-line prefetcher of degree 3 at the L1d: X+1
 * goes at once, X+2 and X+3 wait for X's and X+1's MSHRs, a latency. The
 * L2's next-line prefetcher of degree 4 trains on each: X+1 names X+2 ..
 * X+5, sent at once; X+2 (the first use of the L2's line) names X+6, X+3
 * X+7, sent when X+2 and X+3 reach the L2, a latency after the miss, and
 * back a latency later. The chain then reads X+6: its L1d miss finds the
 * L2's prefetch on its way and waits a latency for it. Exposed: the L1i
 * miss, X's and X+6's wait: 3 (2 when the L2's prefetches of X+6 and X+7
 * went at once, as if X+2 and X+3 had not waited). X+6's miss names X+7
 * and X+8 at the L1d (X+9 is in the next page), and X+7's arrival X+8 at
 * the L2: 5 L1d and 7 L2 prefetches.
 */
static void test_sent_late(void)
{
    const edan_insn ld = load(EDAN_REG_X(5), EDAN_REG_X(5), 0x1000);
    const edan_exec r[] = {rec(&ld, fresh(PAGE_LINES - 9)), rec(&ld, fresh(PAGE_LINES - 3))};
    edan_machine m = base_machine();
    m.data[0].mshrs = 4;
    m.data[0].prefetch = tagged_pf(3, 8, 1);
    m.data[1].prefetch = tagged_pf(4, 8, 1);
    edan_timing_counts c;
    edan_timing_lane l[2];
    const double e = run(&m, r, 2, &c, l);
    CHECK(e == 3 && c.prefetch[0].issued == 5 && c.prefetch[1].issued == 7,
          "an L2 prefetch an L1d prefetch caused goes when that one does: %g latencies exposed (expected 3), %" PRIu64
          " L1d and %" PRIu64 " L2 prefetches (expected 5 and 7)",
          e, c.prefetch[0].issued, c.prefetch[1].issued);
}

/*
 * gem5's L1d hears of a line's loads in the order they ask (issue order):
 * the first to ask is the miss that trains its pc's entry. A chain of loads
 * of pc P reads lines X, X+1, X+2; a load of pc D (younger, its address
 * known at once) reads X+2 before P gets there. In trace order P's entry
 * would see three lines, a stride twice (confidence 4), and prefetch X+3;
 * in issue order X+2 trains D's entry (new) and P's stays at confidence 3:
 * nothing is prefetched, and a chained load of X+3 misses (four L1d
 * misses). With D asking after P (its address from P's load), P trains
 * on X+2 and prefetches X+3 (three misses).
 */
static void test_issue_order(void)
{
    const uint64_t x = fresh(0);
    const edan_insn p = load(EDAN_REG_X(6), EDAN_REG_X(6), 0x1000);
    const edan_insn d_early = load(EDAN_REG_X(9), EDAN_REG_X(7), 0x1100); /* x7 is never written: asks at once */
    const edan_insn d_late = load(EDAN_REG_X(9), EDAN_REG_X(6), 0x1100);  /* asks when P's load has its data */
    const edan_insn next = load(EDAN_REG_X(5), EDAN_REG_X(6), 0x1004);
    const struct {
        const char *what;
        const edan_insn *d;
        uint64_t issued, misses;
    } cases[] = {{"asks first", &d_early, 0, 4}, {"asks after", &d_late, 1, 3}};
    edan_machine m = base_machine();
    m.data[0].prefetch = stride_pf(1);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const edan_exec r[] = {rec(&p, x), rec(&p, x + LINE), rec(&p, x + 2 * LINE), rec(cases[i].d, x + 2 * LINE + 16),
                               rec(&next, x + 3 * LINE)};
        edan_timing_counts c;
        edan_timing_lane l[2];
        (void)run(&m, r, sizeof r / sizeof *r, &c, l);
        CHECK(c.prefetch[0].issued == cases[i].issued && c.level_misses[0] == cases[i].misses,
              "a younger load of the row's third line that %s: %" PRIu64 " prefetched (expected %" PRIu64 "), %" PRIu64
              " L1d misses (expected %" PRIu64 ")",
              cases[i].what, c.prefetch[0].issued, cases[i].issued, c.level_misses[0], cases[i].misses);
    }
}

/*
 * A chain of loads of pc P reads the last four lines of a page V0 and the
 * first three of the next, V1 (a stride prefetcher of degree 2 at the L1d);
 * a load of pc Q, not in the chain, touches a third page W between P's
 * first two loads. With pages = virtual the chain's lines are in a row; with
 * pages = first-touch V0, W, V1 get frames 0, 1, 2 in that order, so V1 is
 * not V0's next frame. P's entry: V0+28 makes it, V0+29 trains the stride
 * (confidence 3), V0+30 matches (4) and prefetches V0+31 (V0+32 leaves the
 * page: dropped, as gem5 drops a prefetch into another page without a TLB),
 * V0+31's first use matches (5), its two prefetches leave the page.
 *  - virtual: V1+0 misses, matches (6) and prefetches V1+1, V1+2, which come
 *    with its data; their first uses send V1+3, V1+4 (past the chain):
 *    issued 1 + 2 + 1 + 1 = 5; L1d misses V0+28, W, V0+29, V0+30, V1+0;
 *    exposed: those of the chain and the first fetch's L1i miss, 5.
 *  - first-touch: V1+0's stride is the jump between frames (2 pages less 31
 *    lines): confidence 4, the stride of a line kept (gem5 replaces it only
 *    below the threshold), and its prefetches, a jump ahead, leave the page;
 *    V1+1 misses, matches the kept stride (5) and prefetches V1+2, V1+3;
 *    V1+2's first use sends V1+4: issued 1 + 2 + 1 = 4; one miss more
 *    (V1+1, 6), one latency more exposed (6).
 * (Q's L1i line misses while P's first load does: hidden.)
 */
static void test_page_crossing(void)
{
    const edan_insn p = load(EDAN_REG_X(6), EDAN_REG_X(6), 0x1000);
    const edan_insn q = load(EDAN_REG_X(9), EDAN_REG_X(7), 0x1100); /* x7 is never written: asks at once */
    const edan_exec r[] = {rec(&p, fresh(28)), rec(&q, fresh(2 * PAGE_LINES)),
                           rec(&p, fresh(29)), rec(&p, fresh(30)),
                           rec(&p, fresh(31)), rec(&p, fresh(32)),
                           rec(&p, fresh(33)), rec(&p, fresh(34))};
    const struct {
        edan_page_placement pages;
        const char *what;
        double exposed;
        uint64_t issued, misses;
    } cases[] = {{EDAN_PAGES_VIRTUAL, "virtual", 5, 5, 5}, {EDAN_PAGES_FIRST_TOUCH, "first-touch", 6, 4, 6}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        edan_machine m = base_machine();
        m.pages = cases[i].pages;
        m.data[0].prefetch = stride_pf(2);
        edan_timing_counts c;
        edan_timing_lane l[2];
        const double e = run(&m, r, sizeof r / sizeof *r, &c, l);
        CHECK(e == cases[i].exposed && c.prefetch[0].issued == cases[i].issued && c.level_misses[0] == cases[i].misses,
              "a stream into the next page, %s: %g latencies exposed (expected %g), %" PRIu64
              " prefetched (expected %" PRIu64 "), %" PRIu64 " L1d misses (expected %" PRIu64 ")",
              cases[i].what, e, cases[i].exposed, c.prefetch[0].issued, cases[i].issued, c.level_misses[0],
              cases[i].misses);
    }
}

/*
 * A load that issues before an older store to its 16-byte block has
 * executed (store sets, store_set_bytes = 16) is fetched again after the
 * store: in gem5 its first, squashed execution reached the L1d, and finding
 * its line in flight (an MSHR hit) trained the prefetcher. Loads of pc P at
 * x+8 (a miss: a new entry), x+24 (in flight: the stride, 16, confidence 3)
 * and x+40, after a store to x+32 whose data is the first load's (it
 * executes when the line is back): x+40 violates, and its squashed start
 * finds the line in flight: it matches the stride (confidence 4) and
 * prefetches the next line (degree 1), which a load after it reads: one L1d
 * miss, one prefetch, used. Counted at its replay instead, after the fill,
 * it would hit and train nothing: no prefetch, and the next line a second
 * L1d miss. The prefetch goes at the replay (the model's: its time is the
 * one it knows), so the load after it waits for it: 3 latencies exposed,
 * the first fetch's, the first load's (the store and the replay wait for
 * it) and the prefetch's.
 */
/*
 * The violation streams below: loads of pc P at x + a and x + b, a store to
 * x + 32 (store sets of 16 bytes), P at x + v (it violates), and another
 * load at the next line; a stride prefetcher of degree 1 on the L1d.
 * Returns the latencies exposed, the counts in *c.
 */
static double violation_run(uint64_t a, uint64_t b, uint64_t v, edan_timing_counts *c)
{
    const uint64_t x = fresh(0);
    const edan_insn p = load(EDAN_REG_X(9), EDAN_REG_X(7), 0x1000); /* x7 is never written: asks at once */
    const edan_insn st = store(EDAN_REG_X(9), EDAN_REG_X(7), 0x1010, 8);
    const edan_insn next = load(EDAN_REG_X(5), EDAN_REG_X(7), 0x1020);
    const edan_exec r[] = {rec(&p, x + a), rec(&p, x + b), rec(&st, x + 32), rec(&p, x + v), rec(&next, x + LINE)};
    edan_machine m = base_machine();
    m.store_set_bytes = 16;
    m.data[0].prefetch = stride_pf(1);
    edan_timing_lane l[2];
    return run(&m, r, sizeof r / sizeof *r, c, l);
}

static void test_violation(void)
{
    edan_timing_counts c;
    const double e = violation_run(8, 24, 40, &c);
    CHECK(c.prefetch[0].issued == 1 && c.prefetch[0].useful == 1 && c.level_misses[0] == 1 && e == 3,
          "a violating load's squashed start trains: %" PRIu64 " prefetched, %" PRIu64 " used (expected 1, 1), %" PRIu64
          " L1d misses (expected 1), %g latencies exposed (expected 3)",
          c.prefetch[0].issued, c.prefetch[0].useful, c.level_misses[0], e);
}

/*
 * test_violation()'s stream with the violating load reading the store's own
 * bytes: loads of pc P at x (a miss: a new entry), x+16 (in flight: the
 * stride 16, confidence 3), a store to x+32 whose data is the first load's,
 * and P at x+32, which violates, and whose replay takes its bytes from the
 * store (forwarded): its squashed start reached the L1d, found the line in
 * flight and trained (stride 16, confidence 4), and its prefetch of the
 * next line serves the load after it: one L1d miss, one prefetch. Were the
 * forwarded replay all there is, it would train nothing: no prefetch, two
 * misses.
 */
static void test_violation_forwarded(void)
{
    edan_timing_counts c;
    const double e = violation_run(0, 16, 32, &c);
    CHECK(c.prefetch[0].issued == 1 && c.prefetch[0].useful == 1 && c.level_misses[0] == 1,
          "a violating load forwarded at its replay trains at its squashed start: %" PRIu64 " prefetched, %" PRIu64
          " used (expected 1, 1), %" PRIu64 " L1d misses (expected 1), %g latencies exposed",
          c.prefetch[0].issued, c.prefetch[0].useful, c.level_misses[0], e);
}

/*
 * A load on a mispredicted branch's wrong path that finds its line on its
 * way (an MSHR hit) trains the L1d's prefetcher: gem5's squashed load
 * reached the L1d (fits.floyd-warshall's row loads, docs/model.md,
 * Prefetchers, *Wrong-path loads*). A loop: a load of pc P (at 0x1000, its
 * address ready at once), a branch on its value at 0x1004 to 0x100c, an
 * addition at 0x1008 and a jump back at 0x100c. The first run's branch is
 * not taken (predicted so: 0x1008 decoded), P at y, a line of its own (a
 * new entry); the second's is taken, mispredicted, P at x (a miss: the
 * stride x - y, confidence 3). Its wrong path runs 0x1008, the jump and the
 * next run's P at x again, while x is on its way: stride 0, confidence 2.
 * The right path's P at x then hits, and P goes on at x + 1 .. 5 lines:
 * x + 1 (a new stride, 1), x + 2 (2), x + 3 (3), x + 4 (4: prefetches x + 5
 * at degree 1), x + 5's first use (5: x + 6): 2 prefetched, 6 L1d misses
 * (y, x, x + 1 .. 4). Without the wrong path's training the confidence is
 * one more: x + 3 prefetches x + 4, and each first use the next: 3
 * prefetched, 5 misses.
 */
static void test_wrong_path(void)
{
    static edan_insn code[4];
    static edan_exec r[64];
    code[0] = load(EDAN_REG_X(5), EDAN_REG_X(7), 0x1000); /* x7 is never written: asks at once */
    code[1] = branch(EDAN_REG_X(5), 0x1004, 8);
    code[2] = add(EDAN_REG_X(20), EDAN_REG_X(3), 0x1008);
    code[3] = add(EDAN_REG_X(9), EDAN_REG_X(3), 0x100c);
    code[3].flow = EDAN_FLOW_JUMP;
    const uint64_t x = fresh(8), y = fresh(0);
    const uint64_t at[] = {y, x, x, x + LINE, x + 2 * LINE, x + 3 * LINE, x + 4 * LINE, x + 5 * LINE};
    size_t n = 0;
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        r[n++] = rec(&code[0], at[i]);
        r[n++] = rec(&code[1], 0);
        if (!i)
            r[n++] = rec(&code[2], 0);
        r[n++] = rec(&code[3], 0);
    }
    edan_machine m = base_machine();
    m.rob_entries = 64;
    m.data[0].prefetch = stride_pf(1);
    edan_timing_counts c;
    edan_timing_lane l[2];
    const double e = run(&m, r, n, &c, l);
    CHECK(c.prefetch[0].issued == 2 && c.level_misses[0] == 6,
          "a wrong-path load of a line on its way trains: %" PRIu64 " prefetched (expected 2), %" PRIu64
          " L1d misses (expected 6), %g latencies exposed",
          c.prefetch[0].issued, c.level_misses[0], e);
}

int main(void)
{
    test_stride();
    test_chase();
    test_tagged();
    test_in_flight();
    test_forwarded();
    test_shared_table();
    test_mshrs();
    test_sent_late();
    test_issue_order();
    test_page_crossing();
    test_violation();
    test_violation_forwarded();
    test_wrong_path();
    return check_summary();
}
