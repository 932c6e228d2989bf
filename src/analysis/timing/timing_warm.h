/*
 * timing_warm.h - a demand access's prefetcher training in the timing model
 * (prefetch.h on the shared cache model), in the schedule and on functional
 * warming's clock. Part of timing_shared.h (included there, after
 * count_access()), not a header of its own: it uses the step's definitions.
 */
#ifndef EDAN_ANALYSIS_TIMING_WARM_H
#define EDAN_ANALYSIS_TIMING_WARM_H

/*
 * Functional warming's clock (a skip of the sampled model on a machine with
 * a prefetcher, t->wfill set): the instructions run at the last unit's
 * ticks per instruction in the lane that decides the training (memtime.h,
 * edan_memtime_pf_in_flight()), and the lines on their way are there when
 * their time comes. A read's fill takes the hit latencies of the levels it
 * passes and, from memory, the lane's latency and the line's transfer, as
 * the hierarchy's read has it without the waits for MSHRs and bandwidth.
 * The clock runs through the scheduled records too, where it counts, per
 * pc, the L1d hits it has on a line on its way and those the schedule has
 * (an access that depends on the fill's data issues after the fill in the
 * schedule, not on the clock): warm_prefetch() weighs the two. warm_now():
 * timing_internal.h.
 */
/* A read's ticks from its request at level `first` to its line's fill there, found at level L (nlev: memory). */
static tick warm_path(const edan_timing *t, int first, int L)
{
    tick x = 0;
    for (int l = first; l < L && l + 1 < t->nlev; l++)
        x += t->mem.hit[l + 1];
    if (L == t->nlev)
        x += t->mem.memlat[t->mem.pf.lane] + (tick)(t->mem.ticks_per_byte * t->mem.line_bytes);
    return x;
}

/* A fill of line into level at `ready`, or when the one on its way there already is, the later. */
static void warm_fill(edan_timing *t, uint64_t line, int level, tick ready)
{
    timing_wfill *w = &t->wfill[edan_memtime_slot(line)];
    if (w->line == line + 1 && (int)w->level >= level && w->ready > ready)
        ready = w->ready;
    *w = (timing_wfill){line + 1, ready, (uint32_t)level};
}

/* Whether the clock has the L1d fill of line on its way at now. */
static inline bool warm_in_flight(const edan_timing *t, uint64_t line, tick now)
{
    const timing_wfill *w = &t->wfill[edan_memtime_slot(line)];
    return w->line == line + 1 && w->level == 0 && now < w->ready;
}

/*
 * After an access at now (r) and its n prefetches (t->pf.issue): a miss's
 * fill on its way from now (after a lower level's prefetch of the line on
 * its way), each prefetch's from when it is ready to be sent (its offset).
 */
static void warm_fills(edan_timing *t, uint64_t line, const edan_cache_result *r, uint32_t n, tick now)
{
    if (r->level > 0)
        warm_fill(t, line, 0, now + warm_path(t, 0, r->level));
    for (uint32_t i = 0; i < n; i++) {
        const edan_prefetch_issue *pi = &t->pf.issue[i];
        warm_fill(t, pi->line, pi->level, now + (tick)pi->offset * TPC + warm_path(t, pi->level, pi->src));
    }
}

/* A demand access's n prefetches (t->pf.issue): their bytes and memory lines counted. */
static inline void prefetch_count(edan_timing *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        t->n.ram_bytes += t->pf.issue[i].bytes;
        t->n.ram_lines += t->pf.issue[i].src == t->nlev;
    }
}

/*
 * prefetch_train_pc() in a skip, on warming's clock: an L1d hit whose
 * line's fill is not there yet by the clock trains as the schedule's does,
 * unless its pc is one where the schedule found lines on their way less
 * than a fifth as often as the clock had them (loads that wait for the
 * data of the fill before them, GAPBS tc's, whose training on the clock
 * took the stride machine's slope 33 % above --exact's; streams, NPB MG's,
 * at about one). The prefetcher's rule is prefetch.h's.
 */
static __attribute__((noinline)) TIMING_TARGET void warm_prefetch(edan_timing *t, uint64_t pc, uint64_t addr,
                                                                  const edan_cache_result *r)
{
    const uint64_t line = addr >> t->line_shift;
    const tick now = warm_now(t);
    const timing_wpc *c = &t->wpc[edan_memtime_slot(pc)];
    /* a pc the schedule has not seen such a hit at: the clock's word; else the schedule's, if it found any */
    const bool in_flight = r->level == 0 && warm_in_flight(t, line, now) && (!c->seen || 5u * c->on_way >= c->seen);
    const uint32_t n = edan_prefetch_access(&t->pf, &t->dc, pc, addr, r, in_flight);
    prefetch_count(t, n);
    warm_fills(t, line, r, n, now);
}

/*
 * A demand access's prefetches (prefetch.h), after the cache model did it
 * (r): they train, fill dc and are counted with the bytes they move. req:
 * the access's L1d request per lane, which decides whether an L1d hit finds
 * its line still on its way and trains (memtime.h); NULL without a time
 * (functional warming outside the region): it does not. With warming's
 * clock, the fills go on it and the pc's counter learns. The number sent,
 * t->pf.issue[0 ..), for the hierarchy's times.
 */
static TIMING_TARGET uint32_t prefetch_train_pc(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r,
                                                const tick *req)
{
    const bool in_flight = req && r->level == 0 && edan_memtime_pf_in_flight(&t->mem, addr >> t->line_shift, req);
    const uint32_t n = edan_prefetch_access(&t->pf, &t->dc, pc, addr, r, in_flight);
    prefetch_count(t, n);
    if (req && t->wfill) {
        const uint64_t line = addr >> t->line_shift;
        const tick now = warm_now(t);
        const bool clock = r->level == 0 && warm_in_flight(t, line, now);
        if (clock || in_flight) {
            timing_wpc *c = &t->wpc[edan_memtime_slot(pc)];
            if (c->seen == 128 || c->on_way == 128) { /* the recent ones count most */
                c->seen /= 2;
                c->on_way /= 2;
            }
            c->seen += clock;
            c->on_way += in_flight;
        }
        warm_fills(t, line, r, n, now);
    }
    return n;
}

#endif
