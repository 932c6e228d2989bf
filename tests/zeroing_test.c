/*
 * The kernel's zeroing of a page at the program's first store to it
 * (analysis/zeroing/zeroing.h, machine files' `[machine] page_zeroing =
 * first-store`):
 *  - the set against a naive reference (a list of the pages written,
 *    searched from the start) on random stores whose pages collide in the
 *    memo: a page answers "first" once, at its first store;
 *  - the timing model that zeroes equals the model that does not, run on the
 *    stream with the reference's kernel writes inserted before each first
 *    store (the page's lines, ascending), cycles and counts, on random
 *    streams of loads, stores, the kernel's own writes and warm records, one
 *    thread or two lane groups, any batch size, exact and sampled;
 *  - a hand-built stream with an exact answer: a loop that writes 8 fresh
 *    pages misses on none of their lines and reads nothing from memory (256
 *    misses without zeroing); written again, no page is zeroed twice; a
 *    page read first (the zero page on Linux: nothing allocated) is zeroed
 *    at its first store all the same.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/zeroing/zeroing.h"
#include "check.h"
#include "random_trace.h"
#include "ref_pages.h"
#include "timing_check.h"

#define PAGE 4096u
#define ZLINES (PAGE / EDAN_KERNEL_LINE)

/* The naive reference (ref_pages.h): whether a store is the first to its page. */
typedef ref_pages ref_set;

static bool ref_first(ref_set *r, uint64_t addr)
{
    bool fresh;
    ref_page_index(r, addr, &fresh);
    return fresh;
}

/* A random address: pages a multiple of EDAN_ZEROING_MEMO apart share a memo slot. */
static uint64_t random_addr(void)
{
    const uint64_t page = 0x400 + rt_below(16) * EDAN_ZEROING_MEMO + rt_below(5);
    return page * PAGE + rt_below(PAGE / 8) * 8;
}

static void set_against_reference(void)
{
    for (int trial = 0; trial < 50; trial++) {
        edan_zeroing z;
        CHECK(edan_zeroing_init(&z) == 0, "init");
        static ref_set r;
        r.n = 0;
        for (int i = 0; i < 2000; i++) {
            const uint64_t a = random_addr();
            const bool want = ref_first(&r, a);
            const int got = edan_zeroing_first(&z, a);
            if (got != (int)want) {
                CHECK(0, "trial %d, store %d at %#" PRIx64 ": first %d, the reference's %d", trial, i, a, got, want);
                break;
            }
        }
        edan_zeroing_free(&z);
    }
}

static edan_machine zeroing(edan_machine m)
{
    m.page_zeroing = EDAN_ZEROING_FIRST_STORE;
    return m;
}

/* Whether a record stores: what the model asks the set about. */
static bool stores(const edan_exec *r)
{
    return (r->insn->mem == EDAN_MEM_STORE || r->insn->mem == EDAN_MEM_AMO) && !(r->flags & EDAN_EXEC_NO_ACCESS);
}

/* recs[0..n) with the reference's zeroing: the page's lines as the kernel's writes before each first store. */
static size_t with_zeroing(const edan_exec *recs, size_t n, edan_exec *out, size_t cap, uint64_t *pages)
{
    static ref_set r;
    r.n = 0;
    size_t m = 0;
    *pages = 0;
    for (size_t i = 0; i < n; i++) {
        if (stores(&recs[i]) && ref_first(&r, recs[i].addr)) {
            const uint64_t page = recs[i].addr / PAGE * PAGE;
            for (uint64_t j = 0; j < ZLINES && m < cap; j++)
                out[m++] = edan_exec_kernel_write(page + j * EDAN_KERNEL_LINE, recs[i].vcpu);
            *pages += !(recs[i].flags & EDAN_EXEC_WARM); /* the region's alone count */
        }
        if (m < cap)
            out[m++] = recs[i];
    }
    CHECK(m < cap, "the reference's stream outgrew its room");
    return m;
}

/*
 * Random loads, stores and additions over a few pages, now and then a run
 * of the kernel's writes (a read() into a buffer) or, from trial 8 on, a run
 * of warm records (the program outside a filtered region).
 */
static size_t random_stream(edan_exec *recs, const edan_insn *ld, const edan_insn *st, const edan_insn *op, size_t n,
                            bool warm)
{
    size_t i = 0;
    while (i < n) {
        const uint64_t k = rt_below(40);
        if (k == 0) { /* the kernel writes a few lines */
            const uint64_t a = random_addr() & ~(uint64_t)(EDAN_KERNEL_LINE - 1);
            for (uint64_t j = 0; j < 1 + rt_below(4) && i < n; j++)
                recs[i++] = edan_exec_kernel_write(a + j * EDAN_KERNEL_LINE, 0);
            continue;
        }
        const bool w = warm && k < 8; /* a few warm records in a row */
        for (uint64_t j = 0; j < (w ? 1 + rt_below(20) : 1) && i < n; j++) {
            const uint64_t c = rt_below(4);
            recs[i] = rec(c == 0 ? ld : c == 1 ? st : op, random_addr());
            recs[i].flags = w ? EDAN_EXEC_WARM : 0;
            i++;
        }
    }
    return n;
}

static void model_against_reference(void)
{
    static edan_exec recs[MAXN], ref[MAXN * 8];
    edan_insn ld = load(EDAN_REG_X(6), EDAN_REG_X(6), 0x1000), st = store(EDAN_REG_X(7), EDAN_REG_X(8), 0x1004, 8),
              op = add(EDAN_REG_X(7), EDAN_REG_X(7), 0x1008);
    edan_machine m = base_machine();
    m.data[0].geo.size = 8192; /* small caches, so that a page's lines evict others */
    m.data[1].geo.size = 65536;
    const edan_machine zm = zeroing(m);
    for (int trial = 0; trial < 16; trial++) {
        const size_t n = random_stream(recs, &ld, &st, &op, MAXN, trial >= 8);
        uint64_t pages;
        const size_t rn = with_zeroing(recs, n, ref, sizeof ref / sizeof *ref, &pages);
        const int threads = trial % 2 ? 2 : 1;
        const size_t batch = trial % 3 ? 64 : 7;
        const double lat[5] = {50, 100, 200, 300, 400};
        /* sampled: units of 50 in periods of 200, so that splits fall in skips, warm-ups and units */
        const edan_timing_sampling smp = {50, 20, 200, 0, 0};
        const edan_timing_sampling *s = trial % 4 == 3 ? &smp : NULL;
        edan_timing *want = timing_run_sampled(&m, ref, rn, lat, 5, batch, s ? 1 : threads, s);
        edan_timing *got = timing_run_sampled(&zm, recs, n, lat, 5, batch, s ? 1 : threads, s);
        if (!want || !got) {
            edan_timing_free(want);
            edan_timing_free(got);
            return;
        }
        for (int k = 0; k < 5; k++)
            CHECK(edan_timing_lane_get(got, k).cycles == edan_timing_lane_get(want, k).cycles,
                  "trial %d (%d threads, batches of %zu%s) @%g ns: %.17g cycles, the reference stream's %.17g", trial,
                  threads, batch, s ? ", sampled" : "", lat[k], edan_timing_lane_get(got, k).cycles,
                  edan_timing_lane_get(want, k).cycles);
        const edan_timing_counts *a = edan_timing_counts_get(got), *b = edan_timing_counts_get(want);
        CHECK(!memcmp(a->level_misses, b->level_misses, sizeof a->level_misses) && a->ram_lines == b->ram_lines &&
                  a->ram_bytes == b->ram_bytes && a->stores == b->stores,
              "trial %d: L1d misses %" PRIu64 ", L2 %" PRIu64 ", lines %" PRIu64 "; the reference stream's %" PRIu64
              ", %" PRIu64 ", %" PRIu64,
              trial, a->level_misses[0], a->level_misses[1], a->ram_lines, b->level_misses[0], b->level_misses[1],
              b->ram_lines);
        CHECK(a->pages_zeroed == pages && b->pages_zeroed == 0, "trial %d: %" PRIu64 " pages zeroed, not %" PRIu64,
              trial, a->pages_zeroed, pages);
        edan_timing_free(want);
        edan_timing_free(got);
    }
}

/*
 * 8 fresh pages at 0x100000 written a line at a time (32 lines of 128 bytes
 * each), an addition after each store, twice; then page 9 read whole, then
 * written; its length.
 */
static size_t fresh_pages_stream(edan_exec *recs, edan_insn *st, edan_insn *ld, edan_insn *op)
{
    *st = store(EDAN_REG_X(7), EDAN_REG_X(8), 0x1000, 8);
    load_and_add(ld, op);
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t a = 0x100000; a < 0x100000 + 8 * PAGE; a += LINE) {
            recs[n++] = rec(st, a);
            recs[n++] = rec(op, 0);
        }
    const uint64_t p9 = 0x100000 + 9 * PAGE;
    for (uint64_t a = p9; a < p9 + PAGE; a += LINE)
        recs[n++] = rec(ld, a);
    for (uint64_t a = p9; a < p9 + PAGE; a += LINE)
        recs[n++] = rec(st, a);
    return n;
}

/*
 * The stream above. Without zeroing the first pass misses its 256 lines (the L1d
 * holds 256: the second pass hits) and page 9's reads miss its 32; with
 * zeroing no store misses: 32 misses and 32 lines from memory, page 9's
 * reads, and 9 pages zeroed, each once. With an 8-entry store queue the
 * stores' misses take time: zeroing saves it at every latency.
 */
static void loop_over_fresh_pages(void)
{
    static edan_exec recs[MAXN];
    edan_insn st, ld, op;
    const size_t n = fresh_pages_stream(recs, &st, &ld, &op);
    edan_machine m = base_machine();
    m.sq_entries = 8; /* stores that miss hold the store queue: their misses take time */
    const edan_machine zm = zeroing(m);
    double c[2], cz[2];
    edan_timing_counts plain, zeroed;
    CHECK(predict(&m, recs, n, LAT, 2, 64, c, &plain) == 0, "without zeroing");
    CHECK(predict(&zm, recs, n, LAT, 2, 64, cz, &zeroed) == 0, "with zeroing");
    CHECK(plain.level_misses[0] == 256 + 32 && plain.ram_lines == 256 + 32 + 1,
          "without zeroing: %" PRIu64 " L1d misses and %" PRIu64 " lines from memory, not 288 and 289 (the code's)",
          plain.level_misses[0], plain.ram_lines);
    CHECK(zeroed.level_misses[0] == 32 && zeroed.ram_lines == 32 + 1,
          "with zeroing: %" PRIu64 " L1d misses and %" PRIu64 " lines from memory, not 32 and 33",
          zeroed.level_misses[0], zeroed.ram_lines);
    CHECK(plain.pages_zeroed == 0 && zeroed.pages_zeroed == 9, "%" PRIu64 " and %" PRIu64 " pages zeroed, not 0 and 9",
          plain.pages_zeroed, zeroed.pages_zeroed);
    CHECK(cz[0] < c[0] && cz[1] - cz[0] < c[1] - c[0], "zeroing saves time and latency: %g, %g cycles against %g, %g",
          cz[0], cz[1], c[0], c[1]);
}

/*
 * [machine] page_fault_ns: each fault's time is added to every lane's run
 * time and to the store that faulted, the same at every latency, on one or
 * two lane groups: the 9 fresh pages of the stream above at 250 ns and
 * 2 GHz are 9 x 500 cycles more, all of them the store's. A warm store's
 * fault is outside the region: its page is zeroed, its time not counted.
 */
static void faults_add_their_time(void)
{
    static edan_exec recs[MAXN];
    edan_insn st, ld, op;
    const size_t n = fresh_pages_stream(recs, &st, &ld, &op);
    for (size_t i = 0; i < n; i++)
        recs[i].id = recs[i].insn == &st ? 1u : recs[i].insn == &op ? 2u : 3u;
    edan_machine m = zeroing(base_machine());
    m.sq_entries = 8;
    m.clock_ghz = 2.0;
    edan_machine fm = m;
    fm.page_fault_ns = 250;
    for (int warm = 0; warm < 2; warm++) {
        if (warm) /* the first pass warm: only page 9's first store faults in the region */
            for (size_t i = 0; i < 2 * 8 * PAGE / LINE; i++)
                recs[i].flags = EDAN_EXEC_WARM;
        const double want = (warm ? 1 : 9) * 500.0;
        for (int threads = 1; threads <= 2; threads++) {
            edan_timing *a = timing_run(&m, recs, n, LAT, 2, 64, threads),
                        *b = timing_run(&fm, recs, n, LAT, 2, 64, threads);
            if (!a || !b) {
                edan_timing_free(a);
                edan_timing_free(b);
                return;
            }
            for (int k = 0; k < 2; k++) {
                const double d = edan_timing_lane_get(b, k).cycles - edan_timing_lane_get(a, k).cycles,
                             ds = edan_timing_lane_get(b, k).mem_stall_cycles -
                                  edan_timing_lane_get(a, k).mem_stall_cycles;
                CHECK(d == want && ds == 0, "warm %d, %d groups, lane %d: %g cycles more (%g of them stall), not %g",
                      warm, threads, k, d, ds, want);
                for (uint32_t id = 1; id <= 3; id++) {
                    const double di = edan_timing_id_cycles(b, id, k) - edan_timing_id_cycles(a, id, k);
                    CHECK(di == (id == 1 ? want : 0), "warm %d, %d groups, lane %d: id %u has %g cycles more", warm,
                          threads, k, id, di);
                }
            }
            CHECK(edan_timing_counts_get(b)->pages_zeroed == (warm ? 1u : 9u), "%" PRIu64 " pages zeroed",
                  edan_timing_counts_get(b)->pages_zeroed);
            edan_timing_free(a);
            edan_timing_free(b);
        }
    }
}

int main(void)
{
    set_against_reference();
    model_against_reference();
    loop_over_fresh_pages();
    faults_add_their_time();
    return check_summary();
}
