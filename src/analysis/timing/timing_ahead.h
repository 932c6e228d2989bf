/*
 * timing_ahead.h - misses in time order: what the timing model's step
 * (timing_lanes.h) sees of the records after a load that misses. Included
 * by timing_lanes.h after timing_uops.h (each width's copy); every name
 * static.
 */
#ifndef EDAN_ANALYSIS_TIMING_AHEAD_H
#define EDAN_ANALYSIS_TIMING_AHEAD_H

/* Records a load that misses looks ahead for a younger load of its line (miss_ahead()). */
#define MISS_AHEAD 64u

/*
 * Misses in time order. The cache model runs in program order, so of two
 * loads of one line the older one misses; but out of order the younger one
 * can reach the L1d first (the older waits for a store set or an operand,
 * the younger's address is ready), and then the line's miss is the
 * younger's request and the older finds the line on its way or there (gem5:
 * the first access to reach the cache allocates the MSHR). In trisolv the
 * row's divisor L[i][i] (its address ready at once) is requested hundreds
 * of cycles before the inner loop's last loads of its line, which wait for
 * the store set of x.
 *
 * Load v (the current record, dispatched at dsp, starting at a) missed the
 * L1d. A younger load of the line among the next MISS_AHEAD
 * records of the chunk (up to the reorder buffer's size, a record outside
 * the region or a serializing instruction; RISC-V only) whose source
 * registers no record from v on writes, and before which no record writes
 * the line, starts no earlier than its registers' writers finish
 * (lastw: scheduled already), its dispatch (dispatch_width a cycle after
 * v's) and the commit of the instruction rob_entries before it; where that
 * is before a[k], the line is requested then: req[k] (else a[k]). A load
 * whose pc is in a store set in lane k may wait for a store not scheduled
 * yet: not counted there. Not seen: mispredicted branches between (their
 * resolution is not known yet: the bound assumes the younger load is
 * fetched in time) and older stores to its bytes. The chunk, not the part
 * of it the tracker took, bounds the look: the same records whatever the
 * batches or the sampler's phases. Returns whether some lane's request is
 * earlier. Out of line: called for the L1d misses of loads only; it follows
 * the chunk's accesses of the line (ahead_fill(), once per chunk with a
 * miss), not every record.
 */
static bool ahead_access(const edan_exec *y)
{
    return y->insn->mem != EDAN_MEM_NONE && y->insn->mem_size && !(y->flags & EDAN_EXEC_NO_ACCESS);
}

/* Whether a record of the chunk from ja up to b (exclusive) writes a source register of in (record b). */
static bool ahead_written(const edan_timing *t, size_t ja, size_t b, const edan_insn *in)
{
    for (size_t j = ja; j < b; j++) {
        const edan_insn *w = t->part[j].insn;
        for (int s = 0; w->n_dst && s < in->n_src; s++)
            if (w->dst == in->src[s])
                return true;
    }
    return false;
}

/*
 * miss_ahead()'s view of the current chunk (timing_internal.h), one pass
 * forwards, extended up to record `to` (exclusive): each access links the
 * line's previous one to it (ah_next), each record notes the last record
 * that ends a look up to it (ah_brk, + 1).
 */
static __attribute__((noinline)) TIMING_TARGET void ahead_fill(edan_timing *t, size_t to)
{
    if (t->ah_chunk != t->chunk_no) { /* a new chunk: a new generation of the tables */
        t->ah_chunk = t->chunk_no;
        t->ah_gen++;
        t->ah_done = 0;
        t->ah_last_brk = 0;
    }
    const uint32_t gen = t->ah_gen;
    const uint16_t n = (uint16_t)t->part_n;
    for (size_t j = t->ah_done; j < to; j++) {
        const edan_exec *y = &t->part[j];
        const edan_insn *in = y->insn;
        if ((y->flags & EDAN_EXEC_WARM) || serializing(in))
            t->ah_last_brk = (uint16_t)(j + 1);
        t->ah_brk[j] = t->ah_last_brk;
        t->ah_next[j] = n;
        if (!ahead_access(y))
            continue;
        const uint64_t line = y->addr >> t->line_shift;
        uint32_t s = (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 53) & (AH_SLOTS - 1);
        while (t->ah_line_gen[s] == gen && t->ah_line[s] != line) /* at most PRED_BATCH lines in AH_SLOTS */
            s = (s + 1) & (AH_SLOTS - 1);
        if (t->ah_line_gen[s] == gen)
            t->ah_next[t->ah_line_at[s]] = (uint16_t)j;
        t->ah_line_gen[s] = gen;
        t->ah_line[s] = line;
        t->ah_line_at[s] = (uint16_t)j;
    }
    if (to > t->ah_done)
        t->ah_done = to;
}

static __attribute__((noinline)) TIMING_TARGET bool miss_ahead(edan_timing *t, const tick *dsp, const tick *a,
                                                               tick *req)
{
    const int Kp = t->Kp, K = t->K;
    const uint64_t v = t->v, width = t->m.dispatch_width;
    bool any = false;
    tick wait =
        0; /* the most a lane's request came after its dispatch: a load dispatched that much later cannot beat it */
    for (int k = 0; k < Kp; k++) {
        req[k] = a[k];
        if (k < K && a[k] - dsp[k] > wait)
            wait = a[k] - dsp[k];
    }
    const size_t ja = t->part_j;
    /* a record d after v dispatches (d / width) cycles after it, at least: past `wait`, none is first */
    const uint64_t reach = width * (wait / t->cyc + 1);
    /* the records 1 .. MISS_AHEAD after v, within the reorder buffer */
    size_t end = ja + 1 + (MISS_AHEAD < t->m.rob_entries - 1 ? MISS_AHEAD : t->m.rob_entries - 1);
    end = end < ja + reach ? end : ja + reach;
    end = end < t->part_n ? end : t->part_n;
    if (t->ah_chunk != t->chunk_no || t->ah_done < end)
        ahead_fill(t, end);
    for (size_t j = t->ah_next[ja]; j < end && t->ah_brk[j] == t->ah_brk[ja]; j = t->ah_next[j]) {
        const edan_insn *in = t->part[j].insn;
        const uint64_t d = j - ja;
        if (in->mem != EDAN_MEM_LOAD || (d / width) * t->cyc >= wait)
            break; /* a store to the line (the loads after it may take its bytes), or too late to be first */
        const uint32_t *set = t->m.store_set_bytes ? t->ssit + (size_t)ssit_index(in->pc) * (size_t)K : NULL;
        uint32_t free = 0; /* the lanes where its pc is in no store set */
        for (int k = 0; k < K; k++)
            free |= (uint32_t)(!set || !set[k]) << k;
        if (!free || ahead_written(t, ja, j, in))
            continue;
        const tick *rob = rob_wait(t, t->u + d);
        for (int k = 0; k < K; k++) {
            if (!(free >> k & 1))
                continue;
            tick e = dsp[k] + (d / width) * t->cyc;
            if (rob && rob[k] > e)
                e = rob[k];
            for (int s = 0; s < in->n_src; s++) {
                const uint64_t w = t->lastw[in->src[s]];
                if (w && v - (w - 1) <= t->rmask && ROW(t->F, (w - 1) & t->rmask)[k] > e)
                    e = ROW(t->F, (w - 1) & t->rmask)[k];
            }
            if (e < req[k]) {
                req[k] = e;
                any = true;
            }
        }
    }
    return any;
}

#endif
