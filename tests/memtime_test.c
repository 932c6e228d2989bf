/*
 * The memory bandwidth calendar of the timing model's hierarchy
 * (analysis/timing/memtime.h) against a naive one, its rule written plainly: every
 * transfer walks the buckets from its start, one by one, taking room where
 * a bucket has some, in a ring of EDAN_MEMTIME_BW_BUCKETS per lane that
 * forgets a bucket when another takes its slot. Transfers are
 * asked through edan_memtime_read() with first = L = nlev (the memory
 * alone, no MSHR), memory latency 0, in several lanes, on random machines:
 * starts mostly in time order with bursts that fill the calendar, some far
 * ahead, and single ones about a ring ahead or back (they take the slots of
 * the buckets in use), of a line, two lines or any size.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timing/memtime.h"
#include "check.h"
#include "random_trace.h"

#define LANES 3
#define NB EDAN_MEMTIME_BW_BUCKETS

typedef struct ref_calendar {
    double tpb, cap;
    uint64_t bw_ticks;
    uint64_t no[LANES][NB];
    double used[LANES][NB];
} ref_calendar;

/* the calendar's rule, one lane's array per lane */
static uint64_t ref_transfer(ref_calendar *c, int k, uint64_t x, uint32_t bytes)
{
    const uint64_t alone = x + (uint64_t)llround(c->tpb * bytes);
    if (!bytes)
        return x;
    double rem = bytes;
    uint64_t done = x;
    for (uint64_t b = x / c->bw_ticks;; b++) {
        const size_t s = b % NB;
        if (c->no[k][s] != b + 1) {
            c->no[k][s] = b + 1;
            c->used[k][s] = 0;
        }
        double take = c->cap - c->used[k][s];
        if (take > rem)
            take = rem;
        if (take > 0) {
            c->used[k][s] += take;
            rem -= take;
            done = b * c->bw_ticks + (uint64_t)llround(c->used[k][s] * c->tpb);
        }
        if (rem <= 0)
            break;
    }
    return done > alone ? done : alone;
}

static void test_calendar(void)
{
    static ref_calendar ref;
    int bad = 0, walks = 0;
    for (int trial = 0; trial < 60; trial++) {
        rt_seed(77 + (uint64_t)trial);
        edan_machine m;
        memset(&m, 0, sizeof m);
        m.clock_ghz = 0.5 + 0.25 * (double)rt_below(16);
        m.mem_bandwidth_gbs = trial % 3 == 0 ? 16 : 0.5 + 0.37 * (double)rt_below(300);
        m.n_data_levels = 2;
        for (int l = 0; l < 2; l++)
            m.data[l] = (edan_machine_cache){{1u << 15, 64, 2, true, true}, 0, 4, 4, {0}};
        const edan_tick memlat[LANES] = {0, 0, 0};
        edan_memtime mt;
        edan_error err = {0};
        CHECK(edan_memtime_init(&mt, &m, memlat, LANES, LANES, &err) == 0, "init: %s", err.msg);
        memset(&ref, 0, sizeof ref);
        ref.tpb = mt.ticks_per_byte;
        ref.cap = mt.bw_cap;
        ref.bw_ticks = mt.bw_ticks;
        const uint64_t line_ticks = (uint64_t)llround(mt.ticks_per_byte * 64) + 1;
        edan_tick at[LANES] = {0, 0, 0}, t0[LANES], fill[LANES];
        for (int i = 0; i < 20000; i++) {
            const uint64_t r = rt_below(100);
            const uint32_t bytes = r < 60 ? 64 : r < 80 ? 128 : r < 85 ? 0 : 1 + (uint32_t)rt_below(300);
            for (int k = 0; k < LANES; k++) {
                const uint64_t how = rt_below(1000), ring = (uint64_t)NB * mt.bw_ticks;
                if (how < 600) /* a burst: the same time or a little later */
                    at[k] += rt_below(2) ? 0 : rt_below(line_ticks);
                else if (how < 985)
                    at[k] += rt_below(8 * line_ticks);
                else if (how < 990) /* far ahead */
                    at[k] += rt_below(2 * ring);
                t0[k] = at[k];
                if (how >= 990 && how < 995) /* one transfer a ring ahead: into the slots of the buckets now */
                    t0[k] = at[k] + ring + rt_below(64) * mt.bw_ticks;
                else if (how >= 995 && at[k] > 2 * ring) /* one a ring back: into the slots of the buckets now */
                    t0[k] = at[k] - ring - 32 * mt.bw_ticks + rt_below(64) * mt.bw_ticks;
            }
            edan_memtime_read(&mt, 0, 2, 2, bytes, t0, fill);
            for (int k = 0; k < LANES; k++) {
                const uint64_t want = ref_transfer(&ref, k, t0[k], bytes);
                if (fill[k] != want && bad++ < 5)
                    fprintf(stderr,
                            "trial %d transfer %d lane %d: %" PRIu64 " bytes at %" PRIu64 ": %" PRIu64
                            ", the naive calendar %" PRIu64 "\n",
                            trial, i, k, (uint64_t)bytes, (uint64_t)t0[k], (uint64_t)fill[k], want);
                walks++;
            }
        }
        edan_memtime_free(&mt);
    }
    CHECK(bad == 0, "%d of %d transfers differ from the naive calendar", bad, walks);
}

int main(void)
{
    test_calendar();
    return check_summary();
}
