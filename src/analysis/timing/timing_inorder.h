/*
 * timing_inorder.h - the in-order core's rule in the timing model's step
 * (timing_lanes.h, timing_uops.h): with [core] model = inorder (gem5's
 * MinorCPU, docs/model.md) instructions start in program order, issue_width
 * a cycle. A vertex's start S(v) is then no earlier than S(v - 1): one that
 * waits for an operand holds back every later one, even one that is ready.
 * A load starts (its request goes out) when its address is ready and does
 * not hold back what follows while its data is on its way; its first user
 * waits for the data (its predecessor's F), and with it everything after.
 * So two independent misses overlap unless a use of the first lies between
 * them. Out of order (o3) none of this runs: the calls are behind
 * t->m.core_model, the same in every record.
 *
 * Included by timing_lanes.h after slot_take(); every name is static, a copy
 * per width as there.
 */
#ifndef EDAN_ANALYSIS_TIMING_INORDER_H
#define EDAN_ANALYSIS_TIMING_INORDER_H

/* Whether the core issues in program order. */
#define INORDER(t) ((t)->m.core_model == EDAN_CORE_INORDER)

/*
 * Lanes j ..'s start of a vertex ready at a on an in-order core: no earlier
 * than the vertex before started, and in the next cycle when this one has
 * started issue_width already (the issue stage is an in-order stage, as
 * fetch, dispatch and commit are).
 */
STEP_INLINE lv inorder_start(edan_timing *t, int j, lv a)
{
    return slot_take(&t->issue, j, a, t->m.issue_width, t->cyc);
}

/*
 * A start that a divider pushed past the issue slot it took (divide()): the
 * vertex starts then, and every later one no earlier.
 */
STEP_INLINE void inorder_delay(edan_timing *t, int j, lv a)
{
    const lv cur = lv_ld(t->issue.at + j), later = lv_gt(a, cur);
    lv_st(t->issue.taken + j, lv_sel(later, lv_splat(1), lv_ld(t->issue.taken + j)));
    lv_st(t->issue.at + j, lv_sel(later, a, cur));
}

/* The start of a divide on an in-order core: in order first, then a free divider; the finish. */
STEP_INLINE lv inorder_divide(edan_timing *t, tick *units, uint32_t n, int j, lv *a, tick lat, tick busy)
{
    const int Kp = STEP_KP(t);
    *a = inorder_start(t, j, *a);
    const lv fin = divide(units, n, Kp, j, a, lat, busy);
    inorder_delay(t, j, *a);
    return fin;
}

/*
 * Lanes j ..'s start (*a: when the vertex is ready, then when it starts) and
 * finish of a vertex of latency lat, on a divider of units (n of them, busy
 * for busy each) when div: in program order on an in-order core.
 */
STEP_INLINE lv start_finish(edan_timing *t, int j, lv *a, bool div, tick *units, uint32_t n, tick lat, tick busy)
{
    if (INORDER(t)) {
        if (div)
            return inorder_divide(t, units, n, j, a, lat, busy);
        *a = inorder_start(t, j, *a);
    }
    return div ? divide(units, n, STEP_KP(t), j, a, lat, busy) : *a + lat;
}

/*
 * An in-order core's memory access (MinorCPU's): the instruction issues in
 * order as any other (its operands by its predecessors' F, above), but its
 * request goes to memory only once every register predecessor has
 * committed, in the same cycle at the earliest (gem5's Execute sends a
 * memory reference to the LSQ from its commit loop once the head of the
 * in-flight queue is past the last writer of its sources, instToWaitFor).
 * Commit is in order: an access whose address was computed after an older
 * miss waits for that miss's data. a: the request's time, lanes 0 .., made
 * no earlier. A load's memory predecessors (stores) are not registers:
 * forwarding and the store sets take them. The scalar step (timing_lanes.h)
 * calls it; an x86 instruction split into micro-operations (timing_uops.h)
 * applies the same rule to its load's address registers (uop_ready()), its
 * store micro-operation keeping the issue rule (its data is its own
 * operation's, which has not committed).
 */
STEP_INLINE void inorder_access(edan_timing *t, const uint64_t *preds, size_t n_preds, bool is_load, tick *a)
{
    const int Kp = STEP_KP(t);
    for (size_t i = 0; i < n_preds; i++) {
        const uint64_t p = preds[i];
        if (t->v - p > t->rmask || (is_load && t->stores[p & t->rmask]))
            continue; /* committed before v dispatched; a store's bytes */
        const tick *c = ROW(t->Cx, p & t->rmask);
        for (int j = 0; j < Kp; j += TIMING_LW)
            lv_st(a + j, lv_max(lv_ld(a + j), lv_ld(c + j)));
    }
}

/* Vertex v's commit, cm, for inorder_access(): lanes j .. */
STEP_INLINE void inorder_commit(edan_timing *t, uint64_t v, int j, lv cm)
{
    const int Kp = STEP_KP(t);
    if (INORDER(t))
        lv_st(ROW(t->Cx, v & t->rmask) + j, cm);
}

#endif
