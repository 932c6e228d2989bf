/*
 * timing_lanes.h - the timing model's step (timing.h), written once for
 * lanes TIMING_LW at a time and built for each width by a file that defines
 * TIMING_LW and includes this: timing_step.c (1, plain C for any CPU),
 * timing_step4.c (4, AVX2), timing_step4k.c and timing_step8k.c (4, AVX2,
 * for exactly four and eight lanes: STEP_KP()). Per record, what is the same in every lane
 * (fetch's L1i line, the branch predictor, the dependencies, the cache
 * contents, the store sets' blocks) once, then each stage for the lanes
 * TIMING_LW at a time, as vectors (timing_vec.h); the shared part, and the
 * step of a record the sampled model skips, are in timing_shared.h. With
 * sampling (timing_sample.c) a batch goes part by part, each part scheduled
 * or skipped as the sampler's phase says. The lanes share no state,
 * so one vector's lanes are the same computation side by side; the rules
 * whose state is per lane and whose work is seldom needed (a full issue
 * queue, the hierarchy's times, the store sets) stay scalar and are called
 * for the lanes a vector test finds needing them.
 *
 * Every name here is static: each width's file has its own copy, and
 * defines its consume function with consume_body(). That file also defines
 * TIMING_TARGET, the instruction set of every function here and of its
 * consume function (empty: the compiler's default).
 */
#ifndef EDAN_ANALYSIS_TIMING_LANES_H
#define EDAN_ANALYSIS_TIMING_LANES_H

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cache/cache.h"
#include "analysis/deps/deps.h"
#include "analysis/machine/machine.h"
#include "analysis/timing/memtime.h"
#include "analysis/timing/timing_dump.h"
#include "analysis/timing/timing_internal.h"
#include "analysis/timing/timing_vec.h"
#include "isa/riscv_ops.h"
#include "util/grow.h"

#define STEP_INLINE static inline __attribute__((always_inline)) TIMING_TARGET

/*
 * The lanes of the step (t->Kp), a constant in a build for exactly
 * TIMING_KP of them (timing_step4k.c: one vector, four latencies or
 * fewer; timing_step8k.c: two, five to eight), so that its loops over the lanes run once with no loop and its
 * rows (ROW()) are a shift from their tables.
 */
#ifdef TIMING_KP
#define STEP_KP(t) TIMING_KP
#else
#define STEP_KP(t) ((t)->Kp)
#endif

#include "analysis/timing/timing_shared.h"

/* ===================================================================== */
/* The lanes, TIMING_LW at a time                                         */
/* ===================================================================== */

/*
 * What fetch and dispatch need to know about a vertex, the same in every
 * lane. The machine's constants they use are read from the model (t->cyc,
 * t->m.fetch_width, ...): a copy of them made for each vertex cost more
 * than reading them again after the issue queue's out-of-line calls.
 */
typedef struct front {
    const timing_fdesc *row; /* the vertex's static instruction's (fdesc_of()) */
    bool taken_rule, new_block, redirect;
    bool fetch_ram;            /* its fetch waits for a code line from memory: its commit wait is memory stall */
    const tick *prevF;         /* F of the vertex before */
    const tick *rob, *lq, *sq; /* the entry v must wait for in each queue, or NULL */
    const tick *serial;        /* after a serializing vertex: when v may dispatch, or NULL */
} front;

/*
 * The in-order stage s takes one instruction no earlier than at (lanes j ..
 * j + TIMING_LW); returns when it does: at, if later than the stage's
 * cycle; else the stage's cycle, or the next one when this one has taken
 * `width`.
 */
STEP_INLINE lv slot_take(slots *s, int j, lv at, uint64_t width, tick cyc)
{
    const lv cur = lv_ld(s->at + j), n = lv_ld(s->taken + j);
    const lv later = lv_gt(at, cur), full = lv_eq(n, lv_splat(width));
    const lv when = lv_sel(later, at, cur + (full & cyc));
    lv_st(s->taken + j, lv_sel(later | full, lv_splat(1), n + 1));
    lv_st(s->at + j, when);
    return when;
}

/* Lanes j ..'s fetch of the vertex (before the wait for an L1i miss): when fetch takes it. */
STEP_INLINE lv lane_fetch(edan_timing *t, int j, const front *c)
{
    const lv fat = lv_ld(t->fetch.at + j);
    lv f = fat;
    DUMP_IF(t, j, dump_bound(t, DUMP_FETCH, WHY_ORDER, f[0], 0));
    if (c->taken_rule) { /* a fetch cycle ends at its fetch_taken_limit-th taken branch */
        const lv nt = (lv_ld(t->ftaken_n + j) & lv_eq(lv_ld(t->ftaken_at + j), fat)) + 1;
        lv_st(t->ftaken_at + j, fat);
        lv_st(t->ftaken_n + j, nt);
        f += lv_ge(nt, lv_splat(t->m.fetch_taken_limit)) & t->cyc;
        DUMP_IF(t, j, dump_bound(t, DUMP_FETCH, WHY_TAKEN, f[0], 0));
    }
    /* another block is read from the L1i when fetch gets to it: its hit latency after the last fetch */
    if (c->new_block)
        f = lv_max(f, fat + t->l1i_hit);
    DUMP_IF(t, j, dump_bound(t, DUMP_FETCH, WHY_BLOCK, f[0], 0));
    if (c->redirect)
        f = lv_max(f, lv_ld(c->prevF + j) + t->penalty);
    DUMP_IF(t, j, dump_bound(t, DUMP_FETCH, WHY_MISPREDICT, f[0], 0));
    f = lv_max(f, lv_ld(t->refetch + j));
    DUMP_IF(t, j, dump_bound(t, DUMP_FETCH, WHY_REFETCH, f[0], 0));
    /* the front end holds frontend_cycles of instructions: fetch stays that close to dispatch */
    const lv da = lv_ld(t->disp.at + j), fe = lv_splat(t->frontend);
    f = lv_max(f, (da - fe) & lv_gt(da, fe));
    DUMP_IF(t, j, dump_bound(t, DUMP_FETCH, WHY_BACKPRESS, f[0], 0));
    const lv got = slot_take(&t->fetch, j, f, t->m.fetch_width, t->cyc);
    DUMP_IF(t, j, edan_timing_dump_stage(t, DUMP_FETCH, got[0]));
    return got;
}

/* ===================================================================== */
/* The issue queue                                                        */
/* ===================================================================== */

/*
 * Which vertices can hold an issue-queue entry at the dispatch of v in cycle
 * m (timing_internal.h gives the rule): every vertex u at least rob_entries
 * back has committed by then, so it left the queue at out_u <= C(u) <= d;
 * it still holds its entry only when out_u lies in (m cycles, d], in the
 * cycle of d. Every vertex from u on committed in that part of a cycle, at
 * most 15 distinct tick times with commit_width each: u is less than
 * rob_entries + 15 commit_width (iq_span) back. A list (iq_list) made
 * shorter keeps only rows held at a dispatch: at most iq_span of them.
 */

/*
 * Lanes j ..'s list counted in the lanes' cycles m (in mp): the rows held in
 * none of them go, the others stay in order. Each lane's iq_held becomes its
 * count, and iq_first the first cycle an entry of them frees in (TICK_NONE:
 * none). Two rows a step, each with its own sums, for short chains of
 * dependent instructions. Out of line, in the width's instruction set.
 */
static __attribute__((noinline)) TIMING_TARGET void iq_count(edan_timing *t, int j, const tick *mp)
{
    tick *list = t->iq_list + (size_t)j * t->iq_cap;
    const uint32_t n = t->iq_n[j];
    const lv m = lv_ld(mp), none = lv_splat(TICK_NONE);
    lv held0 = lv_splat(0), held1 = held0, first0 = none, first1 = none;
    uint32_t kept = 0, i = 0;
    for (; i + 2 <= n; i += 2) {
        const lv c0 = lv_ld(list + (size_t)i * TIMING_LW), h0 = lv_gt(c0, m);
        const lv c1 = lv_ld(list + (size_t)(i + 1) * TIMING_LW), h1 = lv_gt(c1, m);
        held0 -= h0; /* a mask is -1 where it holds */
        held1 -= h1;
        first0 = lv_min(first0, lv_sel(h0, c0, none));
        first1 = lv_min(first1, lv_sel(h1, c1, none));
        lv_st(list + (size_t)kept * TIMING_LW, c0);
        kept += lv_any(h0);
        lv_st(list + (size_t)kept * TIMING_LW, c1);
        kept += lv_any(h1);
    }
    if (i < n) {
        const lv c0 = lv_ld(list + (size_t)i * TIMING_LW), h0 = lv_gt(c0, m);
        held0 -= h0;
        first0 = lv_min(first0, lv_sel(h0, c0, none));
        lv_st(list + (size_t)kept * TIMING_LW, c0);
        kept += lv_any(h0);
    }
    t->iq_n[j] = kept;
    lv_st(t->iq_held + j, held0 + held1);
    lv_st(t->iq_first + j, lv_min(first0, first1));
}

/* How many entries of lanes j ..'s list free in cycle first (in fp), where `full` (a mask) is set. */
static __attribute__((noinline)) TIMING_TARGET void iq_count_first(edan_timing *t, int j, const tick *fp, tick *full_n)
{
    const tick *list = t->iq_list + (size_t)j * t->iq_cap;
    const lv first = lv_ld(fp);
    lv n = lv_splat(0);
    for (uint32_t i = 0; i < t->iq_n[j]; i++)
        n -= lv_eq(lv_ld(list + (size_t)i * TIMING_LW), first);
    lv_st(full_n, n & lv_ld(full_n));
}

/*
 * Lanes j ..'s dispatch at d, no earlier than d, with an entry free: a lane
 * whose bound iq_held is below the size dispatches at d (for all lanes at
 * once). Else the lanes count (iq_count()), and one with every entry taken
 * waits until the cycle the first of them frees, and holds then as many
 * less as free in that cycle.
 */
STEP_INLINE lv iq_room(edan_timing *t, int j, lv d)
{
    const lv size = lv_splat(t->m.iq_entries);
    if (!lv_any(lv_ge(lv_ld(t->iq_held + j), size)))
        return d;
    tick m[TIMING_LW];
    lv_st(m, d / TPC);
    iq_count(t, j, m);
    const lv held = lv_ld(t->iq_held + j), full = lv_ge(held, size);
    if (!lv_any(full))
        return d;
    tick first_n[TIMING_LW];
    lv_st(first_n, full);
    iq_count_first(t, j, t->iq_first + j, first_n);
    lv_st(t->iq_held + j, held - lv_ld(first_n));
    return lv_sel(full, lv_max(d, lv_ld(t->iq_first + j) * TPC), d);
}

/*
 * The issue-queue entry of lanes j .. of vertex v, dispatched at d, that
 * leaves at out: a row of the list (the cycle it frees in where it holds
 * one, else 0), kept where one of them does; one more in the bound iq_held.
 * A full list is made shorter first.
 */
STEP_INLINE void iq_enter(edan_timing *t, int j, lv d, lv out)
{
    const lv c = (out + (TPC - 1)) / TPC;
    const lv holds = lv_gt(out, d) & lv_gt(c, d / TPC) & lv_ld(t->real + j);
    if (t->iq_n[j] == t->iq_cap) {
        tick m[TIMING_LW];
        lv_st(m, d / TPC);
        iq_count(t, j, m);
        if (t->iq_n[j] == t->iq_cap) { /* cannot be: at most half of it is held */
            edan_error_set(&t->err, "timing model: the issue queue's list of %" PRIu64 " is full", t->iq_cap);
            return;
        }
    }
    lv_st(t->iq_list + (size_t)j * t->iq_cap + (size_t)t->iq_n[j] * TIMING_LW, c & holds);
    t->iq_n[j] += lv_any(holds);
    lv_st(t->iq_held + j, lv_ld(t->iq_held + j) - holds); /* holds is -1 where it does */
}

/*
 * A store that finds the store queue full, its oldest store writing a line
 * from memory (t->sq_ram): all ones in t->sq_held where that store's write,
 * sq, comes after the store could have dispatched (its fetch ft and the
 * front end). There its commit waits on memory, as a load's on its line:
 * stall.
 */
STEP_INLINE void sq_held(edan_timing *t, const tick *sq, const tick *ft)
{
    for (int j = 0; j < STEP_KP(t); j += TIMING_LW)
        lv_st(t->sq_held + j, lv_gt(lv_ld(sq + j), lv_ld(ft + j) + t->frontend));
}

/*
 * Lanes j ..'s commit wait `wait` of the vertex as memory stall, into the
 * lane's and its row's: all of it when its data or its fetch's code line
 * came from memory (mem_wait; front.fetch_ram), where the store queue held
 * it (sq_mem: sq_held()'s lanes).
 */
STEP_INLINE void add_stall(edan_timing *t, int j, tick *stall, tick *own_stall, lv wait, bool mem_wait, bool sq_mem)
{
    if (!mem_wait && !sq_mem)
        return;
    if (!mem_wait)
        wait &= lv_ld(t->sq_held + j);
    lv_st(stall + j, lv_ld(stall + j) + wait);
    lv_st(own_stall + j, lv_ld(own_stall + j) + wait);
}

/* Lanes j ..'s dispatch of the vertex fetched at f: when there is room in the window, the queues and the issue queue.
 */
STEP_INLINE lv lane_dispatch(edan_timing *t, int j, lv f, const front *c)
{
    lv d = f + t->frontend;
    DUMP_IF(t, j, dump_bound(t, DUMP_DISPATCH, WHY_FRONTEND, d[0], 0));
    if (c->rob)
        d = lv_max(d, lv_ld(c->rob + j));
    DUMP_IF(t, j, dump_bound(t, DUMP_DISPATCH, WHY_ROB, d[0], 0));
    if (c->lq)
        d = lv_max(d, lv_ld(c->lq + j));
    DUMP_IF(t, j, dump_bound(t, DUMP_DISPATCH, WHY_LQ, d[0], 0));
    if (c->sq)
        d = lv_max(d, lv_ld(c->sq + j));
    DUMP_IF(t, j, dump_bound(t, DUMP_DISPATCH, WHY_SQ, d[0], 0));
    if (c->serial)
        d = lv_max(d, lv_ld(c->serial + j));
    DUMP_IF(t, j, dump_bound(t, DUMP_DISPATCH, WHY_SERIAL, d[0], 0));
    d = iq_room(t, j, d);
    DUMP_IF(t, j, dump_bound(t, DUMP_DISPATCH, WHY_IQ, d[0], 0));
    const lv got = slot_take(&t->disp, j, d, t->m.dispatch_width, t->cyc);
    DUMP_IF(t, j, edan_timing_dump_stage(t, DUMP_DISPATCH, got[0]));
    return got;
}

/*
 * A divider of lanes j .. for an instruction that can start at a: it waits
 * for the divider free first (of equals, the first) and holds it for busy
 * (its class's issue interval, at most lat; lat when the unit is not
 * pipelined at all). Returns the finish, lat after the start; *a becomes the
 * start.
 */
STEP_INLINE lv divide(tick *units, uint32_t n, int Kp, int j, lv *a, tick lat, tick busy)
{
    lv best = lv_ld(units + j), which = lv_splat(0);
    for (uint32_t u = 1; u < n; u++) {
        const lv x = lv_ld(ROW(units, u) + j), less = lv_gt(best, x);
        best = lv_sel(less, x, best);
        which = lv_sel(less, lv_splat(u), which);
    }
    *a = lv_max(*a, best);
    const lv freed = *a + busy;
    for (uint32_t u = 0; u < n; u++)
        lv_st(ROW(units, u) + j, lv_sel(lv_eq(which, lv_splat(u)), freed, lv_ld(ROW(units, u) + j)));
    return *a + lat;
}

#include "analysis/timing/timing_inorder.h"

/*
 * edan_memtime_access() for every lane (done[k] for a padded lane: req[k]).
 * An L1d hit that no lane forwards is done at req + hit[0] in most lanes:
 * those edan_memtime_hit_lane() names are found with vectors, and only the
 * others (a blocked L1d, the line on its way) ask the hierarchy.
 */
STEP_INLINE void mem_access(edan_timing *t, uint64_t line, int level, uint32_t bytes, const tick *req,
                            uint32_t forwarded, tick *done)
{
    const int Kp = STEP_KP(t);
    edan_memtime *mt = &t->mem;
    if (level > 0 || forwarded) {
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(done + j, lv_ld(req + j));
        edan_memtime_access(mt, line, level, bytes, req, forwarded, done);
        return;
    }
    const uint32_t s = edan_memtime_slot(line);
    const bool known = mt->if_line[s] == line + 1;
    const tick *fill = mt->if_fill + (size_t)s * mt->stride;
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv r = lv_ld(req + j), t0 = r + mt->hit[0];
        lv slow = lv_gt(lv_ld(mt->blk_end + j), r); /* r in a blocked interval, maybe */
        if (known)
            slow |= lv_gt(lv_ld(fill + j), t0); /* the line on its way */
        slow &= lv_ld(t->real + j);
        lv_st(done + j, t0);
        if (lv_any(slow)) {
            tick m[TIMING_LW];
            lv_st(m, slow);
            for (int i = 0; i < TIMING_LW; i++)
                if (m[i])
                    done[j + i] = edan_memtime_hit_lane(mt, line, j + i, req[j + i], false);
        }
    }
}

/* A vertex without a memory access has at most this many predecessors: its source registers' writers. */
#define SIMPLE_PREDS EDAN_MAX_SRC
/* The general path takes the latest of a vertex's predecessors this many at a time. */
#define PRED_CHUNK 16
_Static_assert(SIMPLE_PREDS == 3, "step_simple() takes the latest of three predecessors");

/*
 * The step of a vertex that accesses no memory and whose fetch did not miss
 * the L1i (most of them), every stage in one loop over the lanes: the rules
 * of step()'s general path, less those that only a memory access or an L1i
 * miss brings (load and store queues, store sets, the hierarchy, the memory
 * stall). The lanes share no state, so one lane's whole step after another's
 * gives what step() gives stage by stage (timing_lanes_test holds the two to
 * the same results).
 */
STEP_INLINE int step_simple(edan_timing *t, const edan_exec *rec, const uint64_t *preds, size_t n_preds, const front *c)
{
    const edan_insn *in = rec->insn;
    const int Kp = STEP_KP(t);
    const uint64_t v = t->v;
    const uint32_t rmask = t->rmask;
    /* the predecessors in the window (the others committed before v dispatched), padded with zero times */
    static const tick zero[MAXK];
    const tick *pf[SIMPLE_PREDS] = {zero, zero, zero};
    for (size_t i = 0, np = 0; i < n_preds; i++)
        if (v - preds[i] <= rmask)
            pf[np++] = ROW(t->F, preds[i] & rmask);
    t->id_count[rec->id]++;
    t->id_pc[rec->id] = in->pc;
    const bool div = in->cls == EDAN_CLASS_DIV || in->cls == EDAN_CLASS_FDIV || in->cls == EDAN_CLASS_FSQRT;
    const int fpdiv = in->cls != EDAN_CLASS_DIV;
    const uint32_t units = fpdiv ? t->m.fp_div_units : t->m.int_div_units;
    const tick lat = t->lat[in->cls < EDAN_CLASS_COUNT ? in->cls : 0], busy = div ? t->busy[in->cls] : 0;
    tick *Fv = ROW(t->F, v & rmask), *Cv = ROW(t->C, t->u & rmask);
    tick *own = t->measuring ? ROW(t->id_time, rec->id) : t->junk, *dunits = t->div_units[fpdiv];
    t->stores[v & rmask] = 0;
    t->st_addr[v & rmask] = rec->addr;
    t->win_insn[v & rmask] = in;
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv d = lane_dispatch(t, j, lane_fetch(t, j, c), c);
        /* start and finish */
        lv a = lv_max(lv_max(d, lv_ld(pf[0] + j)), lv_max(lv_ld(pf[1] + j), lv_ld(pf[2] + j)));
        const lv fin = start_finish(t, j, &a, div, dunits, units, lat, busy);
        DUMP_IF(t, j, {
            dump_bound(t, DUMP_ISSUE, WHY_DISPATCH, d[0], 0);
            edan_timing_dump_preds(t, preds, n_preds);
            dump_bound(t, DUMP_ISSUE, div ? WHY_DIVIDER : WHY_INORDER, a[0], 0);
            edan_timing_dump_stage(t, DUMP_ISSUE, a[0]);
        });
        iq_enter(t, j, d, a); /* it leaves the issue queue when it starts */
        /* commit */
        const lv last = lv_ld(t->last_commit + j);
        const lv cm = slot_take(&t->commit, j, lv_max(fin, last), t->m.commit_width, t->cyc);
        lv_st(own + j, lv_ld(own + j) + (cm - last));
        lv_st(t->last_commit + j, cm);
        lv_st(Cv + j, cm);
        inorder_commit(t, v, j, cm);
        lv_st(Fv + j, fin);
    }
    return step_end(t, rec, c->row);
}

#include "analysis/timing/timing_uops.h"

#include "analysis/timing/timing_ahead.h"

/*
 * After a mispredicted conditional branch (t->prev): the wrong path's L1i
 * miss (wrong_path_fetch()), sent in the cycle after the branch's fetch (the
 * fetch stage is still at it) as a fetch's miss is: its line is there at
 * wp_fill, and the first fetch of it on the right path waits for that.
 */
static __attribute__((noinline)) TIMING_TARGET void wrong_path(edan_timing *t, uint64_t pc)
{
    int level = 0;
    uint32_t bytes = 0;
    const uint64_t line = wrong_path_fetch(t, &t->prev, pc, &level, &bytes);
    if (!line)
        return;
    _Alignas(32) lanes t0;
    for (int k = 0; k < t->Kp; k++)
        t0[k] = t->fetch.at[k] + t->cyc + t->l1i_hit + t->mem.hit[1];
    edan_memtime_read(&t->mem, line - 1, 1, level, bytes, t0, t->wp_fill);
    t->wp_line = line;
    t->wp_ram = level == t->nlev;
}

/* One vertex, whose true predecessors the tracker has listed (ascending). */
STEP_INLINE int step(edan_timing *t, const edan_exec *rec, const uint64_t *preds, size_t n_preds)
{
    const edan_insn *in = rec->insn;
    const int Kp = STEP_KP(t);
    const uint64_t v = t->v;
    _Alignas(32) lanes a, b, dsp; /* dsp: the dispatch times */

    if (id_room(t, rec->id))
        return -1;
    t->aux_id = rec->id; /* what it brings from memory is its own (aux_count()) */
    if (t->smp.on && t->measuring)
        smp_touch(t, rec->id);
    /* what the step reads of the static instruction: its row */
    const timing_fdesc *row = fdesc_of(t, rec);
    const bool accessed = row->access && !(rec->flags & EDAN_EXEC_NO_ACCESS);
    const bool is_load = accessed && !row->store;
    const bool is_store = accessed && row->store;
    /* ---- fetch ---- */
    const bool redirect = mispredicted(t, in->pc);
    int ilevel = 0;
    uint32_t ibytes = 0;
    if (__builtin_expect(redirect, 0)) {
        wrong_path(t, in->pc);
        if (!INORDER(t))
            wrong_path_loads(t, in->pc);
    }
    const bool imiss = fetch_line(t, row->iline, in, &ilevel, &ibytes);
    /* the line a wrong-path fetch sent for: fetch waits for it (ilevel -2, fetch_dispatch()), once */
    bool iwait = false;
    /* wp_line is nonzero only from a wrong-path fill to the right path's first fetch of its line: rare */
    if (__builtin_expect(t->wp_line != 0, 0) && t->wp_line == (in->pc >> t->line_shift) + 1 && in->pc) {
        t->wp_line = 0; /* fetched (a miss of its own here means the line went meanwhile) */
        iwait = !imiss;
        if (iwait)
            ilevel = -2;
    }
    /* the record before went elsewhere than its next instruction: a taken branch or a jump */
    const bool after_taken = in->pc && t->prev.next && in->pc != t->prev.next;
    const uint64_t block = row->fblock;
    const bool new_block = block && t->fblock && block != t->fblock;
    if (block)
        t->fblock = block;
    front c = {
        .row = row,
        .taken_rule = after_taken && t->m.fetch_taken_limit,
        .new_block = new_block,
        .redirect = redirect,
        .prevF = ROW(t->F, (v - 1) & t->rmask),
        .rob = rob_wait(t, t->u),
        .lq = is_load && t->n_loads >= t->m.lq_entries ? ROW(t->lq, t->lq_at) : NULL,
        .sq = is_store && t->n_stores >= t->m.sq_entries ? ROW(t->sq, t->sq_at) : NULL,
        .serial = t->serial_next ? t->serial_at : NULL,
    };
    const int serial = row->serial;
    t->serial_next = false;
    if (!accessed && !imiss && !iwait && n_preds <= SIMPLE_PREDS && !serial)
        return step_simple(t, rec, preds, n_preds, &c);
    c.fetch_ram = (imiss && ilevel == t->nlev) || (iwait && t->wp_ram); /* never on the simple path: no fetch miss */
    if (in->uops && accessed && !serial)
        return step_uops(t, rec, preds, n_preds, &c, imiss || iwait ? ilevel : -1, ibytes);
    fetch_dispatch(t, &c, in->pc >> t->line_shift, imiss || iwait ? ilevel : -1, ibytes, a, dsp, b);
    const bool sq_mem = c.sq && t->sq_ram[t->sq_at]; /* the lanes where the full store queue held it: sq_held() */
    if (__builtin_expect(sq_mem, 0))
        sq_held(t, c.sq, a);
    for (int j = 0; j < Kp; j += TIMING_LW) {
        DUMP_IF(
            t, j, if (imiss || iwait) {
                dump_bound(t, DUMP_FETCH, WHY_L1I, a[j], 0);
                edan_timing_dump_stage(t, DUMP_FETCH, a[j]);
            });
        lv_st(a + j, lv_ld(dsp + j));
    }

    /* ---- start: a[k] becomes S(v) ---- */
    /* b[k]: a load's stores (its memory predecessors), which it cannot wait for before they execute */
    const bool split = t->m.store_set_bytes && is_load;
    bool any_b = false; /* b[k] holds something: the lanes' b are 0 otherwise */
    uint64_t src = 0;   /* a load's one store in the window, + 1 (0: none; UINT64_MAX: several) */
    /* the predecessors' finish rows, to a (registers, and bytes when not split) or b; in chunks of PRED_CHUNK */
    const tick *pa[PRED_CHUNK], *pb[PRED_CHUNK];
    size_t na = 0, nb = 0;
    for (int j = 0; j < Kp; j += TIMING_LW)
        lv_st(b + j, lv_splat(0));
    for (size_t i = 0; i <= n_preds; i++) {
        if (i == n_preds || na == PRED_CHUNK || nb == PRED_CHUNK) {
            for (int j = 0; j < Kp; j += TIMING_LW) {
                lv x = lv_ld(a + j), y = lv_ld(b + j);
                for (size_t p = 0; p < na; p++)
                    x = lv_max(x, lv_ld(pa[p] + j));
                for (size_t p = 0; p < nb; p++)
                    y = lv_max(y, lv_ld(pb[p] + j));
                lv_st(a + j, x);
                lv_st(b + j, y);
            }
            any_b |= nb > 0;
            na = nb = 0;
            if (i == n_preds)
                break;
        }
        const uint64_t p = preds[i];
        if (v - p > t->rmask)
            continue; /* committed before v dispatched */
        const bool from_store = is_load && t->stores[p & t->rmask];
        if (from_store)
            src = src ? UINT64_MAX : p + 1;
        if (split && from_store)
            pb[nb++] = ROW(t->F, p & t->rmask);
        else
            pa[na++] = ROW(t->F, p & t->rmask);
    }
    for (int j = 0; j < Kp; j += TIMING_LW)
        DUMP_IF(t, j, {
            dump_bound(t, DUMP_ISSUE, WHY_DISPATCH, dsp[j], 0);
            edan_timing_dump_preds(t, preds, n_preds);
        });
    if (t->m.store_set_bytes && accessed)
        store_sets(t, rec, is_load, a);
    if (any_b)
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(a + j, lv_max(lv_ld(a + j), lv_ld(b + j)));
    for (int j = 0; j < Kp; j += TIMING_LW)
        DUMP_IF(t, j, dump_bound(t, DUMP_ISSUE, WHY_STORESET, a[j], 0));
    if (serial & SERIAL_NONSPEC) /* it executes when the vertex before has committed, a cycle for the signal */
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(a + j, lv_max(lv_ld(a + j), lv_ld(t->last_commit + j) + t->cyc));
    for (int j = 0; j < Kp; j += TIMING_LW)
        DUMP_IF(t, j, dump_bound(t, DUMP_ISSUE, WHY_SERIAL, a[j], 0));

    const bool div = in->cls == EDAN_CLASS_DIV || in->cls == EDAN_CLASS_FDIV || in->cls == EDAN_CLASS_FSQRT;
    if (INORDER(t) && !div) /* in program order (a divide: with its divider, below) */
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(a + j, inorder_start(t, j, lv_ld(a + j)));
    for (int j = 0; j < Kp; j += TIMING_LW)
        DUMP_IF(t, j, dump_bound(t, DUMP_ISSUE, WHY_INORDER, a[j], 0));
    if (INORDER(t) && accessed) /* its request: after its register predecessors' commits */
        inorder_access(t, preds, n_preds, is_load, a);

    /* ---- execute: b[k] becomes F(v) ---- */
    edan_cache_result r = {false, false, 0, 0};
    bool from_ram = false;
    if (is_load) {
        r = edan_cache_access(&t->dc, rec->addr, in->mem_size, false);
        const tick td = t->cyc + tlb_time(t, rec->addr); /* the writeback's cycle, and the TLB's time */
        if (in->mem == EDAN_MEM_AMO) {
            edan_cache_result w = edan_cache_access(&t->dc, rec->addr, in->mem_size, true);
            r.ram_bytes += w.ram_bytes;
        }
        count_access(t, &r);
        t->n.loads++;
        /*
         * Store-to-load forwarding: a load whose bytes all come from one
         * store still waiting in the store queue (not yet sent to the L1d,
         * which it is after it commits) takes them from there, in an L1
         * hit's time: it does not wait for a line that the store's
         * write-allocate miss will bring. Once the store is sent, the load
         * reads the L1d, and waits for that line as any access does.
         */
        const uint32_t forwarded = in->mem != EDAN_MEM_AMO ? forwarded_lanes(t, rec, src, a) : 0;
        /*
         * A load forwarded in the lane that decides the prefetchers' training
         * (the highest latency's, memtime.h) never reaches the L1d, so gem5
         * notifies no prefetcher of it: it neither trains nor uses a
         * prefetched line. But a load that ran before the store it takes its
         * bytes from (a violation there: store_sets(), t->ss_early) reached
         * the L1d in its squashed first run, which trains as an access of
         * its own does (prefetch_train_pc()); its replay takes the bytes.
         */
        uint32_t npf = 0;
        if (__builtin_expect(t->pf.any, 0)) {
            if (!(forwarded >> t->mem.pf.lane & 1))
                npf = prefetch_train_first(t, in, rec, &r, dsp, a);
            else if (t->ss_early)
                npf = prefetch_train(t, in, rec->addr, &r, a);
        }
        const uint64_t line = rec->addr >> t->line_shift;
        _Alignas(32) lanes req;
        bool early = false; /* the line's miss is sent earlier than a */
        if (r.level > 0 && !forwarded && !INORDER(t) && in->mem == EDAN_MEM_LOAD && !in->isa) {
            early = miss_ahead(t, dsp, a, req);
            if (__builtin_expect(t->wpl_any, 0))
                early |= wrong_path_found(t, line, req);
        }
        if (early) {
            /* a younger load's or a wrong path's, earlier: v finds the line on its way (a target) or there */
            mem_access(t, line, (int)r.level, r.ram_bytes, req, 0, b);
            for (int j = 0; j < Kp; j += TIMING_LW)
                lv_st(b + j, lv_max(lv_ld(b + j), lv_ld(a + j) + t->mem.hit[0]));
        } else {
            mem_access(t, line, (int)r.level, r.ram_bytes, a, forwarded, b);
        }
        for (int j = 0; j < Kp; j += TIMING_LW)
            DUMP_IF(t, j, edan_timing_dump_mem(t, (int)r.level, a[j], b[j], (forwarded >> j) & 1u));
        if (__builtin_expect(npf != 0, 0))
            for (uint32_t i = 0; i < npf; i++) /* after the access that caused them */
                edan_memtime_prefetch(&t->mem, &t->pf.issue[i], a);
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(b + j, lv_ld(b + j) + td); /* the loaded value written back, for its users */
        from_ram = (int)r.level == t->nlev;
    } else if (is_store) {
        r = edan_cache_access(&t->dc, rec->addr, in->mem_size, true);
        count_access(t, &r);
        t->n.stores++;
        const tick td = t->cyc + tlb_time(t, rec->addr);
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(b + j,
                  lv_ld(a + j) + td); /* address (translated) and data into the store queue; written after commit */
    } else if (div) {
        /* it waits for a free divider and holds it for its class's issue interval */
        const int fp = in->cls != EDAN_CLASS_DIV;
        const uint32_t n = fp ? t->m.fp_div_units : t->m.int_div_units;
        for (int j = 0; j < Kp; j += TIMING_LW) {
            lv x = lv_ld(a + j);
            lv_st(b + j, start_finish(t, j, &x, true, t->div_units[fp], n, t->lat[in->cls], t->busy[in->cls]));
            lv_st(a + j, x);
        }
    } else {
        const tick lat = t->lat[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(b + j, lv_ld(a + j) + lat);
    }

    for (int j = 0; j < Kp; j += TIMING_LW)
        DUMP_IF(t, j, {
            dump_bound(t, DUMP_ISSUE, WHY_DIVIDER, a[j], 0);
            edan_timing_dump_stage(t, DUMP_ISSUE, a[j]);
        });

    /* ---- commit ---- */
    t->id_count[rec->id]++;
    t->id_pc[rec->id] = in->pc;
    tick *Fv = ROW(t->F, v & t->rmask), *Cv = ROW(t->C, t->u & t->rmask);
    t->stores[v & t->rmask] = is_store ? in->mem_size : 0;
    t->st_addr[v & t->rmask] = rec->addr;
    t->win_insn[v & t->rmask] = in;
    tick *own = t->measuring ? ROW(t->id_time, rec->id) : t->junk;
    tick *own_stall = t->measuring ? ROW(t->id_stall, rec->id) : t->junk_stall;
    tick *stall = t->measuring ? t->stall : t->junk_stall;
    tick *lqrow = ROW(t->lq, t->lq_at);            /* the load queue holds a load's commit */
    const bool mem_wait = from_ram || c.fetch_ram; /* its data or its code line came from memory (add_stall()) */
    for (int j = 0; j < Kp; j += TIMING_LW) {
        const lv bj = lv_ld(b + j);
        /* a load or store leaves the issue queue when it completes, anything else when it issues */
        iq_enter(t, j, lv_ld(dsp + j), accessed ? bj : lv_ld(a + j));
        const lv last = lv_ld(t->last_commit + j);
        const lv cm = slot_take(&t->commit, j, lv_max(bj, last), t->m.commit_width, t->cyc);
        lv_st(own + j, lv_ld(own + j) + (cm - last));
        add_stall(t, j, stall, own_stall, cm - last, mem_wait, sq_mem);
        lv_st(t->last_commit + j, cm);
        lv_st(Cv + j, cm);
        inorder_commit(t, v, j, cm);
        lv_st(Fv + j, bj);
        if (is_load)
            lv_st(lqrow + j, cm);
        if (is_store) /* its write, in order after commit */
            lv_st(t->drain + j, lv_max(cm, lv_ld(t->drain + j)));
    }
    if (is_load) {
        t->lq_at = t->lq_at + 1 == t->m.lq_entries ? 0 : t->lq_at + 1;
        t->n_loads++;
    }
    if (is_store) {
        /* its write trains the prefetchers, at its time (drain): its prefetches go with it */
        const uint32_t npf_store = __builtin_expect(t->pf.any, 0) ? prefetch_train(t, in, rec->addr, &r, t->drain) : 0;
        /* the write, in order after commit (drain); its queue entry is free when it is done */
        mem_access(t, rec->addr >> t->line_shift, (int)r.level, r.ram_bytes, t->drain, 0, a);
        for (int j = 0; j < Kp; j += TIMING_LW)
            DUMP_IF(t, j, edan_timing_dump_mem(t, (int)r.level, t->drain[j], a[j], false));
        if (__builtin_expect(npf_store != 0, 0))
            for (uint32_t i = 0; i < npf_store; i++) /* the write trained them: they go when it does */
                edan_memtime_prefetch(&t->mem, &t->pf.issue[i], t->drain);
        for (int j = 0; j < Kp; j += TIMING_LW) {
            lv_st(ROW(t->st_write, v & t->rmask) + j, lv_ld(t->drain + j));
            lv_st(ROW(t->sq, t->sq_at) + j, lv_ld(a + j));
        }
        t->sq_ram[t->sq_at] = (int)r.level == t->nlev;
        t->sq_at = t->sq_at + 1 == t->m.sq_entries ? 0 : t->sq_at + 1;
        t->n_stores++;
    }
    if (serial) { /* the next vertex dispatches serialize_cycles after this one commits */
        t->n.serializing++;
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(t->serial_at + j, lv_ld(t->last_commit + j) + t->serialize);
        t->serial_next = true;
    }
    return step_end(t, rec, row);
}

/* ===================================================================== */
/* A batch, and the builds                                                */
/* ===================================================================== */

/*
 * Times past 2^62 ticks: an error, never a wrapped time. A machine within the
 * file's bounds adds at most about 2^41 ticks a vertex, so checking once per
 * PRED_BATCH records keeps every time below 2^63 (timing_vec.h compares
 * them signed).
 */
#define TICK_LIMIT (1ull << 62)

STEP_INLINE void consume_body(edan_timing *t, const edan_exec *recs, size_t n)
{
    t->chunk_no++; /* miss_ahead()'s view of the chunk is made anew */
    /* the chunk: the step's and functional warming's (wrong_path_bisect()) */
    t->part = recs;
    t->part_n = n;
    for (size_t i = 0; i < n && !t->err.set;) {
        if (recs[i].flags & EDAN_EXEC_WARM) { /* outside the region: warm state only (warm_run()) */
            const size_t run = edan_exec_run(recs + i, n - i);
            if (warm_run(t, recs + i, run))
                return;
            i += run;
            continue;
        }
        /* the tracker over a part of the batch (its short paths), then the model over that part, the region's */
        size_t limit = n - i < PRED_BATCH ? n - i : PRED_BATCH;
        if (t->smp.on) { /* sampled: no further than the phase's end; a skip only warms */
            if (!t->smp.left)
                edan_timing_sample_next(t);
            if (t->smp.phase == SMP_SKIP) {
                /* up to the phase's end or the next warm record, found as the skip goes (recs[i] is measured) */
                const long j = skip_run(t, recs + i, n - i < t->smp.left ? n - i : (size_t)t->smp.left);
                if (j < 0)
                    return;
                t->smp.left -= (uint64_t)j;
                i += (size_t)j;
                continue;
            }
            limit = limit < t->smp.left ? limit : (size_t)t->smp.left;
        }
        const size_t want = edan_exec_run(recs + i, limit);
        const size_t done =
            edan_deps_steps_preds(t->deps, recs + i, want, t->preds, sizeof t->preds / sizeof *t->preds, t->off);
        for (size_t j = 0; j < done; j++) {
            t->part_j = i + j;
            if (step(t, &recs[i + j], t->preds + t->off[j], t->off[j + 1] - t->off[j]))
                return;
        }
        if (done < want && edan_deps_error(t->deps)->set) {
            edan_error_set(&t->err, "%s", edan_deps_error(t->deps)->msg);
            return;
        }
        if (!done) { /* cannot be: a record's list always fits an empty buffer */
            edan_error_set(&t->err, "dependency tracker: no room for a predecessor list");
            return;
        }
        i += done;
        if (t->smp.on) {
            t->smp.left -= done;
            t->smp.detailed += done;
        }
        for (int k = 0; k < t->K; k++)
            if (t->last_commit[k] > TICK_LIMIT || t->drain[k] > TICK_LIMIT)
                edan_error_set(&t->err, "the predicted time at %g ns exceeds 2^58 cycles: not supported", t->lat_ns[k]);
    }
}

#endif
