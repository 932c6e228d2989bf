/*
 * timing_bisect.h - the wrong path of a binary search's mispredicted branch:
 * the loads of the other half, which the trace does not hold (their
 * addresses need the registers' values), and their fills. One rule, called
 * by the scheduled step (timing_ahead.h, wrong_path_loads()) and by
 * functional warming (timing_shared.h, functional_run()), so that a skip of
 * the sampled model leaves the caches as the scheduled step does. Included
 * by timing_shared.h before functional_run(); every name static.
 */
#ifndef EDAN_ANALYSIS_TIMING_BISECT_H
#define EDAN_ANALYSIS_TIMING_BISECT_H

/* Whether record y accesses memory (an address the model sees). */
static bool ahead_access(const edan_exec *y)
{
    return y->insn->mem != EDAN_MEM_NONE && y->insn->mem_size && !(y->flags & EDAN_EXEC_NO_ACCESS);
}

/*
 * Whether a record before part[ja] touched the page of pa, a physical address
 * of the map: its frame was placed before the chunk (the map's mark, timing.c's
 * translate()), or a record of the chunk before ja has a frame as new (frames
 * are placed in stream order).
 */
static bool wpb_touched(const edan_timing *t, size_t ja, uint64_t pa)
{
    const uint64_t f = edan_pagemap_frame_of(pa);
    if (f < t->pages.mark)
        return true;
    for (size_t i = 0; i < ja; i++)
        if (t->part[i].insn->mem != EDAN_MEM_NONE && !(t->part[i].flags & EDAN_EXEC_NO_ACCESS) &&
            edan_pagemap_frame_of(t->part[i].addr) >= f)
            return true;
    return false;
}

/* Records before a mispredicted branch where the load whose value it tests may be. */
#define WPB_BACK 8

/*
 * The other half of a bisection. A mispredicted conditional branch (the
 * chunk's record ja - 1; ja the right path's next record) that tests the
 * value of a load P at address L (the branch's registers derive from it; P
 * within WPB_BACK records before the branch), after which the right path's
 * next load of P (within rob_entries records) is at A, its address not
 * derived from L's value: the branch chose between two ranges around L and
 * the right path went on to the one at A (a binary search's midpoints:
 * `mid = lo + (hi - lo) / 2`, then lo or hi becomes mid), where the steps
 * halve: the one from P's load before L to L is 1.5 to 3 times the one from
 * L to A (a walk of one step, or a new search, is no bisection). The wrong
 * path runs the other arm and loads P in the other range: the model takes
 * it to be as large as the right path's, the load at 2L - A, the step
 * reflected (gem5 sends it: its address waits for no load). From there the
 * wrong path bisects the other half as the predictor sends the branch (the
 * way the right path's direction went, or the other way), its step halved,
 * its loads a loop's run apart (L to A on the right path), down to a step
 * of a line, as long as the load is within rob_entries instructions of the
 * branch (gem5, fits.xsbench at 300 ns: of 115 pairs of committed loads of
 * its search's pc with squashed ones between, 108 have the first squashed
 * one at 2L - A; the next ones are the other half's next levels).
 *
 * On a machine whose pages are placed at first touch (pagemap.h) the
 * records hold physical addresses: the rule's arithmetic is the program's,
 * on the virtual addresses (the map's frame -> page table), and each load
 * it sends goes to its page's frame when the page was touched before; a
 * load in a page the program has not touched stops the wrong path there
 * (gem5's squashed load faults, reads nothing, and the level after waits for
 * its value).
 *
 * What is sent does not depend on the times (nor on the lane): the rule
 * reads the chunk's records, the machine's sizes and the predictor, all of
 * which functional warming has as the scheduled step does. Every such load's
 * line is filled in the data caches (no count: a wrong path's access is no
 * record's); `timed` (the scheduled step): its request also goes to the
 * memory's timing (the MSHR, the fill later loads wait for) when it
 * dispatches on the wrong path, its distance d from the branch, fetch_width
 * a cycle from the cycle after the branch's fetch and frontend_cycles later,
 * dispatch_width a cycle after the branch's dispatch. The in-order core has
 * no wrong path.
 */
static __attribute__((noinline)) TIMING_TARGET void wrong_path_bisect(edan_timing *t, size_t ja, bool timed)
{
    const edan_exec *part = t->part;
    const size_t n = t->part_n;
    if (!part || ja < 2 || ja >= n || t->m.core_model == EDAN_CORE_INORDER)
        return;
    const edan_insn *br = part[ja - 1].insn;
    const uint16_t warm = part[ja - 1].flags & EDAN_EXEC_WARM;
    if (br->isa || br->flow != EDAN_FLOW_BRANCH || !br->pc)
        return;
    size_t jl = ja - 1;
    for (size_t i = 2; i <= WPB_BACK + 1 && i <= ja && jl == ja - 1; i++) {
        const edan_exec *y = &part[ja - i];
        if ((y->flags & EDAN_EXEC_WARM) != warm)
            return;
        if (ahead_access(y) && y->insn->mem == EDAN_MEM_LOAD && !y->insn->isa && y->insn->n_dst)
            jl = ja - i;
    }
    if (jl == ja - 1)
        return;
    const edan_insn *ld = part[jl].insn;
    const uint64_t P = ld->pc, rob_n = t->m.rob_entries;
    uint64_t L = part[jl].addr;
    /* the registers whose values derive from L's value, from L on (bit r % 64 of dep[r / 64]) */
    uint64_t dep[4] = {0};
    dep[ld->dst >> 6] |= 1ull << (ld->dst & 63);
    const size_t lim = ja + rob_n < n ? ja + rob_n : n;
    size_t jA = jl + 1;
    for (; jA < lim; jA++) {
        const edan_exec *y = &part[jA];
        const edan_insn *in = y->insn;
        if ((y->flags & EDAN_EXEC_WARM) != warm || serializing(in) || in->isa)
            return;
        bool d = false;
        for (int s = 0; s < in->n_src; s++)
            d |= dep[in->src[s] >> 6] >> (in->src[s] & 63) & 1;
        if (jA == ja - 1 && !d)
            return; /* the branch does not test L's value */
        if (jA >= ja && in->pc == P) {
            if (d || !ahead_access(y) || y->addr == L)
                return; /* A's address waits for L's value: so would the wrong path's */
            break;
        }
        if (in->n_dst) {
            if (d)
                dep[in->dst >> 6] |= 1ull << (in->dst & 63);
            else
                dep[in->dst >> 6] &= ~(1ull << (in->dst & 63));
        }
    }
    if (jA >= lim)
        return;
    /* the steps halve */
    size_t jp = jl;
    while (jp > 0 && jl - jp < rob_n && part[--jp].insn->pc != P)
        ;
    if (part[jp].insn->pc != P || jp == jl || !ahead_access(&part[jp]) || (part[jp].flags & EDAN_EXEC_WARM) != warm)
        return;
    uint64_t A = part[jA].addr, Lp = part[jp].addr;
    if (t->paged) { /* the program's addresses */
        A = edan_pagemap_virtual(&t->pages, A);
        L = edan_pagemap_virtual(&t->pages, L);
        Lp = edan_pagemap_virtual(&t->pages, Lp);
    }
    uint64_t step = A > L ? A - L : L - A;
    const uint64_t before = Lp > L ? Lp - L : L - Lp;
    if (2 * before < 3 * step || before > 3 * step)
        return;
    const uint64_t fw = t->m.fetch_width, dw = t->m.dispatch_width, per = jA - jl;
    const bool up = A > L; /* where the right path's direction went */
    const bool taken = part[ja].insn->pc != br->pc + br->size;
    /* the wrong path's next levels go the way the predictor sends the branch (it has learnt this outcome) */
    const bool same = edan_predictor_predict(&t->bp, br->pc) == taken;
    uint64_t B = 2 * L - A, d = jA - ja;
    for (; d < rob_n; d += per) {
        const uint64_t pa = t->paged ? edan_pagemap_placed(&t->pages, B) : B;
        if (t->paged && (pa == UINT64_MAX || !wpb_touched(t, ja, pa)))
            return; /* a page the program has not touched: the load faults */
        const edan_cache_result r = edan_cache_access(&t->dc, pa, ld->mem_size, false);
        if (timed && r.level > 0) {
            _Alignas(32) tick req[MAXK], done[MAXK];
            for (int k = 0; k < t->K; k++) {
                const tick e = t->fetch.at[k] + t->frontend + t->cyc * (1 + d / fw),
                           ed = t->disp.at[k] + t->cyc * (1 + d / dw);
                req[k] = e > ed ? e : ed;
            }
            for (int k = t->K; k < t->Kp; k++)
                req[k] = req[t->K - 1];
            edan_memtime_access(&t->mem, pa >> t->line_shift, (int)r.level, r.ram_bytes, req, 0, done);
        }
        /* the wrong path's next level: half the step */
        step /= 2;
        if (step < (1ull << t->line_shift))
            return;
        B = (same ? up : !up) ? B + step : B - step;
    }
}

#endif
