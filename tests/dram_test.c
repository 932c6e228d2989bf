/*
 * dram_test.c - the timing model's DRAM (src/analysis/dram/dram.h) on
 * hand-built streams of reads with exact answers: a row hit costs tRCD less
 * than a row miss and tRP + tRCD less than a row conflict; reads of other
 * rows of one bank serialize (tRAS, tRP, tRCD); reads of other banks
 * overlap (one burst apart); a full read queue delays the next read; a
 * write drain costs the reads behind it its turnarounds and bursts; FCFS
 * keeps the order FR-FCFS changes; the close policy never hits; a read
 * asked after a later one finds the bank as it was at its arrival. Then
 * through the memory hierarchy (memtime.h): the swept latency is added to
 * every read, once. Last, random streams against a naive DRAM that keeps
 * every booked interval of the bus (the model keeps EDAN_DRAM_BUS_SPANS).
 *
 * The clock is 1 GHz (16 ticks a ns) and the times whole ns, so every
 * answer is exact.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dram/dram.h"
#include "analysis/timing/memtime.h"
#include "check.h"
#include "random_trace.h"

#define NS 16u /* ticks per ns at 1 GHz */

/* tRCD 14, tCL 14, tRP 14, tRAS 32, tBURST 4, tRTP 8, tRTW 2, tWTR 5; 1 channel, 1 rank, 4 banks, rows of 16 lines */
static edan_machine_dram params(void)
{
    edan_machine_dram p;
    memset(&p, 0, sizeof p);
    p.present = true;
    p.channels = 1;
    p.ranks = 1;
    p.banks = 4;
    p.bank_groups = 0;
    p.burst_bytes = 64;
    p.row_bytes = 1024;
    p.tck = 1;
    p.tburst = 4;
    p.tccd_l = 5;
    p.trcd = 14;
    p.tcl = 14;
    p.trp = 14;
    p.tras = 32;
    p.twr = 15;
    p.trtp = 8;
    p.trtw = 2;
    p.twtr = 5;
    p.trrd = 0; /* no activate limits and no refresh in reach: the tests of them set their own */
    p.trrd_l = 0;
    p.txaw = 0;
    p.activation_limit = 0;
    p.trfc = 350;
    p.trefi = 1e7;
    p.read_queue = 32;
    p.write_queue = 8;
    p.write_high_percent = 50; /* a drain above 4 writes */
    p.write_low_percent = 25;  /* an idle one above 2 */
    p.min_writes_per_switch = 2;
    p.page = EDAN_DRAM_OPEN;
    p.map = EDAN_DRAM_RORABACOCH;
    p.sched = EDAN_DRAM_FRFCFS;
    p.frontend_ns = 10;
    p.backend_ns = 10;
    return p;
}

/* RoRaBaCoCh, one channel: line = (row * 4 + bank) * 16 + column */
static uint64_t L(uint64_t row, uint64_t bank, uint64_t col)
{
    return (row * 4 + bank) * 16 + col;
}

static edan_dram *make(const edan_machine_dram *p)
{
    edan_error err = {0};
    edan_dram *d = edan_dram_new(p, NS, 64, 1, &err);
    CHECK(d != NULL, "edan_dram_new: %s", err.msg);
    if (!d)
        exit(1);
    return d;
}

/* Lane 0's read at x ns: when it is back, in ns since x. */
static uint64_t rd(edan_dram *d, uint64_t line, uint32_t writes, uint64_t x)
{
    const edan_dram_tick t = edan_dram_read(d, 0, line, NULL, writes, x * NS);
    CHECK(t % NS == 0, "whole ns: %" PRIu64 " ticks", (uint64_t)t);
    return t / NS - x;
}

static void test_row_states(void)
{
    const edan_machine_dram p = params();
    edan_dram *d = make(&p);
    const uint64_t resp = 20, miss = rd(d, L(0, 0, 0), 0, 0);
    const uint64_t hit = rd(d, L(0, 0, 1), 0, 1000), conflict = rd(d, L(1, 0, 0), 0, 2000);
    CHECK_EQ_U64(miss, 14 + 14 + 4 + resp, "a closed bank: tRCD + tCL + tBURST + front + back");
    CHECK_EQ_U64(hit, 14 + 4 + resp, "a row hit: tCL + tBURST + front + back");
    CHECK_EQ_U64(miss - hit, 14, "a row miss costs tRCD more than a hit");
    CHECK_EQ_U64(conflict - hit, 14 + 14, "a row conflict costs tRP + tRCD more than a hit");
    const edan_dram_counts n = edan_dram_counts_get(d);
    CHECK(n.reads == 3 && n.row_hits == 1 && n.row_misses == 1 && n.row_conflicts == 1,
          "counts: %" PRIu64 " reads, %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " conflicts", n.reads, n.row_hits,
          n.row_misses, n.row_conflicts);
    CHECK(n.wait_ns == 14 + 0 + 28, "waited to the column command: tRCD, nothing, tRP + tRCD: %g ns", n.wait_ns);
    edan_dram_free(d);

    /* the close policy precharges after every read: the same row again is a miss, not a hit */
    edan_machine_dram c = params();
    c.page = EDAN_DRAM_CLOSE;
    d = make(&c);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 0), miss, "close: the first read");
    CHECK_EQ_U64(rd(d, L(0, 0, 1), 0, 1000), miss, "close: the same row again activates it again");
    CHECK_EQ_U64(rd(d, L(1, 0, 0), 0, 2000), miss, "close: another row finds the bank precharged");
    edan_dram_free(d);

    /* close_adaptive keeps the row for a hit that waited in the queue, closes it otherwise */
    c.page = EDAN_DRAM_CLOSE_ADAPTIVE;
    d = make(&c);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 0), miss, "close_adaptive: the first read");
    CHECK_EQ_U64(rd(d, L(0, 0, 1), 0, 0), miss + 4, "close_adaptive: a hit queued behind it, a burst later");
    CHECK_EQ_U64(rd(d, L(0, 0, 2), 0, 1000), miss, "close_adaptive: a hit that came later finds the row closed");
    edan_dram_free(d);
}

static void test_banks(void)
{
    const edan_machine_dram p = params();
    edan_dram *d = make(&p);
    /* two rows of bank 0 at once: the second waits tRAS from the first's activate, then tRP, tRCD */
    const uint64_t a = rd(d, L(0, 0, 0), 0, 0), b = rd(d, L(1, 0, 0), 0, 0);
    CHECK_EQ_U64(a, 52, "bank conflict: the first");
    CHECK_EQ_U64(b, 32 + 14 + 14 + 14 + 4 + 20, "bank conflict: tRAS + tRP + tRCD + tCL + tBURST + 20");
    edan_dram_free(d);
    /* two banks at once: they overlap, the second's burst right after the first's */
    d = make(&p);
    const uint64_t c = rd(d, L(0, 0, 0), 0, 0), e = rd(d, L(0, 1, 0), 0, 0);
    CHECK_EQ_U64(e, c + 4, "two banks overlap: one burst apart");
    edan_dram_free(d);
    /* with 2 bank groups (gem5: bank b in group b % 2), reads of one group are tCCD_L apart, of two a burst */
    edan_machine_dram g = params();
    g.bank_groups = 2;
    d = make(&g);
    const uint64_t f = rd(d, L(0, 0, 0), 0, 0), h = rd(d, L(0, 2, 0), 0, 0);
    CHECK_EQ_U64(h, f + 5, "banks 0 and 2, one bank group: tCCD_L apart");
    edan_dram_free(d);
    d = make(&g);
    (void)rd(d, L(0, 0, 0), 0, 0);
    const uint64_t other = rd(d, L(0, 1, 0), 0, 0);
    CHECK_EQ_U64(other, f + 4, "banks 0 and 1, two bank groups: a burst apart");
    const uint64_t h1 = rd(d, L(0, 0, 1), 0, 0), h2 = rd(d, L(0, 0, 2), 0, 0);
    CHECK_EQ_U64(h1, f + 8, "a row hit of bank 0 behind two bursts on the bus");
    CHECK_EQ_U64(h2, h1 + 5, "the next row hit of bank 0: tCCD_L after it, not a burst");
    edan_dram_free(d);
}

static void test_load(void)
{
    const edan_machine_dram p = params();
    edan_dram *d = make(&p);
    /* 16 reads of one row at once: each waits for the bursts before it, so latency grows a burst a read */
    for (uint64_t i = 0; i < 16; i++)
        CHECK_EQ_U64(rd(d, L(0, 0, i), 0, 0), 52 + 4 * i, "a row's reads at once: queueing on the bus");
    edan_dram_free(d);
    /* a read queue of 2: the third read enters when the first has left (its burst's end, 32) */
    edan_machine_dram q = params();
    q.read_queue = 2;
    d = make(&q);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 0), 52, "queue: first");
    CHECK_EQ_U64(rd(d, L(0, 1, 0), 0, 0), 56, "queue: second");
    CHECK_EQ_U64(rd(d, L(0, 2, 0), 0, 0), 32 + 52, "queue: the third enters at 32");
    edan_dram_free(d);
}

static void test_turnaround(void)
{
    const edan_machine_dram p = params();
    /* without writes, a row hit queued behind a read goes a burst after it */
    edan_dram *d = make(&p);
    (void)rd(d, L(0, 0, 0), 0, 0);
    const uint64_t plain = rd(d, L(0, 0, 1), 0, 0);
    CHECK_EQ_U64(plain, 56, "no writes: a burst later");
    edan_dram_free(d);
    /* five write-backs with the first read: above 4 the bus turns to writes for 2 of them, then back */
    d = make(&p);
    (void)rd(d, L(0, 0, 0), 5, 0);
    const uint64_t after = rd(d, L(0, 0, 1), 0, 0);
    CHECK_EQ_U64(after - plain, 2 + 2 * 4 + 5 + 14, "a drain of 2: tRTW + 2 bursts + tWTR + tCL");
    edan_dram_counts n = edan_dram_counts_get(d);
    CHECK(n.writes == 5 && n.drains == 1, "%" PRIu64 " writes, %" PRIu64 " drains", n.writes, n.drains);
    /* 3 writes queued, above the low threshold: the idle bus drains them before the next read, which waits
       for none of it when it comes late enough */
    const uint64_t late = rd(d, L(0, 0, 2), 0, 1000);
    CHECK_EQ_U64(late, 38, "an idle drain before a late read costs it nothing");
    n = edan_dram_counts_get(d);
    CHECK(n.drains == 2, "the idle drain: %" PRIu64 " drains", n.drains);
    edan_dram_free(d);
}

static void test_schedulers(void)
{
    /* a conflict to bank 0 (ready late), then a row hit to bank 1 (ready at once) */
    edan_machine_dram p = params();
    for (int fcfs = 0; fcfs < 2; fcfs++) {
        p.sched = fcfs ? EDAN_DRAM_FCFS : EDAN_DRAM_FRFCFS;
        edan_dram *d = make(&p);
        (void)rd(d, L(0, 0, 0), 0, 0);
        (void)rd(d, L(0, 1, 0), 0, 0); /* bank 1's row 0 open; its burst [32, 36) */
        const uint64_t conflict = rd(d, L(1, 0, 0), 0, 100), hit = rd(d, L(0, 1, 1), 0, 100);
        CHECK_EQ_U64(conflict, 14 + 14 + 14 + 4 + 20, "the conflict");
        if (fcfs)
            CHECK_EQ_U64(hit, conflict + 4, "FCFS: the hit after the conflict");
        else
            CHECK_EQ_U64(hit, 14 + 4 + 20, "FR-FCFS: the ready hit goes before the waiting conflict");
        edan_dram_free(d);
    }
}

/*
 * Reads asked out of time order (the trace's program order; an out-of-order
 * core issues a younger load first): one that arrives before a read of its
 * bank asked earlier finds the bank as its history was at its arrival, not
 * behind the later read, and leaves the bank's state to that read.
 */
static void test_past(void)
{
    const edan_machine_dram p = params();
    edan_dram *d = make(&p);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 1000), 52, "past: a read at 1000 ns, a row miss");
    CHECK_EQ_U64(rd(d, L(1, 0, 0), 0, 100), 52, "past: asked next, at 100 ns: the bank closed then, a row miss");
    CHECK_EQ_U64(rd(d, L(1, 0, 1), 0, 200), 14 + 4 + 20, "past: at 200 ns the row the read at 100 opened: a hit");
    CHECK_EQ_U64(rd(d, L(0, 0, 1), 0, 300), 14 + 14 + 14 + 4 + 20, "past: at 300 ns row 1 open: a conflict");
    CHECK_EQ_U64(rd(d, L(0, 0, 2), 0, 2000), 14 + 4 + 20, "past: after them the read at 1000's row is open");
    const edan_dram_counts n = edan_dram_counts_get(d);
    CHECK(n.row_hits == 2 && n.row_misses == 2 && n.row_conflicts == 1,
          "past: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " conflicts", n.row_hits, n.row_misses,
          n.row_conflicts);
    edan_dram_free(d);
    /* the close policy: the read at 100 finds the bank precharged; the one at 120 follows its precharge */
    edan_machine_dram c = params();
    c.page = EDAN_DRAM_CLOSE;
    d = make(&c);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 1000), 52, "past, close: the read at 1000 ns");
    CHECK_EQ_U64(rd(d, L(1, 0, 0), 0, 100), 52, "past, close: at 100 ns a miss");
    CHECK_EQ_U64(rd(d, L(1, 0, 1), 0, 120), 132 + 14 - 120 + 14 + 14 + 4 + 20,
                 "past, close: at 120 ns activated tRP after the precharge tRAS after 100");
    edan_dram_free(d);
}

/* Reads with their write-backs' lines: lane 0, at x ns, in ns since x. */
static uint64_t rdw(edan_dram *d, uint64_t line, const uint64_t *wb, uint32_t writes, uint64_t x)
{
    return edan_dram_read(d, 0, line, wb, writes, x * NS) / NS - x;
}

static void test_activates(void)
{
    /* tRRD 6: a second bank's activate at once waits 6 ns, and so its data */
    edan_machine_dram p = params();
    p.trrd = 6;
    edan_dram *d = make(&p);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 0), 52, "tRRD: the first activate");
    CHECK_EQ_U64(rd(d, L(0, 1, 0), 0, 0), 6 + 52, "tRRD: the second bank's activate tRRD after the first");
    CHECK_EQ_U64(rd(d, L(0, 2, 0), 0, 100), 52, "tRRD: an activate long after the last does not wait");
    edan_dram_free(d);
    /* a later-asked read due earlier fits in a gap of tRRD either side of the activates booked */
    d = make(&p);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 100), 52, "a gap: the activate at 100");
    CHECK_EQ_U64(rd(d, L(0, 1, 0), 0, 0), 52, "a gap: one at 0, far from it");
    CHECK_EQ_U64(rd(d, L(0, 2, 0), 0, 97), 9 + 52, "a gap: one wanted at 97 goes tRRD after 100");
    edan_dram_free(d);

    /* with 2 bank groups, tRRD_L 10 within a group, tRRD 6 between groups */
    p.bank_groups = 2;
    p.trrd_l = 10;
    d = make(&p);
    (void)rd(d, L(0, 0, 0), 0, 0);
    CHECK_EQ_U64(rd(d, L(0, 2, 0), 0, 0), 10 + 52, "tRRD_L: bank 2, bank 0's group");
    edan_dram_free(d);
    d = make(&p);
    (void)rd(d, L(0, 0, 0), 0, 0);
    CHECK_EQ_U64(rd(d, L(0, 1, 0), 0, 0), 6 + 52, "tRRD: bank 1, the other group");
    edan_dram_free(d);

    /* at most 2 activates in 30 ns: the third waits for the window from the first, the fourth shares its own */
    edan_machine_dram x = params();
    x.activation_limit = 2;
    x.txaw = 30;
    d = make(&x);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 0), 52, "tXAW: the first");
    CHECK_EQ_U64(rd(d, L(0, 1, 0), 0, 0), 56, "tXAW: the second, a burst later on the bus");
    CHECK_EQ_U64(rd(d, L(0, 2, 0), 0, 0), 30 + 52, "tXAW: the third waits until tXAW after the first");
    CHECK_EQ_U64(rd(d, L(0, 3, 0), 0, 0), 30 + 56, "tXAW: the fourth, a second in the third's window");
    edan_dram_free(d);
    /* row hits do not activate: the window does not hold them */
    d = make(&x);
    (void)rd(d, L(0, 0, 0), 0, 0);
    (void)rd(d, L(0, 1, 0), 0, 0);
    CHECK_EQ_U64(rd(d, L(0, 0, 1), 0, 0), 60, "tXAW: a row hit behind two bursts, no activate");
    edan_dram_free(d);
}

static void test_refresh(void)
{
    /* tREFI 1000, tRFC 100: refreshes from 986 (tREFI - tRP) for tRP + tRFC = 114 ns, then from 1972 */
    edan_machine_dram p = params();
    p.trefi = 1000;
    p.trfc = 100;
    edan_dram *d = make(&p);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 900), 52, "before the refresh: a miss");
    CHECK_EQ_U64(rd(d, L(0, 0, 1), 0, 950), 38, "before the refresh: a row hit");
    CHECK_EQ_U64(rd(d, L(0, 0, 2), 0, 1000), 1100 - 1000 + 52,
                 "during the refresh: waits for its end, and the row it closed is activated again");
    CHECK_EQ_U64(rd(d, L(0, 1, 0), 0, 1050), 1100 - 1050 + 52 + 4,
                 "another bank during it: waits for its end (and a burst on the bus)");
    CHECK_EQ_U64(rd(d, L(0, 0, 3), 0, 1500), 38, "after it: the row opened since is a hit");
    CHECK_EQ_U64(rd(d, L(0, 0, 4), 0, 2200), 52, "after the next refresh (1972): the row is closed again");
    const edan_dram_counts n = edan_dram_counts_get(d);
    CHECK(n.row_hits == 2 && n.row_misses == 4 && n.row_conflicts == 0,
          "refresh: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " conflicts", n.row_hits, n.row_misses,
          n.row_conflicts);
    edan_dram_free(d);
    /* a read whose activate would fall in the refresh is put after it; one that issued before goes on */
    d = make(&p);
    CHECK_EQ_U64(rd(d, L(0, 0, 0), 0, 980), 52, "its activate at 980, before the refresh: it goes on");
    CHECK_EQ_U64(rd(d, L(1, 0, 0), 0, 980), 1100 - 980 + 52,
                 "a conflict behind it: the refresh precharged the bank, a miss at its end");
    edan_dram_free(d);
}

static void test_writes(void)
{
    /* every write-back drains at once (high threshold 0), one a turn; bank 1's row 0 read, bank 0's row 1
       written: the write opens its row, then a read of row 0 of bank 0 is a conflict */
    edan_machine_dram p = params();
    p.write_high_percent = 10;
    p.write_low_percent = 0;
    p.min_writes_per_switch = 1;
    const uint64_t wb[1] = {L(1, 0, 0)};
    edan_dram *d = make(&p);
    CHECK_EQ_U64(rdw(d, L(0, 1, 0), wb, 1, 0), 52, "the read, its write-back queued and drained after it");
    CHECK_EQ_U64(rdw(d, L(0, 0, 0), NULL, 0, 100), 14 + 14 + 14 + 4 + 20,
                 "a read of another row of the written bank: a conflict");
    edan_dram_counts n = edan_dram_counts_get(d);
    CHECK(n.row_conflicts == 1 && n.row_misses == 1 && n.writes == 1 && n.drains == 1,
          "%" PRIu64 " conflicts, %" PRIu64 " misses, %" PRIu64 " writes, %" PRIu64 " drains", n.row_conflicts,
          n.row_misses, n.writes, n.drains);
    edan_dram_free(d);
    /* the write's data [28, 32) (its activate at 0, tRCD, tCWL = tCL), so no precharge before 32 + tWR = 47 */
    d = make(&p);
    (void)rdw(d, L(0, 1, 0), wb, 1, 0);
    CHECK_EQ_U64(rdw(d, L(0, 0, 0), NULL, 0, 40), 47 - 40 + 14 + 14 + 14 + 4 + 20,
                 "tWR: the conflict's precharge 15 ns after the write's data");
    edan_dram_free(d);
    /* the write's row is a hit for a read; without its line the write opens nothing: a miss */
    d = make(&p);
    (void)rdw(d, L(0, 1, 0), wb, 1, 0);
    CHECK_EQ_U64(rdw(d, L(1, 0, 5), NULL, 0, 100), 38, "a read of the written row: a hit");
    edan_dram_free(d);
    d = make(&p);
    (void)rdw(d, L(0, 1, 0), NULL, 1, 0);
    CHECK_EQ_U64(rdw(d, L(0, 0, 0), NULL, 0, 100), 52, "a write-back whose line is not known opens no row");
    n = edan_dram_counts_get(d);
    CHECK(n.writes == 1 && n.drains == 1, "%" PRIu64 " writes, %" PRIu64 " drains", n.writes, n.drains);
    edan_dram_free(d);
    /* a drain behind which the write's bank is busy lasts until its burst: the next read waits */
    d = make(&p);
    const uint64_t same[1] = {L(1, 1, 0)}; /* bank 1, the read's bank, another row: a conflict for the write */
    (void)rdw(d, L(0, 1, 0), same, 1, 0);
    /* the write: precharge at tRAS (32), activate 46, write 60, data [74, 78); the turn ends 78 + tWTR + tCL */
    CHECK_EQ_U64(rdw(d, L(0, 2, 0), NULL, 0, 0), 78 + 5 + 14 + 4 + 20, "a read behind the write's turn");
    edan_dram_free(d);
}

/* Through the hierarchy: a read from memory is the DRAM's time plus the lane's latency (the link). */
static void test_memtime(void)
{
    edan_machine m;
    memset(&m, 0, sizeof m);
    m.clock_ghz = 1;
    m.mem_bandwidth_gbs = 16;
    m.n_data_levels = 2;
    for (int l = 0; l < 2; l++)
        m.data[l] =
            (edan_machine_cache){.geo = {1u << 15, 64, 2, true, true}, .hit_latency = 0, .mshrs = 4, .mshr_targets = 4};
    m.dram = params();
    const edan_tick memlat[3] = {0, 50 * NS, 300 * NS};
    edan_memtime mt;
    edan_error err = {0};
    CHECK(edan_memtime_init(&mt, &m, memlat, 3, 3, &err) == 0, "init: %s", err.msg);
    const edan_tick t0[3] = {0, 0, 0};
    edan_tick fill[3];
    edan_memtime_read(&mt, L(0, 0, 0), 2, 2, 64, t0, fill);
    for (int k = 0; k < 3; k++)
        CHECK_EQ_U64(fill[k], 52 * NS + memlat[k], "an isolated read: the DRAM's 52 ns plus the link");
    edan_memtime_free(&mt);
}

/* ===================================================================== */
/* A naive DRAM: everything kept, each rule as stated                     */
/* ===================================================================== */

/*
 * The rules of params() in whole ns with, in the random trials, tRRD 3, at
 * most 2 activates in 25 ns and refreshes from k x 2986 ns for 114 ns
 * (tREFI 3000, tRFC 100). Every bus interval and every activate is kept;
 * an activate goes at the earliest time that breaks no rule, found among
 * the times where one stops binding.
 */
#define N_TRRD 3
#define N_TXAW 25
#define N_LIMIT 2
#define N_PERIOD 2986
#define N_REFLEN 114

typedef struct naive {
    edan_machine_dram p;
    int rules; /* the random trials' tRRD, tXAW and refresh (else none of them) */
    uint64_t row[4], col_at[4], act_at[4], pre_at[4], since[4];
    uint64_t (*busy)[2];
    size_t n;
    uint64_t *acts;
    size_t nacts;
    uint64_t wl[64]; /* the write queue: line + 1, 0 when not known; wl[0] the oldest */
    uint32_t wq;
    uint64_t hits, misses, conflicts, drains, wait_ns; /* wait: arrival to the column command */
} naive;

static int is_free(const naive *r, uint64_t t, uint64_t len)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->busy[i][0] < t + len && t < r->busy[i][1])
            return 0;
    return 1;
}

/* the first t >= at with [t, t + len) free: the end of some interval, or at */
static uint64_t first_free(const naive *r, uint64_t at, uint64_t len)
{
    uint64_t best = UINT64_MAX;
    if (is_free(r, at, len))
        return at;
    for (size_t i = 0; i < r->n; i++)
        if (r->busy[i][1] >= at && r->busy[i][1] < best && is_free(r, r->busy[i][1], len))
            best = r->busy[i][1];
    return best;
}

static void book(naive *r, uint64_t t, uint64_t len)
{
    r->busy = realloc(r->busy, (r->n + 1) * sizeof *r->busy);
    r->busy[r->n][0] = t;
    r->busy[r->n][1] = t + len;
    r->n++;
}

static uint64_t mx(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* t, or the end of the refresh it falls in */
static uint64_t n_unrefreshed(const naive *r, uint64_t t)
{
    for (uint64_t k = 1; r->rules && k * N_PERIOD <= t; k++)
        if (t < k * N_PERIOD + N_REFLEN)
            return k * N_PERIOD + N_REFLEN;
    return t;
}

/* the end of the first refresh that starts in (a, b], or 0 */
static uint64_t n_refresh_in(const naive *r, uint64_t a, uint64_t b)
{
    for (uint64_t k = 1; r->rules && k * N_PERIOD <= b; k++)
        if (k * N_PERIOD > a)
            return k * N_PERIOD + N_REFLEN;
    return 0;
}

/* whether an activate at a breaks no rule */
static int n_act_ok(const naive *r, uint64_t a)
{
    if (n_unrefreshed(r, a) != a)
        return 0;
    for (size_t i = 0; i < r->nacts; i++)
        if (r->acts[i] < a + N_TRRD && a < r->acts[i] + N_TRRD)
            return 0;
    for (size_t i = 0; i <= r->nacts; i++) { /* every window of N_TXAW from an activate that holds a */
        const uint64_t s = i < r->nacts ? r->acts[i] : a;
        if (s > a || a >= s + N_TXAW)
            continue;
        int c = 1;
        for (size_t j = 0; j < r->nacts; j++)
            c += s <= r->acts[j] && r->acts[j] < s + N_TXAW;
        if (c > N_LIMIT)
            return 0;
    }
    return 1;
}

/* the earliest activate from t: t itself or where a rule stops binding (an activate's tRRD or tXAW, a refresh) */
static uint64_t n_activate(naive *r, uint64_t t)
{
    uint64_t a = n_unrefreshed(r, t);
    if (r->rules) {
        uint64_t best = UINT64_MAX;
        if (n_act_ok(r, a))
            best = a;
        for (size_t i = 0; i < r->nacts; i++) {
            const uint64_t c[2] = {r->acts[i] + N_TRRD, r->acts[i] + N_TXAW};
            for (int j = 0; j < 2; j++) {
                const uint64_t e = n_unrefreshed(r, c[j]);
                if (e >= a && e < best && n_act_ok(r, e))
                    best = e;
            }
        }
        CHECK(best != UINT64_MAX, "the naive DRAM finds a time for its activate");
        a = best;
        r->acts = realloc(r->acts, (r->nacts + 1) * sizeof *r->acts);
        r->acts[r->nacts++] = a;
    }
    return a;
}

/*
 * A burst to `line` from x (open page, no bank groups): its column command's earliest time; *out 0 hit, 1
 * miss, 2 conflict
 */
static uint64_t n_bank(naive *r, uint64_t line, uint64_t x, int *out)
{
    const uint64_t b = line / 16 % 4, row = line / 64;
    const uint64_t first = r->row[b] == row + 1 ? mx(x, r->col_at[b]) : mx(x, r->pre_at[b]);
    const uint64_t ref = r->row[b] ? n_refresh_in(r, r->since[b], first) : 0;
    if (ref) { /* the refresh closed the row; its bank is free from the refresh's end */
        r->row[b] = 0;
        r->act_at[b] = mx(r->act_at[b], ref);
    }
    if (r->row[b] == row + 1) {
        *out = 0;
        r->since[b] = first;
        return first;
    }
    uint64_t act = mx(x, r->act_at[b]);
    if (r->row[b])
        act = mx(act, first + 14);
    *out = r->row[b] ? 2 : 1;
    act = n_activate(r, act);
    r->since[b] = act;
    r->row[b] = row + 1;
    r->pre_at[b] = act + 32;
    return mx(act + 14, r->col_at[b]);
}

/* a turn of n writes from `at`: the first gap for it with every write a hit, as long as the banks make it */
static void n_drain(naive *r, uint64_t at, uint32_t n)
{
    const uint64_t s = first_free(r, at, 2 + 4 * (uint64_t)n + 5 + 14);
    uint64_t t = s + 2;
    for (uint32_t i = 0; i < n; i++) {
        if (r->wl[i]) {
            const uint64_t b = (r->wl[i] - 1) / 16 % 4;
            int out;
            t = mx(t, n_bank(r, r->wl[i] - 1, s, &out) + 14);
            r->col_at[b] = mx(r->col_at[b], t - 14 + 4);
            r->pre_at[b] = mx(r->pre_at[b], t + 4 + 15);
        }
        t += 4;
    }
    book(r, s, t + 5 + 14 - s);
    memmove(r->wl, r->wl + n, (r->wq - n) * sizeof *r->wl);
    r->wq -= n;
    r->drains++;
}

/* FR-FCFS, a read queue larger than the stream, times in ns (params()) */
static uint64_t naive_read(naive *r, uint64_t line, const uint64_t *wb, uint32_t writes, uint64_t x)
{
    uint64_t end = 0;
    for (size_t i = 0; i < r->n; i++)
        end = mx(end, r->busy[i][1]);
    if (r->wq > 2 && end < x) { /* an idle drain */
        const uint64_t fixed = 2 + 5 + 14, fit = x - end > fixed ? (x - end - fixed) / 4 : 0;
        uint64_t n = r->wq - 2 < fit ? r->wq - 2 : fit, least = r->wq < 2 ? r->wq : 2;
        n_drain(r, end, (uint32_t)(n > least ? n : least));
    }
    int out;
    const uint64_t ready = n_bank(r, line, x, &out), b = line / 16 % 4;
    r->hits += out == 0;
    r->misses += out == 1;
    r->conflicts += out == 2;
    const uint64_t data = first_free(r, ready + 14, 4);
    book(r, data, 4);
    r->wait_ns += data - 14 - x;
    r->col_at[b] = mx(r->col_at[b], data - 14 + 4);
    r->pre_at[b] = mx(r->pre_at[b], data - 14 + 8);
    for (uint32_t i = 0; i < writes; i++) {
        r->wl[r->wq++] = wb ? wb[i] + 1 : 0;
        while (r->wq > 4)
            n_drain(r, x, 2);
    }
    return data + 4 + 20;
}

static void test_naive(void)
{
    int bad = 0, bad_counts = 0, reads = 0;
    for (int trial = 0; trial < 40; trial++) {
        /* the first 10 trials with none of tRRD, tXAW, refresh and write-backs' lines; the rest with all */
        const int rules = trial >= 10;
        rt_seed(1000 + (uint64_t)trial);
        edan_machine_dram p = params();
        p.read_queue = 4096;
        if (rules) {
            p.trrd = N_TRRD;
            p.txaw = N_TXAW;
            p.activation_limit = N_LIMIT;
            p.trefi = N_PERIOD + 14;
            p.trfc = N_REFLEN - 14;
        }
        edan_dram *d = make(&p);
        naive r;
        memset(&r, 0, sizeof r);
        r.rules = rules;
        uint64_t x = 0;
        for (int i = 0; i < 3000; i++) {
            /* requests in time order with some at once, a few rows of each bank, some write-backs */
            x += rt_below(3) ? rt_below(8) : rt_below(200);
            const uint64_t line = L(rt_below(3), rt_below(4), rt_below(16));
            const uint32_t w = rt_below(4) == 0 ? (uint32_t)rt_below(3) : 0;
            uint64_t wb[2];
            for (uint32_t j = 0; j < w; j++)
                wb[j] = L(rt_below(3), rt_below(4), rt_below(16));
            const uint64_t *lines = rules ? wb : NULL;
            const uint64_t got = edan_dram_read(d, 0, line, lines, w, x * NS);
            const uint64_t want = naive_read(&r, line, lines, w, x) * NS;
            if (got != want && bad++ < 5)
                fprintf(stderr,
                        "trial %d read %d: line %" PRIu64 " at %" PRIu64 " ns: %" PRIu64 ", naive %" PRIu64 "\n", trial,
                        i, line, x, got / NS, want / NS);
            reads++;
        }
        /* the lane's row outcomes, drains and queue wait as the naive DRAM counted them */
        const edan_dram_counts c = edan_dram_lane_counts(d, 0), all = edan_dram_counts_get(d);
        if ((c.reads != 3000 || c.row_hits != r.hits || c.row_misses != r.misses || c.row_conflicts != r.conflicts ||
             c.drains != r.drains || fabs(c.wait_ns - (double)r.wait_ns) > 1e-6 * (double)r.wait_ns ||
             all.row_hits != c.row_hits) &&
            bad_counts++ < 5)
            fprintf(stderr,
                    "trial %d: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " conflicts, %" PRIu64
                    " drains, %.0f ns waited; naive %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 "\n",
                    trial, c.row_hits, c.row_misses, c.row_conflicts, c.drains, c.wait_ns, r.hits, r.misses,
                    r.conflicts, r.drains, r.wait_ns);
        free(r.busy);
        free(r.acts);
        edan_dram_free(d);
    }
    CHECK(bad == 0, "%d of %d reads differ from the naive DRAM", bad, reads);
    CHECK(bad_counts == 0, "%d of 40 trials count otherwise than the naive DRAM", bad_counts);
}

/*
 * The data cache keeps the lines a read from memory evicted dirty, and the
 * memory hierarchy hands them to the DRAM: a store's line evicted by a
 * load's miss is written back, opening its row, and a read of another row
 * of its bank is then a conflict. Without the cache's record the
 * write-back's line is not known and opens nothing.
 */
static void test_writeback_lines(void)
{
    for (int kept = 0; kept < 2; kept++) {
        edan_machine m;
        memset(&m, 0, sizeof m);
        m.clock_ghz = 1;
        m.n_data_levels = 1; /* 128 bytes, one way: lines 64 and 16 share set 0 */
        m.data[0] =
            (edan_machine_cache){.geo = {128, 64, 1, true, true}, .hit_latency = 0, .mshrs = 4, .mshr_targets = 4};
        m.dram = params();
        m.dram.write_high_percent = 10; /* every write-back drains at once */
        m.dram.write_low_percent = 0;
        m.dram.min_writes_per_switch = 1;
        edan_cache_config cc = {.n_levels = 1};
        cc.level[0] = m.data[0].geo;
        edan_cache c;
        edan_memtime mt;
        edan_error err = {0};
        const edan_tick memlat[1] = {0};
        CHECK(edan_cache_init(&c, &cc, &err) == 0 && edan_memtime_init(&mt, &m, memlat, 1, 1, &err) == 0, "init: %s",
              err.msg);
        if (kept) {
            CHECK(edan_cache_wb_enable(&c, &err) == 0, "the cache keeps its write-backs: %s", err.msg);
            mt.wb = c.wb;
        }
        (void)edan_cache_access(&c, L(1, 0, 0) * 64, 8, true); /* bank 0's row 1, dirty in the cache */
        const edan_cache_result r = edan_cache_access(&c, L(0, 1, 0) * 64, 8, false);
        CHECK(r.level == 1 && r.ram_bytes == 128, "the load's miss evicts the store's line: %u bytes", r.ram_bytes);
        const edan_tick t0[1] = {0}, t1[1] = {100 * NS};
        edan_tick fill[1];
        edan_memtime_read(&mt, L(0, 1, 0), 1, 1, r.ram_bytes, t0, fill);
        CHECK_EQ_U64(fill[0], 52 * NS, "the load's read, its write-back drained after it");
        edan_memtime_read(&mt, L(0, 0, 0), 1, 1, 64, t1, fill);
        CHECK_EQ_U64(fill[0] - t1[0], (kept ? 14 + 14 + 14 + 4 + 20 : 52) * NS,
                     kept ? "bank 0's row 0 after the write-back opened row 1: a conflict"
                          : "the write-back's line not known: bank 0 closed, a miss");
        edan_memtime_free(&mt);
        edan_cache_free(&c);
    }
}

int main(void)
{
    test_row_states();
    test_banks();
    test_load();
    test_turnaround();
    test_schedulers();
    test_past();
    test_activates();
    test_refresh();
    test_writes();
    test_memtime();
    test_writeback_lines();
    test_naive();
    return check_summary();
}
