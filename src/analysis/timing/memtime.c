#include "analysis/timing/memtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Memory bandwidth is a calendar: time cut into buckets of BW_LINES line
 * transfers, each bucket holding that many bytes, in a ring of BW_BUCKETS.
 * A transfer takes room in the first bucket from its arrival on that has
 * some, so requests that arrive out of time order (loads start out of
 * order) use the idle time before a later one, as a real channel does; a
 * queue in program order would not. Within a bucket transfers are not
 * ordered, so a transfer can finish up to one bucket early; over a stream
 * the rate is the bandwidth.
 */
#define BW_LINES EDAN_MEMTIME_BW_LINES
#define BW_BUCKETS EDAN_MEMTIME_BW_BUCKETS
#define INFLIGHT (1u << EDAN_MEMTIME_INFLIGHT_BITS)

typedef edan_tick tick;

static inline tick max_t(tick a, tick b)
{
    return a > b ? a : b;
}

int edan_memtime_init(edan_memtime *mt, const edan_machine *m, const edan_tick *memlat, int K, size_t stride,
                      edan_error *err)
{
    memset(mt, 0, sizeof *mt);
    mt->K = K;
    mt->stride = stride;
    mt->nlev = m->n_data_levels;
    for (int l = 0; l < mt->nlev; l++) {
        mt->hit[l] = (tick)m->data[l].hit_latency * EDAN_TICKS_PER_CYCLE;
        mt->mshrs[l] = m->data[l].mshrs;
    }
    mt->targets = m->data[0].mshr_targets;
    memcpy(mt->memlat, memlat, (size_t)K * sizeof *memlat);
    /* bytes per cycle = GB/s / GHz */
    mt->ticks_per_byte = EDAN_TICKS_PER_CYCLE * m->clock_ghz / m->mem_bandwidth_gbs;
    const tick line_xfer = (tick)llround(mt->ticks_per_byte * m->data[0].geo.line);
    mt->bw_ticks = line_xfer ? BW_LINES * line_xfer : (tick)1 << 20;
    mt->bw_cap = (double)mt->bw_ticks / mt->ticks_per_byte;
    mt->bw = calloc((size_t)BW_BUCKETS * (size_t)K, sizeof *mt->bw);
    mt->if_line = calloc(INFLIGHT, sizeof *mt->if_line);
    mt->if_fill = calloc((size_t)INFLIGHT * stride, sizeof *mt->if_fill);
    mt->if_targets = calloc((size_t)INFLIGHT * stride, sizeof *mt->if_targets);
    bool ok = mt->bw && mt->if_line && mt->if_fill && mt->if_targets && !edan_memtime_pf_init(mt, m);
    mt->line_bytes = m->data[0].geo.line;
    if (ok && m->dram.present)
        ok = (mt->dram = edan_dram_new(&m->dram, m->clock_ghz * EDAN_TICKS_PER_CYCLE, mt->line_bytes, K, err)) != NULL;
    for (int l = 0; ok && l < mt->nlev; l++)
        ok = (mt->mshr[l] = calloc((size_t)mt->mshrs[l] * (size_t)K, sizeof(edan_tick))) != NULL;
    if (!ok) {
        edan_error_set(err, "out of memory for the timing model");
        edan_memtime_free(mt);
        return -1;
    }
    return 0;
}

void edan_memtime_free(edan_memtime *mt)
{
    for (int l = 0; l < EDAN_MACHINE_MAX_DATA_LEVELS; l++)
        free(mt->mshr[l]);
    free(mt->bw);
    free(mt->if_line);
    free(mt->if_fill);
    free(mt->if_targets);
    edan_dram_free(mt->dram);
    edan_memtime_pf_free(mt);
    memset(mt, 0, sizeof *mt);
}

/* A transfer of `bytes` to or from memory that can start at x (lane k): when it is done. */
static tick transfer(edan_memtime *mt, int k, tick x, uint32_t bytes)
{
    const tick alone = x + (tick)llround(mt->ticks_per_byte * bytes);
    if (!bytes)
        return x;
    double rem = bytes;
    tick done = x;
    edan_memtime_bucket *bw = mt->bw + (size_t)k * BW_BUCKETS;
    for (uint64_t b = x / mt->bw_ticks;; b++) {
        edan_memtime_bucket *u = &bw[b % BW_BUCKETS];
        if (u->no != b + 1) {
            u->no = b + 1;
            u->used = 0;
        }
        double take = mt->bw_cap - u->used;
        if (take > rem)
            take = rem;
        if (take > 0) {
            u->used += take;
            rem -= take;
            done = b * mt->bw_ticks + (tick)llround(u->used * mt->ticks_per_byte);
        }
        if (rem <= 0) {
            /* the lane's next transfer starts about here: the next line of buckets, into the cache early */
            __builtin_prefetch(&bw[(b + 64 / sizeof *bw) % BW_BUCKETS]);
            break;
        }
    }
    return max_t(done, alone);
}

/*
 * One lane of edan_memtime_read: each level missed holds one of its MSHRs
 * (the earliest free) from when it can have one until the fill; memory
 * moves the bytes at its bandwidth (transfer()), then the data comes back
 * after the memory latency, through each level missed, which takes its hit
 * latency again to respond (gem5: response_latency). A line a prefetch of
 * level L is bringing is there when it comes (edan_memtime_pf_found()).
 */
static tick read_lane(edan_memtime *mt, int k, uint64_t line, int first, int L, uint32_t bytes, tick x, bool lookup)
{
    uint32_t taken[EDAN_MACHINE_MAX_DATA_LEVELS];
    tick ready = 0;
    if (mt->pf.on && lookup) {
        tick at = x; /* when it gets to L, but for waits for MSHRs */
        for (int l = first; l < L && l + 1 < mt->nlev; l++)
            at += mt->hit[l + 1];
        L = edan_memtime_pf_found(mt, k, line + 1, L, &bytes, at, &ready);
    }
    for (int l = first; l < L; l++) {
        const tick *ms = mt->mshr[l] + (size_t)k * mt->mshrs[l];
        uint32_t best = 0; /* the earliest free; of equals, the first */
        for (uint32_t i = 1; i < mt->mshrs[l]; i++)
            if (ms[i] < ms[best])
                best = i;
        x = max_t(x, ms[best]);
        taken[l] = best;
        if (l + 1 < mt->nlev)
            x += mt->hit[l + 1];
    }
    if (L == mt->nlev && mt->dram) { /* the DRAM's own time, then the link's (the lane's latency) */
        const uint32_t writes = bytes > mt->line_bytes ? (bytes - mt->line_bytes) / mt->line_bytes : 0;
        /* the write-backs' lines, when the cache kept every one of them for this read (else none known) */
        const edan_cache_wb *e = mt->wb ? &mt->wb[line % EDAN_CACHE_WB_SLOTS] : NULL;
        const bool known = e && e->key == line + 1 && e->n == writes && writes <= EDAN_CACHE_WB_LINES;
        x = edan_dram_read(mt->dram, k, line, known ? e->line : NULL, writes, x) + mt->memlat[k];
    } else if (L == mt->nlev)
        x = transfer(mt, k, x, bytes) + mt->memlat[k];
    else if (ready > x) {
        mt->pf.late[k]++;
        x = ready;
    }
    /* the data passes back up through every level that missed, each taking its latency again */
    for (int l = first; l < L; l++)
        x += mt->hit[l];
    for (int l = first; l < L; l++)
        mt->mshr[l][(size_t)k * mt->mshrs[l] + taken[l]] = x;
    return x;
}

void edan_memtime_read(edan_memtime *mt, uint64_t line, int first, int L, uint32_t bytes, const edan_tick *t0,
                       edan_tick *fill)
{
    for (int k = 0; k < mt->K; k++)
        fill[k] = read_lane(mt, k, line, first, L, bytes, t0[k], false);
}

edan_tick edan_memtime_read_lane(edan_memtime *mt, int k, uint64_t line, int first, int L, uint32_t bytes, edan_tick x,
                                 bool lookup)
{
    return read_lane(mt, k, line, first, L, bytes, x, lookup);
}

/*
 * The intervals in which the L1d is blocked, per lane: disjoint and not
 * touching (block() merges), so a request at t waits at most for the end of
 * the one interval it is in. A request is blocked until the first moment
 * the L1d is not: when misses block one after the other (a request delayed
 * to the end of one block starts the next), their intervals merge into one.
 */
static tick unblocked(const edan_memtime *mt, int k, tick t)
{
    if (t >= mt->blk_end[k])
        return t;
    for (uint32_t i = 0; i < mt->blk_n[k]; i++)
        if (mt->blk_from[k][i] <= t && t < mt->blk_to[k][i])
            return mt->blk_to[k][i];
    return t;
}

/* The L1d is blocked in [from, to) (lane k). With every entry taken, the interval that ends first is forgotten. */
static void block(edan_memtime *mt, int k, tick from, tick to)
{
    tick *f = mt->blk_from[k], *e = mt->blk_to[k];
    uint32_t n = mt->blk_n[k];
    for (uint32_t i = 0; i < n; i++) {
        if (f[i] <= to && from <= e[i]) {
            from = f[i] < from ? f[i] : from;
            to = max_t(to, e[i]);
            n--;
            f[i] = f[n];
            e[i] = e[n];
            i--; /* the entry moved into i is looked at next (unsigned: from 0 this wraps, and i++ gives 0) */
        }
    }
    uint32_t at = n;
    if (n == EDAN_MEMTIME_BLOCKS) {
        at = 0;
        for (uint32_t i = 1; i < n; i++)
            if (e[i] < e[at])
                at = i;
    } else {
        n++;
    }
    f[at] = from;
    e[at] = to;
    mt->blk_n[k] = n;
    mt->blk_end[k] = max_t(mt->blk_end[k], to);
}

/*
 * The L1d's side of an access. A miss (level > 0) allocates the line's
 * in-flight entry, its MSHR holding one target. An access that finds its
 * line still on its way (missed by an earlier access, the fill not back
 * when it looks) waits for the fill, taking no MSHR: it is one more target
 * of the line's MSHR. As gem5's cache does (tgts_per_mshr), the access that
 * brings an MSHR to `targets` blocks the L1d from its request until that
 * MSHR's fill: a request in a blocked interval waits for its end, whatever
 * its line. The target counts are per lane: which accesses come before a
 * fill depends on the latency.
 */
static tick access_lane(edan_memtime *mt, uint64_t line, uint32_t s, bool known, int level, uint32_t bytes, int k,
                        tick req, bool forwarded)
{
    uint16_t *targets = mt->if_targets + (size_t)s * mt->stride + (size_t)k;
    tick *fill = mt->if_fill + (size_t)s * mt->stride + (size_t)k;
    if (forwarded) {
        /* no cache access; a line the cache model brings in (no write-allocate) still takes its time */
        if (level > 0)
            *fill = read_lane(mt, k, line, 0, level, bytes, req + mt->hit[0], true);
        return req + mt->hit[0];
    }
    const tick r = unblocked(mt, k, req), t0 = r + mt->hit[0];
    if (level > 0) {
        *targets = 1;
        return *fill = read_lane(mt, k, line, 0, level, bytes, t0, true);
    }
    if (known && t0 < *fill) {
        if (mt->pf.on) {
            if (edan_memtime_pf_squash(mt, s, k, t0)) { /* no prefetch on its way: a miss after all */
                *targets = 1;
                return *fill = read_lane(mt, k, line, 0, mt->pf.if_src[s], mt->pf.if_bytes[s], t0, true);
            }
            mt->pf.late[k] += *targets == 0; /* only a prefetch's entry has none: the first access waits for it */
        }
        if (*targets < UINT16_MAX)
            (*targets)++;
        if (*targets >= mt->targets)
            block(mt, k, r, *fill);
        return *fill;
    }
    return t0;
}

void edan_memtime_access(edan_memtime *mt, uint64_t line, int level, uint32_t bytes, const edan_tick *req,
                         uint32_t forwarded, edan_tick *done)
{
    const uint32_t s = edan_memtime_slot(line);
    const bool known = mt->if_line[s] == line + 1;
    if (level > 0)
        mt->if_line[s] = line + 1;
    for (int k = 0; k < mt->K; k++)
        done[k] = access_lane(mt, line, s, known, level, bytes, k, req[k], forwarded >> k & 1);
}

bool edan_memtime_pf_in_flight(const edan_memtime *mt, uint64_t line, const edan_tick *req)
{
    if (!mt->pf.on)
        return false;
    const uint32_t s = edan_memtime_slot(line);
    const int k = mt->pf.lane;
    /* a fill after the lookup: a miss's or a prefetch's on its way, or one this lane dropped (DROPPED, later) */
    return mt->if_line[s] == line + 1 &&
           unblocked(mt, k, req[k]) + mt->hit[0] < mt->if_fill[(size_t)s * mt->stride + k];
}

edan_tick edan_memtime_hit_lane(edan_memtime *mt, uint64_t line, int k, edan_tick req, bool forwarded)
{
    const uint32_t s = edan_memtime_slot(line);
    return access_lane(mt, line, s, mt->if_line[s] == line + 1, 0, 0, k, req, forwarded);
}
