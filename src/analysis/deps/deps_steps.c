/*
 * deps_steps.c - edan_deps_steps_preds(): the dependency tracker over a
 * batch, keeping only each vertex's true predecessors (the timing model's
 * form), with short paths for the usual vertices; and the decoded form of
 * a static instruction that the short paths of both batch loops (this one
 * and deps_links.c's) use. Same choices and totals as ready() and commit()
 * in deps.c; the critical-path test holds them to each other on long random
 * traces.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/deps/deps_internal.h"

deps_op *deps_op_decode(edan_deps *t, const edan_exec *rec)
{
    if (rec->id >= t->n_ops) {
        size_t cap = t->n_ops ? t->n_ops : 1024;
        while (cap <= rec->id)
            cap *= 2;
        deps_op *n = realloc(t->ops, cap * sizeof *n);
        if (!n) {
            edan_error_set(&t->err, "out of memory for the dependency tracker's instructions");
            return NULL;
        }
        memset(n + t->n_ops, 0, (cap - t->n_ops) * sizeof *n);
        t->ops = n;
        t->n_ops = cap;
    }
    const edan_insn *in = rec->insn;
    deps_op *op = &t->ops[rec->id];
    memset(op, 0, sizeof *op);
    op->insn = in;
    const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
    for (int i = 0; i < n_src; i++)
        op->src[i] = tracked_reg(in->src[i]) ? in->src[i] : 0;
    op->dst = in->n_dst && tracked_reg(in->dst) ? in->dst : SINK_REG;
    op->cost = t->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
    const bool units = in->mem_size == EDAN_SHADOW_UNIT || in->mem_size == 2 * EDAN_SHADOW_UNIT;
    op->kind = edan_insn_wide(in)                   ? DEPS_OP_OTHER /* registers past src[] and dst */
               : in->mem == EDAN_MEM_NONE           ? DEPS_OP_NONE
               : units && in->mem == EDAN_MEM_LOAD  ? DEPS_OP_LOAD
               : units && in->mem == EDAN_MEM_STORE ? DEPS_OP_STORE
                                                    : DEPS_OP_OTHER;
    op->units = op->kind == DEPS_OP_LOAD || op->kind == DEPS_OP_STORE ? in->mem_size >> EDAN_SHADOW_UNIT_BITS : 0;
    for (int i = 0; i < EDAN_MAX_SRC; i++)
        op->at[i] = (uint16_t)(op->src[i] * sizeof(deps_write));
    op->at[EDAN_MAX_SRC] = (uint16_t)(op->dst * sizeof(deps_write));
    op->need = (uint16_t)(EDAN_MAX_SRC + in->n_more_src + in->mem_size); /* each a byte: at most 513 */
    return op;
}

/* Vertex by - 1 into a list of predecessors kept ascending, each once (by: index + 1, 0 = none). */
static inline void pred_add(uint64_t *list, uint32_t *n, uint64_t by)
{
    if (!by)
        return;
    const uint64_t v = by - 1;
    uint32_t i = *n;
    while (i > 0 && list[i - 1] > v)
        i--;
    if (i > 0 && list[i - 1] == v)
        return;
    for (uint32_t j = *n; j > i; j--)
        list[j] = list[j - 1];
    list[i] = v;
    (*n)++;
}

/*
 * The writers of op's (up to three) source registers as a list of
 * predecessors of its own: pred_regs() into an empty list, without its
 * loops (sorted with min and max, the same kept once).
 */
static inline void pred_regs_only(const edan_deps *t, const deps_op *op, uint64_t *list, uint32_t *n)
{
    const uint64_t a = reg_at(t->reg_w, op->at[0])->by, b = reg_at(t->reg_w, op->at[1])->by,
                   c = reg_at(t->reg_w, op->at[2])->by;
    const uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
    const uint64_t x = lo < c ? lo : c, y = lo < c ? c : lo; /* x the least */
    const uint64_t m = y < hi ? y : hi, z = y < hi ? hi : y; /* x <= m <= z */
    uint32_t k = 0;
    list[k] = x - 1; /* by is index + 1; 0 is none */
    k += x != 0;
    list[k] = m - 1;
    k += m != x; /* m > x >= 0 then: a writer */
    list[k] = z - 1;
    k += z != m;
    *n = k;
}
_Static_assert(EDAN_MAX_SRC == 3, "pred_regs_only() takes three source registers");

/* The writers of op's source registers into a list of predecessors. */
static inline void pred_regs(const edan_deps *t, const deps_op *op, uint64_t *list, uint32_t *n)
{
    for (int i = 0; i < EDAN_MAX_SRC; i++)
        pred_add(list, n, t->reg_w[op->src[i]].by);
}

/*
 * A load or store of whole shadow units (4 or 8 aligned bytes, nearly every
 * access) on the short path of edan_deps_steps_preds(): ready() and commit()
 * for it without their general loops, its true predecessors listed at preds
 * (*n_preds of them). Returns 1 done, 0 not this path's case (nothing
 * changed: a unit it loads from is split), -1 failed (err set). lean
 * (EDAN_DEPS_ONLY_PREDS): the list and the last writers alone.
 */
static inline __attribute__((always_inline)) int whole_units(edan_deps *t, const edan_exec *r, const deps_op *op,
                                                             uint64_t *preds, uint32_t *n_preds, bool lean)
{
    const edan_insn *in = r->insn;
    const uint64_t a = r->addr;
    const unsigned units = op->units; /* op->kind is DEPS_OP_LOAD or _STORE (the caller's test) */
    const bool rd = op->kind == DEPS_OP_LOAD;
    if (lean) { /* the registers' writers sorted at once, then the units' (the same list in either order) */
        pred_regs_only(t, op, preds, n_preds);
        for (unsigned k = 0; rd && k < units; k++) {
            char *u = unit_at(t, a + ((uint64_t)k << EDAN_SHADOW_UNIT_BITS), false);
            if (!u)
                return -1;
            if (unit_write(u)->split)
                return 0; /* the list so far is dropped by the caller */
            pred_add(preds, n_preds, unit_write(u)->by);
        }
        const uint64_t by = t->tot.vertices + 1;
        t->reg_w[op->dst].by = by;
        for (unsigned k = 0; !rd && k < units; k++) {
            char *u = unit_at(t, a + ((uint64_t)k << EDAN_SHADOW_UNIT_BITS), true);
            if (!u)
                return -1;
            unsplit(t, u);
            unit_write(u)->by = by;
        }
        t->tot.vertices++;
        return 1;
    }
    pick p;
    deps_pick_regs(t->reg_w, op, &p);
    if (rd) {
        for (unsigned k = 0; k < units; k++) {
            char *u = unit_at(t, a + ((uint64_t)k << EDAN_SHADOW_UNIT_BITS), false);
            if (!u)
                return -1;
            const deps_write *w = unit_write(u);
            if (w->split)
                return 0; /* the list so far is dropped by the caller */
            edan_rule_pick_write(&p, w->F, w->md, w->by);
            pred_add(preds, n_preds, w->by);
        }
    }
    pred_regs(t, op, preds, n_preds);
    const edan_access_class access = edan_cache_classify(&t->cache, t->has_cache, a, in->mem_size, rd, !rd);
    const bool mem = access.rd_ram || access.wr_ram;
    const uint64_t v = t->tot.vertices, md = edan_rule_depth(p.md, mem);
    const uint64_t cost =
        edan_rule_cost(mem, t->lane.cost.alpha, t->lane.cost.cls[in->cls < EDAN_CLASS_COUNT ? in->cls : 0]);
    if (md > UINT32_MAX) {
        edan_error_set(&t->err, "memory depth exceeds %u: not supported", UINT32_MAX);
        return -1;
    }
    if (edan_rule_finish(p.F, cost) < p.F) {
        edan_error_set(&t->err, "dependency tracker: the finish time of vertex %" PRIu64 " overflows", v);
        return -1;
    }
    const uint64_t F = edan_rule_finish(p.F, cost);
    put_write(&t->reg_w[op->dst], F, v + 1, (uint32_t)md);
    for (unsigned k = 0; !rd && k < units; k++) {
        char *u = unit_at(t, a + ((uint64_t)k << EDAN_SHADOW_UNIT_BITS), true);
        if (!u)
            return -1;
        unsplit(t, u);
        put_write(unit_write(u), F, v + 1, (uint32_t)md);
    }
    deps_count(&t->tot, v, F, md, mem, cost);
    return 1;
}

/*
 * The loop of edan_deps_steps_preds(): predecessors into preds (room for
 * cap, lists by off); lean: the lists alone (EDAN_DEPS_ONLY_PREDS). Inlined
 * into it twice, so each has only its own work.
 */
static inline __attribute__((always_inline)) size_t steps(edan_deps *t, const edan_exec *recs, size_t n,
                                                          uint64_t *preds, size_t cap, uint32_t *off, bool lean)
{
    if (t->pending)
        edan_error_set(&t->err, "dependency tracker: ready() twice without commit()");
    if (t->err.set)
        return 0;
    /*
     * When the tracker keeps no reads and lists no predecessors but the
     * true ones it is asked for here, two short paths: instructions without
     * memory access (about two thirds of a trace: up to three registers in,
     * one out) and loads and stores of whole aligned units (whole_units()).
     * Both make ready()'s choice of predecessors (the earliest on ties,
     * whatever the order looked at) and commit()'s totals; every other
     * vertex takes edan_deps_step().
     */
    const bool short_ok = !t->false_deps && !t->all_preds;
    const uint64_t *cls_cost = t->lane.cost.cls;
    edan_deps_totals *tot = &t->tot;
    uint32_t used = 0;
    off[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        const edan_insn *in = r->insn;
        uint32_t np = 0;
        const deps_op *op = r->id < t->n_ops && t->ops[r->id].insn == in ? &t->ops[r->id] : NULL;
        /*
         * The commonest vertices, their instruction decoded before and not read again: no memory access, or a
         * load or store of whole aligned units (the tests below, op->kind holding the instruction's part)
         */
        if (lean && short_ok && op && cap - used >= op->need) {
            if (op->kind == DEPS_OP_NONE) {
                pred_regs_only(t, op, preds + used, &np);
                reg_at(t->reg_w, op->at[EDAN_MAX_SRC])->by = ++tot->vertices; /* its index + 1 */
                off[i + 1] = used += np;
                continue;
            }
            const uint64_t size = (uint64_t)op->units << EDAN_SHADOW_UNIT_BITS; /* mem_size, 4 or 8 */
            if (op->kind != DEPS_OP_OTHER && !(r->flags & EDAN_EXEC_NO_ACCESS) && !(r->addr & (size - 1))) {
                const int done = whole_units(t, r, op, preds + used, &np, true);
                if (done < 0)
                    return i;
                if (done) {
                    off[i + 1] = used += np;
                    continue;
                }
                np = 0;
                goto general; /* a unit it loads from is split */
            }
        }
        if (cap - used < (size_t)EDAN_MAX_SRC + in->n_more_src + in->mem_size)
            return i; /* no room for its list */
        if (short_ok && !edan_insn_wide(in)) {
            if (!op && !(op = deps_op_decode(t, r)))
                return i;
            if (in->mem == EDAN_MEM_NONE && lean) {
                pred_regs_only(t, op, preds + used, &np);
                t->reg_w[op->dst].by = ++tot->vertices; /* its index + 1 */
                off[i + 1] = used += np;
                continue;
            }
            if (in->mem == EDAN_MEM_NONE) {
                pick p;
                deps_pick_regs(t->reg_w, op, &p);
                const uint64_t v = tot->vertices, cost = cls_cost[in->cls < EDAN_CLASS_COUNT ? in->cls : 0];
                if (edan_rule_finish(p.F, cost) < p.F) {
                    edan_error_set(&t->err, "dependency tracker: the finish time of vertex %" PRIu64 " overflows", v);
                    return i;
                }
                pred_regs_only(t, op, preds + used, &np);
                const uint64_t F = edan_rule_finish(p.F, cost);
                put_write(&t->reg_w[op->dst], F, v + 1, (uint32_t)edan_rule_depth(p.md, 0));
                if (F > tot->Tinf || v == 0) {
                    tot->Tinf = F;
                    tot->tinf_v = v;
                }
                tot->T1 += cost;
                tot->vertices++;
                off[i + 1] = used += np;
                continue;
            }
            const uint64_t size = in->mem_size;
            if ((in->mem == EDAN_MEM_LOAD || in->mem == EDAN_MEM_STORE) && !(r->flags & EDAN_EXEC_NO_ACCESS) &&
                size >= EDAN_SHADOW_UNIT && size <= 2 * EDAN_SHADOW_UNIT && size % EDAN_SHADOW_UNIT == 0 &&
                (r->addr & (size - 1)) == 0) {
                const int done = whole_units(t, r, op, preds + used, &np, lean);
                if (done < 0)
                    return i;
                if (done) {
                    off[i + 1] = used += np;
                    continue;
                }
                np = 0;
            }
        }
    general:;
        edan_deps_info info;
        if (edan_deps_step(t, r, &info))
            return i;
        for (size_t k = 0; k < info.n_preds; k++)
            if (!info.preds[k].false_dep)
                preds[used + np++] = info.preds[k].v;
        off[i + 1] = used += np;
    }
    return n;
}

size_t edan_deps_steps_preds(edan_deps *t, const edan_exec *recs, size_t n, uint64_t *preds, size_t cap, uint32_t *off)
{
    if (!t->list_preds || t->all_preds) {
        edan_error_set(&t->err, "edan_deps_steps_preds() needs a tracker made with EDAN_DEPS_TRUE_PREDS");
        return 0;
    }
    if (t->only_preds)
        return steps(t, recs, n, preds, cap, off, true);
    return steps(t, recs, n, preds, cap, off, false);
}
