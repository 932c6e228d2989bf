/*
 * Functional warming's in-flight rule: which L1d hits of a skip train the
 * prefetchers as hits on a line still on its way (prefetch.h, gem5's MSHR
 * hit). The schedule decides it with a time (memtime.h,
 * edan_memtime_pf_in_flight()); a skip has none, and training on none of
 * them (the rule before) changes whether a stream locks: a stride-8 stream
 * whose every other access finds its line on its way never locks in the
 * schedule and locks in warming (NPB MG's), a stride-64 stream whose hits on
 * lines another load just asked for keep it locked in the schedule unlocks
 * in warming (olden tsp's), and the skips' counts the estimator prices
 * (timing_sample.c) come from the other history: the stride machine's
 * sampled slopes were 4 and 25 % off --exact's on those two.
 *
 * So the skips take the decision the schedule made in the same place: per
 * line the L1d received, the instruction of its request, whether a demand
 * miss or a prefetch brought it and the demand miss's pc (t->wline); the
 * schedule's L1d hits on such a line count, per cell (the hitting pc's slot,
 * the request's kind: the pc's own demand miss, another pc's, a prefetch;
 * the instructions since the request, log2 buckets), how many there were
 * and how many it found on their way (t->wcell, warm_learn()); a skip's L1d
 * hit on such a line trains as on its way at its cell's rate, by a
 * deterministic credit counter (warm_in_flight()), and one whose cell the
 * schedule never filled does not (the rule before). The schedule's
 * stretches are the units, their warm-ups and the exact start. No time and
 * no constant per program: the distance in instructions tells a stream's
 * next access one iteration after its miss (on its way) from the one two
 * iterations after (there). Included by timing_shared.h.
 */
#ifndef EDAN_ANALYSIS_TIMING_WARM_H
#define EDAN_ANALYSIS_TIMING_WARM_H

#include "analysis/timing/timing_internal.h"

#define TIMING_WARM_PCS 1024   /* the cells' pc slots */
#define TIMING_WARM_KINDS 3    /* the request: the hitting pc's own demand miss, another pc's, a prefetch */
#define TIMING_WARM_BUCKETS 16 /* instructions since the request: 0-1, 2-3, 4-7, ..., 2^15 and more */
#define TIMING_WARM_DECAY 1024 /* a cell's counts halve when seen reaches it: the recent ones count most */

/* The cell of an L1d hit by pc on line at the current instruction, NULL when the table holds no request of the line. */
static inline timing_wcell *warm_cell(edan_timing *t, uint64_t pc, uint64_t line)
{
    const timing_wline *w = &t->wline[edan_memtime_slot(line)];
    if (w->line != line + 1)
        return NULL;
    const uint64_t d = t->n.instructions - w->ins;
    uint32_t b = d < 2 ? 0 : 63u - (uint32_t)__builtin_clzll(d);
    if (b >= TIMING_WARM_BUCKETS)
        b = TIMING_WARM_BUCKETS - 1;
    const uint32_t kind = w->prefetch ? 2 : w->pc != pc;
    const size_t slot = edan_memtime_slot(pc) & (TIMING_WARM_PCS - 1);
    return &t->wcell[(slot * TIMING_WARM_KINDS + kind) * TIMING_WARM_BUCKETS + b];
}

/* A scheduled access (r) of pc: an L1d hit counts into its cell, with the schedule's decision in_flight. */
static inline void warm_learn(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r, bool in_flight)
{
    timing_wcell *c = r->level == 0 ? warm_cell(t, pc, addr >> t->line_shift) : NULL;
    if (!c)
        return;
    if (c->seen >= TIMING_WARM_DECAY) {
        c->seen /= 2;
        c->on_way /= 2;
        c->credit /= 2;
    }
    c->seen++;
    c->on_way += in_flight;
}

/* A skipped access (r) of pc: whether it trains as an L1d hit on its line on its way (at its cell's rate). */
static inline bool warm_in_flight(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r)
{
    timing_wcell *c = r->level == 0 ? warm_cell(t, pc, addr >> t->line_shift) : NULL;
    if (!c || !c->seen)
        return false;
    c->credit += c->on_way; /* < 2 * TIMING_WARM_DECAY */
    if (c->credit < c->seen)
        return false;
    c->credit -= c->seen;
    return true;
}

/* After an access (r) of pc and its n prefetches (t->pf.issue): the lines they bring to the L1d, requested now. */
static inline void warm_note(edan_timing *t, uint64_t pc, uint64_t addr, const edan_cache_result *r, uint32_t n)
{
    if (r->level > 0) {
        const uint64_t line = addr >> t->line_shift;
        t->wline[edan_memtime_slot(line)] = (timing_wline){line + 1, t->n.instructions, pc, 0};
    }
    for (uint32_t i = 0; i < n; i++) {
        const edan_prefetch_issue *pi = &t->pf.issue[i];
        if (pi->level == 0)
            t->wline[edan_memtime_slot(pi->line)] = (timing_wline){pi->line + 1, t->n.instructions, pc, 1};
    }
}

#endif
