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
 * miss), not every record. A record's access: ahead_access() (timing_bisect.h).
 */
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
    t->ah_first = t->part_n;
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
                if (k == t->mem.pf.lane)
                    t->ah_first = j;
            }
        }
    }
    return any;
}

/* wpl_reg's mark of a register last written by a record only the right path runs: its value differs */
#define WPL_OTHER 0xffffu
/* wpl_reg's mark of a register the wrong path has not written, its value the one before the branch
   (timed by lastw), which the right path's records before the join stepped: wpl_off holds the step */
#define WPL_BEFORE 0xfffeu

/* A line's slot in the table of lines the wrong paths requested (wpl_req). */
static inline uint32_t wpl_slot(uint64_t line)
{
    return (uint32_t)((line * 0x9E3779B97F4A7C15ull) >> 58) & (WPL_SLOTS - 1);
}

/* A load's level in the data hierarchy, its LRU order unchanged: 0 the L1d .. nlev memory. */
static int wpl_level(const edan_timing *t, uint64_t addr)
{
    for (int l = 0; l < t->nlev; l++)
        if (edan_cache_level_holds(&t->dc.level[l], addr >> t->dc.level[l].line_shift))
            return l;
    return t->nlev;
}

/*
 * Wrong-path loads. Before a mispredicted conditional branch resolves, the
 * core fetches, dispatches and issues down the other direction, and gem5's
 * wrong-path loads send their misses, which fill the caches though the path
 * is squashed (gem5's O3 does not cancel them). The trace holds the right
 * path only; what the model takes of the wrong path is where it rejoins the
 * right path's near future (control independence): from `wrong`, the
 * other direction's first pc,
 *  - a forward branch taken that was predicted not taken: the wrong path runs
 *    the instructions in the bytes the branch skips, one after another as
 *    decoded (timing.c: counted by their sizes, 2 or 4 bytes; the
 *    registers they write hold values the right path does not have), and
 *    then the right path's records from the current one on; no wrong path
 *    where one of them was never decoded, or rob_entries of them or more;
 *  - else the wrong path is the right path's records from the first one at
 *    `wrong` among the next rob_entries (a loop's exit predicted to go on:
 *    the loop's next run; a forward branch not taken predicted taken: the
 *    join after the body), and the records before it, which only the right
 *    path runs, write values the wrong path does not have.
 * Along it, instruction d of the wrong path dispatches no earlier than
 * fetch_width a cycle from the cycle after the branch's fetch and
 * frontend_cycles later, dispatch_width a cycle after the branch's
 * dispatch, the commit of the micro-operation rob_entries before it and,
 * for a load, of the load lq_entries before it; it starts when its
 * registers are written (the right path's scheduled writers, or the wrong
 * path's own: their operation's latency, a load's the level that holds its
 * line now). A load whose registers hold no value only the right path
 * computed, and which starts before the branch resolves (its finish, in
 * each lane), sends its line's request then: the right path's first miss
 * of that line up to the load's own record finds it (wrong_path_found()).
 * It stops at the chunk's end, a record outside the region, a serializing
 * or native instruction, or where every lane's dispatch is past the
 * branch's resolution. Besides, the loads of a binary search's other half
 * (wrong_path_bisect(), timing_bisect.h). A load that finds its line on its way
 * trains the L1d's prefetcher (wpl_train()). Nothing else of the wrong path
 * is modelled (its loads of other lines, their MSHRs and evictions).
 *
 * The induction registers as offsets (RISC-V): a record only the right path
 * runs that adds an immediate to its own register (addi r,r,imm, c.addi and
 * c.addi16sp decoded so) leaves r known on the wrong path, its value the right
 * path's minus imm at every record after (wpl_off, the offsets of several
 * such records adding up); any other write of r there makes it unknown. Along
 * the wrong path addi, slli, add and sub carry their operands' offsets to
 * their result (mv is addi 0), another operation with an operand whose offset
 * is not 0 writes a value not known, and a load whose base register has an
 * offset reads the record's address plus the offset: its line is requested as
 * any other's (that of a loop's next iteration the right path runs after the
 * branch, behind the record: spills.gapbs-bfs, docs/accuracy.md), its value is
 * not known. x0 has no offset.
 */
/* wpl_reg: register r holds a value only the right path computed */
static void wpl_other(edan_timing *t, const edan_insn *in, uint32_t gen)
{
    if (in->n_dst) {
        t->wpl_reg[in->dst] = WPL_OTHER;
        t->wpl_reg_gen[in->dst] = gen;
    }
}

/* The offset of register r's value on the wrong path from the right path's (0: x0, or not stepped). */
static inline int64_t wpl_offset(const edan_timing *t, uint8_t r, uint32_t gen)
{
    return r && t->wpl_reg_gen[r] == gen && t->wpl_reg[r] != WPL_OTHER ? t->wpl_off[r] : 0;
}

/* Whether in is addi r,r,imm (RISC-V; r not x0): an induction register's step. */
static inline bool wpl_step(const edan_insn *in)
{
    return !in->isa && in->op == EDAN_OP_ADDI && in->n_dst && in->dst == in->rd && in->rs1 == in->rd;
}

/*
 * Record in, which only the right path runs, written on the way to the join:
 * an induction register's step leaves its register known, the step taken off
 * its offset; any other write makes its register unknown.
 */
static void wpl_right_only(edan_timing *t, const edan_insn *in, uint32_t gen)
{
    if (!wpl_step(in)) {
        wpl_other(t, in, gen);
        return;
    }
    const uint8_t r = in->dst;
    if (t->wpl_reg_gen[r] != gen) { /* the value before the branch, timed by the right path's writer */
        t->wpl_reg[r] = WPL_BEFORE;
        t->wpl_reg_gen[r] = gen;
        t->wpl_off[r] = 0;
    }
    if (t->wpl_reg[r] != WPL_OTHER)
        t->wpl_off[r] = (int64_t)((uint64_t)t->wpl_off[r] - (uint64_t)in->imm);
}

/*
 * Where a path that left the right path's records at record ja (whose pc is
 * pc) by going to `wrong` instead (fall: the fall-through of the branch
 * before ja) joins them again: the record returned (n: nowhere in reach),
 * *skip the wrong path's instructions before it; the registers that only one
 * of the two paths writes on the way are marked in wpl_reg.
 */
static size_t wpl_rejoin(edan_timing *t, size_t ja, uint64_t pc, uint64_t wrong, uint64_t fall, uint32_t gen,
                         uint64_t *skip)
{
    const size_t n = t->part_n;
    const uint64_t rob_n = t->m.rob_entries;
    *skip = 0;
    if (wrong == fall && pc > wrong) {
        /* the skipped bytes' instructions as decoded (timing.c): not all decoded, what they write is not known */
        const timing_skip *sk = edan_timing_skip(t, wrong, pc);
        if (!sk)
            return n;
        *skip = sk->count;
        for (int w = 0; w < 4; w++)
            for (uint64_t b = sk->regs[w]; b; b &= b - 1) {
                const int r = w * 64 + __builtin_ctzll(b);
                t->wpl_reg[r] = WPL_OTHER;
                t->wpl_reg_gen[r] = gen;
            }
        return ja;
    }
    const size_t lim = ja + rob_n < n ? ja + rob_n : n;
    size_t j0 = ja + 1;
    for (; j0 < lim && t->part[j0].insn->pc != wrong; j0++)
        if ((t->part[j0].flags & EDAN_EXEC_WARM) || serializing(t->part[j0].insn))
            return n;
    if (j0 >= lim)
        return n;
    for (size_t j = ja; j < j0; j++)
        wpl_right_only(t, t->part[j].insn, gen);
    return j0;
}

/*
 * A wrong-path load that reaches the L1d, before its branch resolves in the
 * lane that decides the prefetchers' training, and finds its line on its way
 * (an MSHR hit, memtime.h): gem5's squashed load trains the L1d's prefetcher
 * as a right-path one does (fits.floyd-warshall: the loads of the loop's
 * next iterations, fetched past the first iteration's mispredicted branch,
 * train the row's pc at stride 0 while the row's first line is on its way).
 * Its prefetches go at its time, req.
 */
static __attribute__((noinline)) TIMING_TARGET void wpl_train(edan_timing *t, uint64_t pc, uint64_t addr,
                                                              const tick *req)
{
    const edan_cache_result r = {false, false, 0, 0};
    const uint32_t n = prefetch_train_pc(t, pc, addr, &r, req, 0); /* t->ss_early is the record's, not its */
    for (uint32_t i = 0; i < n; i++)
        edan_memtime_prefetch(&t->mem, &t->pf.issue[i], req);
}

static __attribute__((noinline)) TIMING_TARGET void wrong_path_loads(edan_timing *t, uint64_t pc)
{
    const size_t ja = t->part_j, n = t->part_n;
    /* a binary search's other half (timing_bisect.h: functional warming's rule too) */
    wrong_path_bisect(t, ja, true);
    const edan_insn *br = t->v ? t->win_insn[(t->v - 1) & t->rmask] : NULL;
    if (!br || br->isa || br->flow != EDAN_FLOW_BRANCH || !t->part || ja >= n || t->part[ja].insn->pc != pc)
        return;
    const uint64_t fall = t->prev.fallthrough, rob_n = t->m.rob_entries;
    const uint32_t gen = ++t->wpl_gen;
    uint64_t d0 = 0;
    size_t j0 = wpl_rejoin(t, ja, pc, pc == fall ? br->pc + (uint64_t)br->imm : fall, fall, gen, &d0);
    if (j0 >= n)
        return;
    const int K = t->K, Kp = t->Kp;
    const tick *res = ROW(t->F, (t->v - 1) & t->rmask); /* the branch resolves: the wrong path is squashed */
    const uint64_t fw = t->m.fetch_width, dw = t->m.dispatch_width, lqn = t->m.lq_entries;
    uint64_t nl = 0; /* the wrong path's loads so far */
    for (size_t j = j0; j < n; j++) {
        const edan_exec *y = &t->part[j];
        const edan_insn *in = y->insn;
        const uint64_t d = d0 + (j - j0); /* its place on the wrong path */
        if (d >= rob_n || (y->flags & EDAN_EXEC_WARM) || serializing(in) || in->isa)
            break;
        if (in->flow == EDAN_FLOW_BRANCH && j + 1 < n) {
            /* a branch the predictor sends the other way than the right path went: the wrong path leaves again */
            const uint64_t next = t->part[j + 1].insn->pc, nfall = in->pc + in->size;
            const bool taken = edan_predictor_predict(&t->bp, in->pc);
            if ((next != nfall) != taken) {
                uint64_t skip = 0;
                const size_t jn =
                    wpl_rejoin(t, j + 1, next, taken ? in->pc + (uint64_t)in->imm : nfall, nfall, gen, &skip);
                if (jn >= n)
                    break;
                d0 = d + 1 + skip;
                j0 = jn;
                j = jn - 1;
                continue;
            }
        }
        const bool load = ahead_access(y) && in->mem == EDAN_MEM_LOAD;
        if (!load && !in->n_dst)
            continue; /* a store, a branch or a jump: nothing the wrong path's loads wait for */
        if (load && nl >= lqn)
            break;
        const tick *lqw = load && t->n_loads + nl >= lqn ? ROW(t->lq, (t->lq_at + nl) % lqn) : NULL;
        nl += load;
        const tick *rob = rob_wait(t, t->u + d);
        tick *done = t->wpl_done + d * (uint64_t)Kp;
        bool other = false, before = false, dispatched = false;
        for (int k = 0; k < K; k++) {
            tick e = t->fetch.at[k] + t->frontend + t->cyc * (1 + d / fw);
            const tick ed = t->disp.at[k] + t->cyc * (1 + d / dw);
            e = e > ed ? e : ed;
            dispatched |= e < res[k];
            if (rob && rob[k] > e)
                e = rob[k];
            if (lqw && lqw[k] > e)
                e = lqw[k];
            done[k] = e;
        }
        if (!dispatched)
            break; /* in no lane does it dispatch before the branch resolves: nor do the ones after */
        for (int s = 0; s < in->n_src && !other; s++) {
            const uint8_t r = in->src[s];
            const tick *row = NULL;
            if (t->wpl_reg_gen[r] == gen && t->wpl_reg[r] != WPL_BEFORE) {
                other = t->wpl_reg[r] == WPL_OTHER;
                row = other ? NULL : t->wpl_done + (uint64_t)(t->wpl_reg[r] - 1) * (uint64_t)Kp;
            } else {
                const uint64_t w = t->lastw[r];
                if (w && t->v - (w - 1) <= t->rmask)
                    row = ROW(t->F, (w - 1) & t->rmask);
            }
            for (int k = 0; row && k < K; k++)
                done[k] = done[k] > row[k] ? done[k] : row[k];
        }
        /* the offsets: its result's (off), a load's address's (shift) */
        int64_t off = 0, shift = 0;
        if (!other) {
            const uint64_t o1 = (uint64_t)wpl_offset(t, in->rs1, gen), o2 = (uint64_t)wpl_offset(t, in->rs2, gen);
            if (in->op == EDAN_OP_ADDI)
                off = (int64_t)o1;
            else if (in->op == EDAN_OP_SLLI)
                off = (int64_t)(o1 << (in->imm & 63));
            else if (in->op == EDAN_OP_ADD)
                off = (int64_t)(o1 + o2);
            else if (in->op == EDAN_OP_SUB)
                off = (int64_t)(o1 - o2);
            else {
                for (int s = 0; s < in->n_src; s++)
                    if (wpl_offset(t, in->src[s], gen) && !(load && in->src[s] == in->rs1))
                        other = true; /* another operation on a stepped value: not known */
                if (load)
                    shift = (int64_t)o1;
            }
        }
        uint64_t addr = y->addr;
        if (shift && !other) { /* the address the wrong path's registers give */
            addr += (uint64_t)shift;
            if (t->paged) { /* the program's addresses: its page's frame, if the program touched the page */
                const uint64_t va = edan_pagemap_virtual(&t->pages, y->addr) + (uint64_t)shift;
                if ((va ^ (va - (uint64_t)shift)) >> EDAN_PAGEMAP_SHIFT) {
                    addr = edan_pagemap_placed(&t->pages, va);
                    other = addr == UINT64_MAX || !wpb_touched(t, ja, addr);
                }
            }
        }
        if (other || (ahead_access(y) && !load)) { /* its value is not the right path's (or an AMO's: not known) */
            if (in->n_dst) {
                t->wpl_reg[in->dst] = WPL_OTHER;
                t->wpl_reg_gen[in->dst] = gen;
            }
            continue;
        }
        if (load) {
            const int level = wpl_level(t, addr);
            tick lat = 0;
            for (int l = 0; l <= level && l < t->nlev; l++)
                lat += t->mem.hit[l];
            const uint64_t line = addr >> t->line_shift;
            const int pk = t->mem.pf.lane;
            if (level == 0 && t->pf.any && done[pk] < res[pk] && edan_memtime_pf_in_flight(&t->mem, line, done))
                wpl_train(t, in->pc, addr, done);
            const uint32_t s = wpl_slot(line);
            timing_wpl_req *q = t->wpl_req + (size_t)s * (size_t)Kp;
            for (int k = 0; k < K; k++) {
                if (level > 0 && done[k] < res[k]) { /* only a lane that sends it: the others' entries stay */
                    before = true;
                    const bool same = q[k].line == line + 1 && q[k].chunk == t->chunk_no;
                    q[k].at = same && q[k].at < done[k] ? q[k].at : done[k];
                    q[k].line = line + 1;
                    q[k].chunk = t->chunk_no;
                    q[k].until = (uint32_t)j;
                }
                done[k] += lat + (level == t->nlev ? t->mem.memlat[k] : 0);
            }
            t->wpl_any |= before;
        } else {
            const tick lat = t->lat[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
            for (int k = 0; k < K; k++)
                done[k] += lat;
        }
        if (in->n_dst) { /* a load from a shifted address: its value is not the right path's */
            t->wpl_reg[in->dst] = shift ? WPL_OTHER : (uint16_t)(d + 1);
            t->wpl_reg_gen[in->dst] = gen;
            t->wpl_off[in->dst] = off;
        }
    }
}

/*
 * A load's miss of line (req: its request in each lane, a's or an earlier
 * one): a lane's wrong path requested the line earlier (wrong_path_loads())
 * for a record not before this one: the request is the earlier of the two,
 * once in each lane.
 */
static TIMING_TARGET bool wrong_path_found(edan_timing *t, uint64_t line, tick *req)
{
    const uint32_t s = wpl_slot(line);
    timing_wpl_req *q = t->wpl_req + (size_t)s * (size_t)t->Kp;
    bool any = false;
    for (int k = 0; k < t->K; k++) {
        if (q[k].line != line + 1 || q[k].chunk != t->chunk_no || t->part_j > q[k].until)
            continue;
        q[k].line = 0;
        if (q[k].at < req[k]) {
            req[k] = q[k].at;
            any = true;
        }
    }
    return any;
}

/*
 * A load's access r (the cache model's, just done) trains the prefetchers (prefetch.h) as gem5's
 * issue order has it: gem5's L1d hears of the accesses in the order they reach it, so of the loads
 * of a line the first to ask, not the first in the trace, is the miss (or the first use of a
 * prefetched line) that trains its pc's entry, and the others find the line there or on its way.
 * When this access would train as the line's first (a miss, or the first use of a prefetched line)
 * and a younger load of the line asks earlier in the lane that decides the training (miss_ahead(),
 * memtime.h's pf.lane), the training is the younger load's, with its pc and address, and the
 * younger load trains nothing when its turn comes. fits.trisolv: the diagonal load after the inner
 * loop asks before the inner loop's row load reaches the row's last line (docs/model.md).
 */
static TIMING_TARGET uint32_t prefetch_train_first(edan_timing *t, const edan_insn *in, const edan_exec *rec,
                                                   const edan_cache_result *r, const tick *dsp, const tick *a)
{
    const size_t ja = t->part_j;
    if (t->pf_ahead[ja] == t->chunk_no + 1) { /* a load before it trained with this access */
        t->pf_ahead[ja] = 0;
        return 0;
    }
    if (INORDER(t) || in->mem != EDAN_MEM_LOAD || in->isa)
        return prefetch_train(t, in, rec->addr, r, a);
    const uint64_t line = rec->addr >> t->dc.level[0].line_shift;
    const bool first = r->level > 0 || (edan_cache_level_set(&t->dc.level[0], line)[0] & EDAN_TAG_PREFETCHED);
    _Alignas(32) lanes req;
    const int k = t->mem.pf.lane;
    if (!first || !miss_ahead(t, dsp, a, req) || t->ah_first >= t->part_n || req[k] >= a[k])
        return prefetch_train(t, in, rec->addr, r, a);
    const edan_exec *y = &t->part[t->ah_first];
    t->pf_ahead[t->ah_first] = t->chunk_no + 1;
    const tick early = t->ss_early;
    t->ss_early = 0;
    return prefetch_train_pc(t, y->insn->pc, y->addr, r, a, early);
}

#endif
