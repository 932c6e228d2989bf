#include "analysis/issueq.h"

#include <stdlib.h>
#include <string.h>

#define RING EDAN_ISSUEQ_RING
#define TPC EDAN_TICKS_PER_CYCLE

int edan_issueq_init(edan_issueq *q, uint32_t entries, int K, edan_error *err)
{
    memset(q, 0, sizeof *q);
    q->entries = entries;
    q->K = K;
    q->ring = calloc((size_t)RING * (size_t)K, sizeof *q->ring);
    q->far = calloc((size_t)entries * (size_t)K, sizeof *q->far);
    if (!q->ring || !q->far) {
        edan_error_set(err, "out of memory for the timing model's issue queue");
        edan_issueq_free(q);
        return -1;
    }
    return 0;
}

void edan_issueq_free(edan_issueq *q)
{
    free(q->ring);
    free(q->far);
    memset(q, 0, sizeof *q);
}

static void far_pop(uint64_t *h, uint32_t *n)
{
    const uint64_t last = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= last)
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = last;
}

/* Lane k's queue at cycle `now`: every entry free by then is dropped. */
static void drop(edan_issueq *q, int k, uint64_t now)
{
    uint16_t *ring = q->ring + (size_t)k * RING;
    if (now + 1 - q->cur[k] >= RING) {
        memset(ring, 0, RING * sizeof *ring);
        q->ring_n[k] = 0;
    } else {
        for (uint64_t c = q->cur[k]; c <= now && q->ring_n[k]; c++) {
            q->ring_n[k] -= ring[c % RING];
            ring[c % RING] = 0;
        }
    }
    if (now + 1 > q->cur[k])
        q->cur[k] = now + 1;
    uint64_t *far = q->far + (size_t)k * q->entries;
    while (q->far_n[k] && far[0] <= now)
        far_pop(far, &q->far_n[k]);
}

/* edan_issueq_room with every entry taken: drop what is free by d, else wait for the first entry to free. */
edan_tick edan_issueq_wait(edan_issueq *q, int k, edan_tick d)
{
    drop(q, k, d / TPC);
    if (q->ring_n[k] + q->far_n[k] < q->entries)
        return d;
    /* full: the first cycle an entry is free in */
    uint64_t c = UINT64_MAX;
    const uint16_t *ring = q->ring + (size_t)k * RING;
    if (q->ring_n[k])
        for (c = q->cur[k]; !ring[c % RING]; c++)
            ;
    const uint64_t *far = q->far + (size_t)k * q->entries;
    if (q->far_n[k] && far[0] < c)
        c = far[0];
    drop(q, k, c);
    return d > c * TPC ? d : c * TPC;
}

/* edan_issueq_enter of an entry free in cycle c, at or beyond the ring's end. */
void edan_issueq_enter_far(edan_issueq *q, int k, edan_tick d, uint64_t c)
{
    drop(q, k, d / TPC); /* the ring starts at the current cycle */
    if (c - q->cur[k] < RING) {
        q->ring[(size_t)k * RING + c % RING]++;
        q->ring_n[k]++;
        return;
    }
    uint64_t *h = q->far + (size_t)k * q->entries;
    uint32_t i = q->far_n[k]++;
    for (; i > 0 && h[(i - 1) / 2] > c; i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = c;
}
