/*
 * memtime_prefetch.c - prefetches in the hierarchy's times (memtime.h):
 * when a prefetch the cache model did (analysis/prefetch/prefetch.h) is
 * sent, whether a lane drops it, and when its line is there.
 */
#include "analysis/timing/memtime.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define INFLIGHT (1u << EDAN_MEMTIME_INFLIGHT_BITS)

typedef edan_tick tick;

/*
 * EDAN_PREFETCH_TRACE (prefetch.h): the times of the highest latency's lane (pf->lane), in cycles from the region's
 * start, after prefetch.c's I line of the prefetch:
 *   S l line ready sent fill     a prefetch of level l: ready, sent (an MSHR free and its turn in the queue), in its
 * level D l line ready               dropped: its queue was full F l line at state fill       an access from above at
 * `at` found a lower level's prefetch of the line: state ontime, late (waits until fill), squashed (not sent yet) or
 * dropped Q 0 line at                  an L1d access at `at` squashed the L1d's prefetch of the line (not sent yet)
 */
static FILE *trace;

static double cyc(tick t)
{
    return (double)t / EDAN_TICKS_PER_CYCLE;
}

int edan_memtime_pf_init(edan_memtime *mt, const edan_machine *m)
{
    edan_memtime_pf *pf = &mt->pf;
    memset(pf, 0, sizeof *pf);
    for (int l = 0; l < m->n_data_levels; l++)
        pf->on |= m->data[l].prefetch.kind != EDAN_PREFETCH_NONE;
    if (!pf->on)
        return 0;
    trace = edan_prefetch_trace();
    for (int k = 1; k < mt->K; k++) /* memtime_init set the latencies first */
        if (mt->memlat[k] > mt->memlat[pf->lane])
            pf->lane = k;
    pf->if_src = calloc(INFLIGHT, sizeof *pf->if_src);
    pf->if_bytes = calloc(INFLIGHT, sizeof *pf->if_bytes);
    pf->line = calloc(INFLIGHT, sizeof *pf->line);
    pf->level = calloc(INFLIGHT, sizeof *pf->level);
    pf->src = calloc(INFLIGHT, sizeof *pf->src);
    pf->bytes = calloc(INFLIGHT, sizeof *pf->bytes);
    pf->fill = calloc((size_t)INFLIGHT * mt->stride, sizeof *pf->fill);
    pf->if_sent = calloc((size_t)INFLIGHT * mt->stride, sizeof *pf->if_sent);
    pf->sent_as = calloc((size_t)INFLIGHT * mt->stride, sizeof *pf->sent_as);
    bool ok = pf->if_src && pf->if_bytes && pf->line && pf->level && pf->src && pf->bytes && pf->fill && pf->if_sent &&
              pf->sent_as;
    for (int l = 0; ok && l < m->n_data_levels; l++) {
        const edan_prefetch_config *c = &m->data[l].prefetch;
        if (c->kind == EDAN_PREFETCH_NONE)
            continue;
        pf->queue[l] = c->queue_size;
        /* the machine file keeps mshr_reserve + 2 <= mshrs; a machine built otherwise waits for all of them */
        pf->rank[l] = c->mshr_reserve + 2 <= m->data[l].mshrs ? c->mshr_reserve + 2 : m->data[l].mshrs;
        ok = (pf->sent[l] = calloc((size_t)c->queue_size * (size_t)mt->K, sizeof(tick))) != NULL;
    }
    return ok ? 0 : -1;
}

void edan_memtime_pf_free(edan_memtime *mt)
{
    edan_memtime_pf *pf = &mt->pf;
    free(pf->if_src);
    free(pf->if_bytes);
    free(pf->line);
    free(pf->level);
    free(pf->src);
    free(pf->bytes);
    free(pf->fill);
    free(pf->if_sent);
    free(pf->sent_as);
    for (int l = 0; l < EDAN_MACHINE_MAX_DATA_LEVELS; l++)
        free(pf->sent[l]);
    memset(pf, 0, sizeof *pf);
}

/* The r-th earliest time (1-based, r <= n) a level's n MSHRs in ms are free: r of them are free from then on. */
static tick nth_free(const tick *ms, uint32_t n, uint32_t r)
{
    tick best[64]; /* the r earliest so far, ascending; r is at most 64 here */
    uint32_t have = 0;
    for (uint32_t i = 0; i < n; i++) {
        const tick t = ms[i];
        if (have == r && t >= best[r - 1])
            continue;
        uint32_t j = have < r ? have++ : r - 1;
        while (j > 0 && best[j - 1] > t) {
            best[j] = best[j - 1];
            j--;
        }
        best[j] = t;
    }
    return best[r - 1];
}

/* The r-th earliest free time for any r: a count over the MSHRs, for a reserve of 64 or more (not a hot path). */
static tick nth_free_any(const tick *ms, uint32_t n, uint32_t r)
{
    if (r <= 64)
        return nth_free(ms, n, r);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t le = 0;
        for (uint32_t j = 0; j < n; j++)
            le += ms[j] <= ms[i];
        uint32_t lt = 0;
        for (uint32_t j = 0; j < n; j++)
            lt += ms[j] < ms[i];
        if (lt < r && r <= le)
            return ms[i];
    }
    return 0;
}

void edan_memtime_prefetch(edan_memtime *mt, const edan_prefetch_issue *pi, const edan_tick *req)
{
    edan_memtime_pf *pf = &mt->pf;
    const int l = pi->level;
    const uint32_t s = edan_memtime_slot(pi->line), q = pf->queue[l];
    if (l == 0) { /* in flight in the L1d's table, as a miss is */
        mt->if_line[s] = pi->line + 1;
        pf->if_src[s] = pi->src;
        pf->if_bytes[s] = pi->bytes;
    } else {
        pf->line[s] = pi->line + 1;
        pf->level[s] = (uint8_t)l;
        pf->src[s] = pi->src;
        pf->bytes[s] = pi->bytes;
    }
    for (int k = 0; k < mt->K; k++) {
        tick *fill = (l == 0 ? mt->if_fill : pf->fill) + (size_t)s * mt->stride + (size_t)k;
        /*
         * ready `offset` cycles after the access's L1d request; one that the level above's prefetch caused, as much
         * later as that one was sent late (waiting for an MSHR or for the queue): gem5's lower level hears of an upper
         * prefetch when it is sent
         */
        tick x = req[k] + mt->hit[0] + (tick)pi->offset * EDAN_TICKS_PER_CYCLE;
        if (pi->via && l > 0)
            x += pf->delay[l - 1][k];
        const tick ready = x;
        tick *sent = pf->sent[l] + (size_t)k * q;
        uint32_t *at = &pf->at[l][k];
        edan_memtime_pf_sent *sa = (l == 0 ? pf->if_sent : pf->sent_as) + (size_t)s * mt->stride + (size_t)k;
        if (sent[*at] > x) { /* the queue_size prefetches before it are all still waiting: the queue is full */
            pf->dropped[k]++;
            pf->delay[l][k] = 0;
            if (trace && k == pf->lane)
                fprintf(trace, "D %d %" PRIx64 " %.2f\n", l, pi->line, cyc(ready));
            *fill = EDAN_MEMTIME_DROPPED;
            *sa = (edan_memtime_pf_sent){0, 0, 0}; /* not sent: the slot's earlier prefetch's (another level's) goes */
            if (l == 0)
                mt->if_targets[(size_t)s * mt->stride + (size_t)k] = 0;
            continue;
        }
        /*
         * sent in order, when the level has two MSHRs free beyond those kept for demand misses: gem5's
         * MSHRQueue::canPrefetch() asks allocated < entries - (1 + demand_mshr_reserve), its "+1"
         */
        if (x < pf->last[l][k])
            x = pf->last[l][k];
        const tick free_at = nth_free_any(mt->mshr[l] + (size_t)k * mt->mshrs[l], mt->mshrs[l], pf->rank[l]);
        if (x < free_at)
            x = free_at;
        sent[*at] = x;
        pf->delay[l][k] = x - ready;
        *at = *at + 1 == q ? 0 : *at + 1;
        pf->last[l][k] = x;
        /* the MSHR read_lane takes: the earliest free, of equals the first */
        const tick *ms = mt->mshr[l] + (size_t)k * mt->mshrs[l];
        uint32_t best = 0;
        for (uint32_t i = 1; i < mt->mshrs[l]; i++)
            if (ms[i] < ms[best])
                best = i;
        *sa = (edan_memtime_pf_sent){x, ms[best], best};
        /* an L1d prefetch waits for a lower level's prefetch of its line; a lower level's, for none */
        *fill = edan_memtime_read_lane(mt, k, pi->line, l, pi->src, pi->bytes, x, l == 0);
        if (trace && k == pf->lane)
            fprintf(trace, "S %d %" PRIx64 " %.2f %.2f %.2f\n", l, pi->line, cyc(ready), cyc(x), cyc(*fill));
        if (l == 0)
            mt->if_targets[(size_t)s * mt->stride + (size_t)k] = 0; /* no access waits for it yet */
    }
}

/*
 * A squashed prefetch's MSHR of level l (lane k) is free again, unless another miss took it after it (until fill).
 * sa is the prefetch the slot holds in the lane, of level l: a lane's entry is cleared (go 0: never squashed) where
 * its prefetch is dropped or used, so none of an earlier prefetch of the slot (another level's) is left.
 */
static void unhold(edan_memtime *mt, int l, int k, edan_memtime_pf_sent *sa, tick fill)
{
    assert(sa->mshr < mt->mshrs[l]);
    tick *ms = mt->mshr[l] + (size_t)k * mt->mshrs[l] + sa->mshr;
    if (*ms == fill)
        *ms = sa->mshr_was;
    *sa = (edan_memtime_pf_sent){0, 0, 0};
}

int edan_memtime_pf_found(edan_memtime *mt, int k, uint64_t line, int L, uint32_t *bytes, edan_tick at,
                          edan_tick *ready)
{
    edan_memtime_pf *pf = &mt->pf;
    const uint32_t s = edan_memtime_slot(line - 1);
    *ready = 0;
    if (pf->line[s] != line || pf->level[s] > L)
        return L;
    tick *fill = pf->fill + (size_t)s * mt->stride + (size_t)k;
    edan_memtime_pf_sent *sa = &pf->sent_as[(size_t)s * mt->stride + (size_t)k];
    if (pf->level[s] < L) { /* missed where it was prefetched: evicted, nothing of it is left in this lane */
        *fill = 0;
        *sa = (edan_memtime_pf_sent){0, 0, 0};
        return L;
    }
    const tick f = *fill;
    if (f == 0) /* an access used it already: nothing of it is left in this lane */
        return L;
    *fill = 0;
    const bool queued = f != EDAN_MEMTIME_DROPPED && at < sa->go;
    if (trace && k == pf->lane)
        fprintf(trace, "F %d %" PRIx64 " %.2f %s %.2f\n", L, line - 1, cyc(at),
                f == EDAN_MEMTIME_DROPPED ? "dropped"
                : queued                  ? "squashed"
                : f > at                  ? "late"
                                          : "ontime",
                f == EDAN_MEMTIME_DROPPED ? 0.0 : cyc(f));
    if (queued) /* still queued: squashed, its MSHR free again */
        unhold(mt, L, k, sa, f);
    else
        *sa = (edan_memtime_pf_sent){0, 0, 0}; /* used (or dropped): none of it is left */
    if (f == EDAN_MEMTIME_DROPPED || queued) {
        *bytes = pf->bytes[s];
        return pf->src[s];
    }
    *ready = f;
    return L;
}

bool edan_memtime_pf_squash(edan_memtime *mt, uint32_t s, int k, edan_tick t0)
{
    const size_t at = (size_t)s * mt->stride + (size_t)k;
    if (mt->if_fill[at] == EDAN_MEMTIME_DROPPED)
        return true;
    edan_memtime_pf_sent *sa = &mt->pf.if_sent[at];
    if (mt->if_targets[at] || t0 >= sa->go)
        return false; /* a miss's line, or a prefetch sent: the access waits for it */
    if (trace && k == mt->pf.lane)
        fprintf(trace, "Q 0 %" PRIx64 " %.2f\n", mt->if_line[s] - 1, cyc(t0));
    unhold(mt, 0, k, sa, mt->if_fill[at]);
    return true;
}
