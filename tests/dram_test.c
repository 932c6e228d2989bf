/*
 * dram_test.c - the timing model's DRAM (src/analysis/timing/dram.h) on
 * hand-built streams of reads with exact answers: a row hit costs tRCD less
 * than a row miss and tRP + tRCD less than a row conflict; reads of other
 * rows of one bank serialize (tRAS, tRP, tRCD); reads of other banks
 * overlap (one burst apart); a full read queue delays the next read; a
 * write drain costs the reads behind it its turnarounds and bursts; FCFS
 * keeps the order FR-FCFS changes; the close policy never hits. Then
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

#include "analysis/timing/dram.h"
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
/* A naive DRAM: every booked bus interval kept, the same rules            */
/* ===================================================================== */

typedef struct naive {
    edan_machine_dram p;
    uint64_t row[4], col_at[4], act_at[4], pre_at[4];
    uint64_t (*busy)[2];
    size_t n;
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

/* open page, FR-FCFS, no bank groups, a read queue larger than the stream, times in ns (params()) */
static uint64_t naive_read(naive *r, uint64_t line, uint32_t writes, uint64_t x)
{
    const uint64_t b = line / 16 % 4, row = line / 64;
    uint64_t end = 0;
    for (size_t i = 0; i < r->n; i++)
        end = mx(end, r->busy[i][1]);
    if (r->wq > 2 && end < x) { /* an idle drain */
        const uint64_t fixed = 2 + 5 + 14, fit = x - end > fixed ? (x - end - fixed) / 4 : 0;
        uint64_t n = r->wq - 2 < fit ? r->wq - 2 : fit, least = r->wq < 2 ? r->wq : 2;
        n = n > least ? n : least;
        book(r, first_free(r, end, fixed + 4 * n), fixed + 4 * n);
        r->wq -= (uint32_t)n;
        r->drains++;
    }
    uint64_t ready;
    if (r->row[b] == row + 1) {
        ready = mx(x, r->col_at[b]);
        r->hits++;
    } else {
        uint64_t act = mx(x, r->act_at[b]);
        if (r->row[b])
            act = mx(act, mx(x, r->pre_at[b]) + 14);
        r->conflicts += r->row[b] != 0;
        r->misses += r->row[b] == 0;
        r->row[b] = row + 1;
        r->pre_at[b] = act + 32;
        ready = mx(act + 14, r->col_at[b]);
    }
    const uint64_t data = first_free(r, ready + 14, 4);
    book(r, data, 4);
    r->wait_ns += data - 14 - x;
    r->col_at[b] = mx(r->col_at[b], data - 14 + 4);
    r->pre_at[b] = mx(r->pre_at[b], data - 14 + 8);
    r->wq += writes;
    while (r->wq > 4) {
        const uint64_t n = r->wq < 2 ? r->wq : 2, len = 2 + 4 * n + 5 + 14;
        book(r, first_free(r, x, len), len);
        r->wq -= (uint32_t)n;
        r->drains++;
    }
    return data + 4 + 20;
}

static void test_naive(void)
{
    int bad = 0, bad_counts = 0, reads = 0;
    for (int trial = 0; trial < 40; trial++) {
        rt_seed(1000 + (uint64_t)trial);
        edan_machine_dram p = params();
        p.read_queue = 4096;
        edan_dram *d = make(&p);
        naive r;
        memset(&r, 0, sizeof r);
        uint64_t x = 0;
        for (int i = 0; i < 3000; i++) {
            /* requests in time order with some at once, a few rows of each bank, some write-backs */
            x += rt_below(3) ? rt_below(8) : rt_below(200);
            const uint64_t line = L(rt_below(3), rt_below(4), rt_below(16));
            const uint32_t w = rt_below(4) == 0 ? (uint32_t)rt_below(3) : 0;
            const uint64_t got = edan_dram_read(d, 0, line, NULL, w, x * NS), want = naive_read(&r, line, w, x) * NS;
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
        edan_dram_free(d);
    }
    CHECK(bad == 0, "%d of %d reads differ from the naive DRAM", bad, reads);
    CHECK(bad_counts == 0, "%d of 40 trials count otherwise than the naive DRAM", bad_counts);
}

int main(void)
{
    test_row_states();
    test_banks();
    test_load();
    test_turnaround();
    test_schedulers();
    test_memtime();
    test_naive();
    return check_summary();
}
