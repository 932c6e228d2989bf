/*
 * Physical pages placed at first touch (analysis/pagemap/pagemap.h, machine
 * files' `pages = first-touch`):
 *  - the map against a naive reference (a list of the pages in the order of
 *    their first touch, searched from the start) on random streams whose
 *    pages collide in the memo: the same frames, offsets kept, a bijection;
 *  - the timing model with first-touch pages equals the model with virtual
 *    pages run on the stream translated by the reference, cycles and counts,
 *    on random streams, one thread or two lane groups, any batch size;
 *  - a hand-built stream with an exact answer: two arrays whose pages were
 *    first touched in turn (a loop initialising both) get alternate frames,
 *    so the one walked afterwards uses half of a direct-mapped L1d's sets
 *    and misses on every pass, where at its virtual addresses it fits;
 *  - the program's image loaded first (edan_pagemap_load()): its segments'
 *    pages take frames 0, 1, ... in the segments' order and address order,
 *    a shared page once, before every page touched (exact frames; and
 *    against the reference started from the image on random streams); the
 *    model with an image in its static array gives the answer of neither
 *    virtual pages nor first touch alone, exactly, 1 and 2 lane groups;
 *  - a bisection's wrong path (timing_bisect.h) reflects the step on the
 *    virtual addresses and loads the other half's line in its page's frame
 *    when a record touched the page before, and nothing when none did.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pagemap/pagemap.h"
#include "check.h"
#include "random_trace.h"
#include "ref_pages.h"
#include "timing_check.h"

#define PAGE 4096u

/* The naive reference (ref_pages.h): a page's frame is its index in first-touch order. */
typedef ref_pages ref_map;

static uint64_t ref_translate(ref_map *r, uint64_t addr)
{
    bool fresh;
    return EDAN_PAGEMAP_BASE + (uint64_t)ref_page_index(r, addr, &fresh) * PAGE + addr % PAGE;
}

/* A random address: pages a multiple of EDAN_PAGEMAP_MEMO apart share a memo slot. */
static uint64_t random_addr(void)
{
    const uint64_t page = 0x400 + (rt_below(24)) * EDAN_PAGEMAP_MEMO + rt_below(5);
    return page * PAGE + rt_below(PAGE);
}

/* The reference's image: the pages of each range, in order, once each. */
static void ref_load(ref_map *r, const edan_pagemap_range *g, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (uint64_t p = g[i].start / PAGE; g[i].end > g[i].start && p <= (g[i].end - 1) / PAGE; p++)
            ref_translate(r, p * PAGE);
}

static void map_against_reference(void)
{
    for (int trial = 0; trial < 50; trial++) {
        edan_pagemap m;
        CHECK(edan_pagemap_init(&m) == 0, "init");
        static ref_map r;
        r.n = 0;
        /* from trial 25 on, an image of up to 3 ranges (the stream's pages and others, overlapping or empty) */
        edan_pagemap_range g[3];
        const size_t ng = trial < 25 ? 0 : rt_below(4);
        for (size_t i = 0; i < ng; i++) {
            g[i].start = random_addr() - rt_below(3) * PAGE;
            g[i].end = g[i].start + rt_below(6 * PAGE);
        }
        CHECK(edan_pagemap_load(&m, g, ng) == 0, "load");
        ref_load(&r, g, ng);
        for (int i = 0; i < 4000; i++) {
            const uint64_t a = random_addr(), got = edan_pagemap_translate(&m, a), want = ref_translate(&r, a);
            CHECK(got == want, "trial %d access %d: %#" PRIx64 " -> %#" PRIx64 ", the reference %#" PRIx64, trial, i, a,
                  got, want);
        }
        CHECK(m.next == r.n, "trial %d: %" PRIu64 " frames for %zu pages", trial, m.next, r.n);
        edan_pagemap_free(&m);
    }
}

static edan_machine paged(edan_machine m)
{
    m.pages = EDAN_PAGES_FIRST_TOUCH;
    return m;
}

/* Random loads and stores over a few pages (a chain through x6 now and then), with additions between. */
static size_t random_stream(edan_exec *recs, const edan_insn *ld, const edan_insn *st, const edan_insn *op, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint64_t k = rt_below(4);
        recs[i] = rec(k == 0 ? ld : k == 1 ? st : op, random_addr());
    }
    return n;
}

static void model_against_translated_stream(void)
{
    static edan_exec recs[MAXN], phys[MAXN];
    static ref_map r;
    edan_insn ld = load(EDAN_REG_X(6), EDAN_REG_X(6), 0x1000), st = store(EDAN_REG_X(7), EDAN_REG_X(8), 0x1004, 8),
              op = add(EDAN_REG_X(7), EDAN_REG_X(7), 0x1008);
    edan_machine m = base_machine();
    m.data[0].geo.size = 8192; /* small caches, so the sets the frames pick decide hits */
    m.data[1].geo.size = 65536;
    m.mem_latency_ns = 100;
    for (int trial = 0; trial < 12; trial++) {
        const size_t n = random_stream(recs, &ld, &st, &op, MAXN);
        r.n = 0;
        for (size_t i = 0; i < n; i++) {
            phys[i] = recs[i];
            if (recs[i].insn->mem != EDAN_MEM_NONE)
                phys[i].addr = ref_translate(&r, recs[i].addr);
        }
        const int threads = trial % 2 ? 2 : 1;
        const size_t batch = trial % 3 ? 64 : 7;
        const double lat[5] = {50, 100, 200, 300, 400};
        edan_timing *want = timing_run(&m, phys, n, lat, 5, batch, threads);
        const edan_machine pm = paged(m);
        edan_timing *got = timing_run(&pm, recs, n, lat, 5, batch, threads);
        if (!want || !got) {
            edan_timing_free(want);
            edan_timing_free(got);
            return;
        }
        for (int k = 0; k < 5; k++)
            CHECK(edan_timing_lane_get(got, k).cycles == edan_timing_lane_get(want, k).cycles,
                  "trial %d (%d threads, batches of %zu) @%g ns: %g cycles, the translated stream's %g", trial, threads,
                  batch, lat[k], edan_timing_lane_get(got, k).cycles, edan_timing_lane_get(want, k).cycles);
        const edan_timing_counts *a = edan_timing_counts_get(got), *b = edan_timing_counts_get(want);
        CHECK(!memcmp(a->level_misses, b->level_misses, sizeof a->level_misses) && a->ram_lines == b->ram_lines,
              "trial %d: L1d misses %" PRIu64 ", L2 %" PRIu64 ", lines %" PRIu64 "; the translated stream's %" PRIu64
              ", %" PRIu64 ", %" PRIu64,
              trial, a->level_misses[0], a->level_misses[1], a->ram_lines, b->level_misses[0], b->level_misses[1],
              b->ram_lines);
        edan_timing_free(want);
        edan_timing_free(got);
    }
}

/* A direct-mapped 16 KiB L1d of 128-byte lines (base_machine()'s): 128 sets spanning 4 pages. */
static edan_machine four_page_l1d(void)
{
    edan_machine m = base_machine();
    m.data[0].geo.size = 16384;
    m.data[0].geo.ways = 1;
    return m;
}

/* After the n records of a set-up: A's 128 lines (4 pages at 0x100000) walked twice, an addition after each load. */
static size_t walk_twice(edan_exec *recs, size_t n, const edan_insn *ld, const edan_insn *op)
{
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t a = 0x100000; a < 0x100000 + 4 * PAGE; a += LINE) {
            recs[n++] = rec(ld, a);
            recs[n++] = rec(op, 0);
        }
    return n;
}

/*
 * A direct-mapped 16 KiB L1d of 128-byte lines: 128 sets spanning 4 pages.
 * The set-up touches the first line of A's page i, then B's, for i = 0..3
 * (A at 0x100000, B at 0x200000, 4 pages each); then A's 128 lines are
 * walked twice. Virtual: A's pages pick all the sets once; B's lines evict
 * A's first lines, so the first walk misses its 128 lines and the second
 * none: 8 + 128 misses. First touch: A's frames are 0, 2, 4, 6, so pages 0
 * and 2 (and 1 and 3) share their sets: every line of both walks misses,
 * 8 + 256.
 */
static void alternate_frames(void)
{
    static edan_exec recs[MAXN];
    edan_insn ld, op;
    load_and_add(&ld, &op);
    size_t n = 0;
    for (uint64_t i = 0; i < 4; i++) {
        recs[n++] = rec(&ld, 0x100000 + i * PAGE);
        recs[n++] = rec(&ld, 0x200000 + i * PAGE);
    }
    n = walk_twice(recs, n, &ld, &op);
    const edan_machine m = four_page_l1d();
    double c[2];
    edan_timing_counts virt, first;
    CHECK(predict(&m, recs, n, LAT, 2, 64, c, &virt) == 0, "virtual");
    const edan_machine pm = paged(m);
    CHECK(predict(&pm, recs, n, LAT, 2, 64, c, &first) == 0, "first touch");
    CHECK(virt.level_misses[0] == 8 + 128, "virtual pages: %" PRIu64 " L1d misses, not 136", virt.level_misses[0]);
    CHECK(first.level_misses[0] == 8 + 256, "first-touch pages: %" PRIu64 " L1d misses, not 264",
          first.level_misses[0]);
}

/* Segments as a static program's: text, then data and .bss sharing the text's last page and each other's. */
static void image_frames(void)
{
    edan_pagemap m;
    CHECK(edan_pagemap_init(&m) == 0, "init");
    const edan_pagemap_range g[] = {{0x10000, 0x12d21}, {0x12dc0, 0x12dc0}, {0x12dc0, 0x15010}, {0x14000, 0x14008}};
    CHECK(edan_pagemap_load(&m, g, 4) == 0, "load");
    /* pages 0x10, 0x11, 0x12 (text), 0x13, 0x14, 0x15 (data, .bss): frames 0 to 5; a heap page then 6 */
    const uint64_t va[] = {0x15008, 0x10004, 0x12dc8, 0x400123, 0x13000, 0x11fff, 0x14800};
    const uint64_t frame[] = {5, 0, 2, 6, 3, 1, 4};
    for (size_t i = 0; i < sizeof va / sizeof va[0]; i++) {
        const uint64_t want = EDAN_PAGEMAP_BASE + frame[i] * PAGE + va[i] % PAGE;
        const uint64_t got = edan_pagemap_translate(&m, va[i]);
        CHECK(got == want, "%#" PRIx64 " -> %#" PRIx64 ", not %#" PRIx64, va[i], got, want);
    }
    CHECK(m.next == 7, "%" PRIu64 " frames, not 7", m.next);
    edan_pagemap_free(&m);
}

/*
 * The L1d of alternate_frames(): 4 pages of sets. The image: B, 2 pages at
 * 0x200000 (a static array). The set-up touches the first line of A's page
 * 0, B's 0, A's 1, B's 1, A's 2 and A's 3 (A at 0x100000), then A's 128
 * lines are walked twice.
 *  - virtual: B's pages evict A's first lines of pages 0 and 1; A fits:
 *    6 + (32 + 32 + 31 + 31) = 132 misses;
 *  - first touch: A's frames 0, 2, 4, 5 (B's 1, 3): A's pages 0 and 2 share
 *    their sets and miss in both walks: 6 + 126 + 64 = 196;
 *  - the image loaded: B's frames 0, 1, A's 2 to 5: A's pages 2 and 3 evict
 *    B's lines, A fits and keeps its first lines: 6 + 4 * 31 = 130.
 */
static void image_first(void)
{
    static edan_exec recs[MAXN];
    edan_insn ld, op;
    load_and_add(&ld, &op);
    size_t n = 0;
    const uint64_t setup[] = {0x100000, 0x200000, 0x101000, 0x201000, 0x102000, 0x103000};
    for (size_t i = 0; i < 6; i++)
        recs[n++] = rec(&ld, setup[i]);
    n = walk_twice(recs, n, &ld, &op);
    const edan_machine m = four_page_l1d();
    const edan_pagemap_range image = {0x200000, 0x200000 + 2 * PAGE};
    const double lat[5] = {50, 100, 200, 300, 400};
    for (int threads = 1; threads <= 2; threads++)
        for (int mode = 0; mode < 3; mode++) { /* virtual, first touch, first touch with the image */
            const edan_machine mm = mode ? paged(m) : m;
            edan_error err = {0};
            edan_timing *t = edan_timing_new_threaded(&mm, lat, 5, threads, &err);
            CHECK(t != NULL, "timing_new: %s", err.msg);
            if (!t)
                return;
            /* loading on a machine of virtual pages does nothing */
            CHECK(mode == 1 || edan_timing_load_image(t, &image, 1, &err) == 0, "load_image: %s", err.msg);
            edan_consumer c = edan_timing_consumer(t);
            c.consume(c.ctx, recs, n);
            CHECK(c.finish(c.ctx) == 0, "finish: %s", edan_timing_error(t)->msg);
            const uint64_t want[3] = {132, 196, 130}, got = edan_timing_counts_get(t)->level_misses[0];
            CHECK(got == want[mode], "%d thread(s), %s: %" PRIu64 " L1d misses, not %" PRIu64, threads,
                  mode == 0   ? "virtual pages"
                  : mode == 1 ? "first touch"
                              : "first touch after the image",
                  got, want[mode]);
            edan_timing_free(t);
        }
}

/*
 * timing_wrongpath_test.c's bisection: a load of x5 from x4 at 0x1000 at
 * Lp = 0x104000, L = 0x102000 and A = 0x101000, a branch on x5 (not taken,
 * taken: mispredicted, not taken), the arms' x4 updates from x4 and their
 * jumps; then a load at 2L - A = 0x103000, which the wrong path's first load
 * filled. With `touch`, a load at 0x103f00 (another pc) first: page 0x103
 * takes frame 0, Lp's 1, L's 2, A's 3, so the reflection on frames (2 * 2 -
 * 3 = 1) would be Lp's line, on the program's addresses 0x103000 in frame 0.
 * L1d misses: virtual 3 (the last load hits); first touch 3 + 1 when page
 * 0x103 was untouched (the wrong path's load faults), 4 + 0 when touched.
 */
static void bisection_pages(void)
{
    static edan_exec r[32];
    static edan_insn code[8];
    bisection_code(code);
    code[6] = load(EDAN_REG_X(7), EDAN_REG_X(5), 0x1018);
    code[7] = load(EDAN_REG_X(10), EDAN_REG_X(11), 0x1020);
    edan_machine m = base_machine();
    m.fetch_width = 8;
    m.frontend_cycles = 5;
    m.l1i.geo.line = m.data[0].geo.line = m.data[1].geo.line = 64;
    m.rob_entries = 64;
    for (int touch = 0; touch < 2; touch++)
        for (int paged_ = 0; paged_ < 2; paged_++) {
            size_t n = 0;
            if (touch)
                r[n++] = rec(&code[7], 0x103f00);
            const uint64_t at[3] = {0x104000, 0x102000, 0x101000};
            for (int i = 0; i < 3; i++) {
                r[n++] = rec(&code[0], at[i]);
                r[n++] = rec(&code[1], 0);
                r[n++] = rec(&code[i == 1 ? 4 : 2], 0);
                r[n++] = rec(&code[i == 1 ? 5 : 3], 0);
            }
            r[n++] = rec(&code[6], 0x103000);
            const edan_machine mm = paged_ ? paged(m) : m;
            edan_timing_counts cn = {0};
            double c[2];
            CHECK(predict(&mm, r, n, LAT, 2, 64, c, &cn) == 0 && cn.mispredicts == 1, "mispredicts %" PRIu64,
                  cn.mispredicts);
            const uint64_t want = (uint64_t)(touch + 3 + (paged_ && !touch));
            CHECK(cn.level_misses[0] == want, "%s pages, page 0x103 %s: %" PRIu64 " L1d misses, not %" PRIu64,
                  paged_ ? "first-touch" : "virtual", touch ? "touched" : "untouched", cn.level_misses[0], want);
        }
}

int main(void)
{
    rt_seed(47);
    map_against_reference();
    model_against_translated_stream();
    alternate_frames();
    image_frames();
    image_first();
    bisection_pages();
    return check_summary();
}
