/*
 * issueq.h - the timing model's issue queue (timing.h), for every memory
 * latency (lane) at once: an instruction holds an entry from dispatch until
 * it leaves (timing.c says when: a load or store when it completes, as in
 * gem5's O3, anything else when it issues), and dispatch waits for a free
 * entry. docs/model.md states the rule.
 *
 * An entry is free from the cycle in which its instruction leaves, its time
 * rounded up to a whole cycle. Dispatch times only grow, so an entry free
 * for one dispatch is free for all later ones: the queue is the count of
 * the cycles its entries become free in, from the current one on, in a ring
 * of EDAN_ISSUEQ_RING cycles, and a min-heap for the cycles beyond it (a
 * load that misses). Each instruction enters and leaves once; passing a
 * cycle costs one step, and nothing is dropped until the count reaches the
 * queue's size (entries not dropped yet only make the count larger).
 */
#ifndef EDAN_ANALYSIS_ISSUEQ_H
#define EDAN_ANALYSIS_ISSUEQ_H

#include <stdint.h>

#include "analysis/memtime.h"
#include "util/error.h"

#define EDAN_ISSUEQ_RING 256u

typedef struct edan_issueq {
    uint32_t entries;
    int K;
    uint16_t *ring;                      /* [k * EDAN_ISSUEQ_RING + c % EDAN_ISSUEQ_RING]: entries free in cycle c */
    uint64_t cur[EDAN_MEMTIME_LANES];    /* the first cycle the ring counts (entries free before are gone) */
    uint32_t ring_n[EDAN_MEMTIME_LANES]; /* how many the ring counts */
    uint64_t *far;                       /* [k * entries + i]: a min-heap of later cycles */
    uint32_t far_n[EDAN_MEMTIME_LANES];
} edan_issueq;

/* entries >= 1; K lanes (at most EDAN_MEMTIME_LANES). 0, or -1 with err set. */
int edan_issueq_init(edan_issueq *q, uint32_t entries, int K, edan_error *err);
void edan_issueq_free(edan_issueq *q);
/* The slow paths of the two calls below, out of line: the queue is full; an entry beyond the ring. */
edan_tick edan_issueq_wait(edan_issueq *q, int k, edan_tick d);
void edan_issueq_enter_far(edan_issueq *q, int k, edan_tick d, uint64_t c);

/*
 * A dispatch at d (lane k): when it can happen, no earlier than d, with an
 * entry free. Inline: the timing model asks once per instruction and lane,
 * and the queue is seldom full (then nothing needs dropping).
 */
static inline edan_tick edan_issueq_room(edan_issueq *q, int k, edan_tick d)
{
    if (q->ring_n[k] + q->far_n[k] < q->entries)
        return d;
    return edan_issueq_wait(q, k, d);
}

/*
 * The instruction dispatched at d (after edan_issueq_room) leaves the queue
 * at out (lane k). Inline for the common cases: it never waits in the
 * queue, or it is free within the ring's cycles.
 */
static inline void edan_issueq_enter(edan_issueq *q, int k, edan_tick d, edan_tick out)
{
    const uint64_t c = (out + EDAN_TICKS_PER_CYCLE - 1) / EDAN_TICKS_PER_CYCLE; /* the cycle its entry is free in */
    if (out <= d || c <= d / EDAN_TICKS_PER_CYCLE)
        return; /* never waits in the queue, or free for the next dispatch */
    if (c - q->cur[k] < EDAN_ISSUEQ_RING) {
        q->ring[(size_t)k * EDAN_ISSUEQ_RING + c % EDAN_ISSUEQ_RING]++;
        q->ring_n[k]++;
        return;
    }
    edan_issueq_enter_far(q, k, d, c);
}

#endif
