/*
 * deps_links.c - edan_deps_steps_links(): the dependency tracker over a
 * batch, keeping of each vertex only its links (its critical and deep
 * predecessors and whether it is a memory-access vertex) in the compact
 * encoding of deps.h, with short paths for the usual vertices; and the
 * encoding's decoder. Same choices and totals as ready() and commit() in
 * deps.c; the critical-path test holds the two to each other on long
 * random traces.
 */
#include <inttypes.h>
#include <string.h>

#include "analysis/deps/deps_internal.h"
#include "util/varint.h"

/* ---- the encoding ---- */

_Static_assert(EDAN_DEPS_LINK_MAX == 1 + 4 * EDAN_VARINT_MAX, "a tag and four varints");

/*
 * Vertex v's links (crit, deep: index + 1 of the predecessors, 0 = none;
 * mem; its static instruction id, prev the previous vertex's; by_bytes:
 * a link carried by the bytes v read at addr) at p, the general way:
 * returns the byte after them.
 */
static inline __attribute__((always_inline)) uint8_t *link_put(uint8_t *p, uint64_t v, uint64_t crit, uint64_t deep,
                                                               bool mem, uint32_t id, uint32_t prev, bool by_bytes,
                                                               uint64_t addr, uint64_t *last_addr)
{
    /* crit and deep are both 0 (an input) or both not: every predecessor is a candidate for both */
    const uint64_t dc = crit ? v + 1 - crit : 0, dd = deep ? v + 1 - deep : 0;
    const bool seq = id == prev + 1, same = dd == dc;
    by_bytes = by_bytes && dc;
    const uint64_t field = by_bytes ? EDAN_DEPS_LINK_DC_ADDR : dc < EDAN_DEPS_LINK_DC_ADDR ? dc : EDAN_DEPS_LINK_DC_ESC;
    *p++ = (uint8_t)((mem ? EDAN_DEPS_LINK_MEM : 0) | (seq ? EDAN_DEPS_LINK_SEQ : 0) |
                     (same ? EDAN_DEPS_LINK_SAME : 0) | field << EDAN_DEPS_LINK_DC_SHIFT);
    if (by_bytes) {
        p = edan_varint_put(p, dc);
        p = edan_varint_put(p, edan_zigzag((int64_t)(addr - *last_addr))); /* near the last one, in a loop */
        *last_addr = addr;
    } else if (field == EDAN_DEPS_LINK_DC_ESC) {
        p = edan_varint_put(p, dc - EDAN_DEPS_LINK_DC_ADDR);
    }
    if (!same)
        p = edan_varint_put(p, dd);
    if (!seq) /* a loop's back edge: a short jump back */
        p = edan_varint_put(p, edan_zigzag((int64_t)id - (int64_t)(uint32_t)(prev + 1)));
    return p;
}

/*
 * The same, the usual vertex (the next static instruction, its critical
 * predecessor among the last 29, through a register, and also the deep
 * one) in one test and one byte, the others through link_put().
 */
static inline __attribute__((always_inline)) uint8_t *link_add(uint8_t *p, uint64_t v, uint64_t crit, uint64_t deep,
                                                               bool mem, uint32_t id, uint32_t prev, bool by_bytes,
                                                               uint64_t addr, uint64_t *last_addr)
{
    const uint64_t dc = v + 1 - crit;
    if (__builtin_expect(crit != 0 && dc < EDAN_DEPS_LINK_DC_ADDR && deep == crit && id == prev + 1 && !by_bytes, 1)) {
        *p = (uint8_t)((mem ? EDAN_DEPS_LINK_MEM : 0) | EDAN_DEPS_LINK_SEQ | EDAN_DEPS_LINK_SAME |
                       dc << EDAN_DEPS_LINK_DC_SHIFT);
        return p + 1;
    }
    return link_put(p, v, crit, deep, mem, id, prev, by_bytes, addr, last_addr);
}

size_t edan_deps_link_get(const uint8_t *p, const uint8_t *end, uint32_t prev, edan_deps_link *l)
{
    const uint8_t *q = p;
    if (q >= end)
        return 0;
    const unsigned tag = *q++;
    uint64_t dc = tag >> EDAN_DEPS_LINK_DC_SHIFT, x;
    int k;
    l->by_bytes = dc == EDAN_DEPS_LINK_DC_ADDR;
    if (l->by_bytes) {
        if ((k = edan_varint_get(q, end, &dc)) <= 0 || !dc)
            return 0;
        q += k;
        if ((k = edan_varint_get(q, end, &x)) <= 0)
            return 0;
        l->addr += (uint64_t)edan_unzigzag(x); /* after the chunk's last by-bytes vertex's */
        q += k;
    } else if (dc == EDAN_DEPS_LINK_DC_ESC) {
        if ((k = edan_varint_get(q, end, &x)) <= 0 || x > UINT64_MAX - EDAN_DEPS_LINK_DC_ADDR)
            return 0;
        q += k;
        dc = EDAN_DEPS_LINK_DC_ADDR + x;
    }
    l->dc = l->dd = dc;
    if (!(tag & EDAN_DEPS_LINK_SAME)) {
        if ((k = edan_varint_get(q, end, &l->dd)) <= 0)
            return 0;
        q += k;
    }
    int64_t id = (int64_t)(uint32_t)(prev + 1);
    if (!(tag & EDAN_DEPS_LINK_SEQ)) {
        if ((k = edan_varint_get(q, end, &x)) <= 0 || x >> 33)
            return 0;
        q += k;
        id += edan_unzigzag(x); /* |delta| <= 2^32 */
        if (id < 0 || id > UINT32_MAX)
            return 0;
    }
    l->id = (uint32_t)id;
    l->mem = tag & EDAN_DEPS_LINK_MEM;
    return (size_t)(q - p);
}

/* ---- the short paths ---- */

/* A failure of a short path: err set, always false. */
static __attribute__((noinline, cold)) bool links_failed(edan_deps *t, uint64_t v, bool overflow)
{
    if (overflow)
        edan_error_set(&t->err, "dependency tracker: the finish time of vertex %" PRIu64 " overflows", v);
    else if (!t->err.set)
        edan_error_set(&t->err, "memory depth exceeds %u: not supported", UINT32_MAX);
    return false;
}

/* The page of a load at addr when it is not among the recently used: the shadow's lookup; NULL: failed (err set). */
static __attribute__((noinline)) const edan_shadow_page *links_page(edan_deps *t, uint64_t addr)
{
    return (const edan_shadow_page *)unit_at(t, addr & ~(uint64_t)(EDAN_SHADOW_PAGE - 1), false);
}

/* Whether a load reaches RAM under the lane's cache (only asked with a cache). */
static __attribute__((noinline)) bool links_load_ram(edan_deps *t, uint64_t addr, uint32_t size)
{
    return edan_cache_classify(&t->cache, true, addr, size, true, false).rd_ram;
}

/* A store's vertex done by links_store(): its finish time and md, or md LINKS_FAILED (err set). */
typedef struct links_done {
    uint64_t F, md;
    uint64_t crit, deep;
    bool mem;
} links_done;
#define LINKS_FAILED UINT64_MAX

/*
 * A store of whole aligned units (both in one page): ready() and commit()
 * but the totals, which the caller updates from the result.
 */
static __attribute__((noinline)) links_done links_store(edan_deps *t, const edan_exec *r, const deps_op *op, uint64_t v)
{
    const uint64_t addr = r->addr, units = op->units;
    char *u = unit_at(t, addr, true);
    if (!u)
        return (links_done){0, LINKS_FAILED, 0, 0, false};
    deps_write *w0 = unit_write(u), *w1 = w0 + (units - 1); /* no reads state: a unit's record is a deps_write */
    pick p;
    deps_pick_regs(t->reg_w, op, &p);
    const bool mem =
        edan_cache_classify(&t->cache, t->has_cache, addr, (uint32_t)units << EDAN_SHADOW_UNIT_BITS, false, true)
            .wr_ram;
    const uint64_t F = edan_rule_finish(p.F, edan_rule_cost(mem, t->lane.cost.alpha, op->cost)),
                   md = edan_rule_depth(p.md, mem);
    if (F < p.F || md > UINT32_MAX) {
        links_failed(t, v, F < p.F);
        return (links_done){0, LINKS_FAILED, 0, 0, false};
    }
    put_write(&t->reg_w[op->dst], F, v + 1, (uint32_t)md);
    unsplit(t, (char *)w0);
    put_write(w0, F, v + 1, (uint32_t)md);
    unsplit(t, (char *)w1);
    put_write(w1, F, v + 1, (uint32_t)md);
    return (links_done){F, md, p.crit, p.deep, mem};
}

/* A vertex none of the short paths takes: edan_deps_step(), its links at p; the byte after them, NULL: failed. */
static __attribute__((noinline)) uint8_t *links_general(edan_deps *t, const edan_exec *r, uint8_t *p, uint32_t prev)
{
    /*
     * A vertex that reads memory: the vertices its registers link it to (their last writers and, with
     * false_deps, its destinations' writers and readers), so that a link to any other one is carried by bytes
     */
    const edan_insn *in = r->insn;
    uint64_t regs[3 * (EDAN_MAX_SRC + EDAN_MAX_MORE) + 3];
    size_t n_regs = 0;
    /* the data eDAG: a register may stand for its roots (deps.h) once the step has classed this vertex's uses, or
     * for its writer: both are links through it */
    const bool reads =
        in->mem != EDAN_MEM_NONE && in->mem != EDAN_MEM_STORE && !(r->flags & EDAN_EXEC_NO_ACCESS) && in->mem_size > 0;
    if (reads) {
        const int n_src = in->n_src < EDAN_MAX_SRC ? in->n_src : EDAN_MAX_SRC;
        for (int i = 0; i < n_src + in->n_more_src + in->n_more_dst && i < n_src + EDAN_MAX_MORE; i++) {
            const uint8_t reg = i < n_src ? in->src[i] : in->more[i - n_src];
            if (tracked_reg(reg))
                regs[n_regs++] = t->reg_w[reg].by;
            if (t->data && tracked_reg(reg) && i < n_src + in->n_more_src && deps_may_hold_book(t, reg)) {
                regs[n_regs++] = t->reg_root[reg].crit;
                regs[n_regs++] = t->reg_root[reg].deep;
            }
            if (t->false_deps && tracked_reg(reg) && i >= n_src + in->n_more_src) {
                regs[n_regs++] = t->reg_r[reg].F_by;
                regs[n_regs++] = t->reg_r[reg].md_by;
            }
        }
        if (t->false_deps && in->n_dst && tracked_reg(in->dst)) {
            regs[n_regs++] = t->reg_w[in->dst].by;
            regs[n_regs++] = t->reg_r[in->dst].F_by;
            regs[n_regs++] = t->reg_r[in->dst].md_by;
        }
    }
    edan_deps_info info;
    if (edan_deps_step(t, r, &info))
        return NULL;
    bool crit_reg = !reads, deep_reg = !reads;
    for (size_t i = 0; i < n_regs; i++) {
        crit_reg |= regs[i] == info.crit;
        deep_reg |= regs[i] == info.deep;
    }
    return link_put(p, info.v, info.crit, info.deep, info.mem, r->id, prev, !crit_reg || !deep_reg, r->addr,
                    &t->link_addr);
}

/*
 * The loop of a tracker that keeps no reads and lists no predecessors:
 * ready() and commit() without their general loops for instructions
 * without memory access (about two thirds of a trace: up to three
 * registers in, one out) and loads of whole aligned units (both units of
 * an 8-byte load are in one page, it is aligned, so one lookup finds them;
 * a 4-byte load looks at its one unit twice, which changes nothing), then
 * the links, all in one pass and the totals in locals; stores of whole
 * aligned units in links_store(), any other vertex (or a load from a split
 * unit) through edan_deps_step(). The choices are ready()'s (edag_rule.h's
 * pick) and the totals commit()'s.
 */
static size_t links(edan_deps *t, const edan_exec *recs, size_t n, uint8_t **out, uint32_t *prev_id)
{
    deps_write *const reg = t->reg_w;
    /*
     * The totals every vertex looks at in scalars (the links' bytes may
     * alias anything, so fields of *t are reloaded after each); T1 (added
     * to in place) and those of memory-access vertices stay in t->tot.
     */
    uint64_t v = t->tot.vertices, Tinf = t->tot.Tinf, tinf_v = t->tot.tinf_v;
    uint8_t *p = *out;
    uint32_t prev = *prev_id;
    size_t i = 0;
    for (; i < n; i++) {
        const edan_exec *r = &recs[i];
        const uint32_t id = r->id;
        const deps_op *op = id < t->n_ops && t->ops[id].insn == r->insn ? &t->ops[id] : deps_op_decode(t, r);
        if (!op)
            break;
        const uint64_t addr = r->addr;
        const deps_write *w0 = NULL, *w1 = NULL;
        pick pk;
        bool mem = false, by_bytes = false; /* by_bytes: a link carried by the bytes the load read */
        uint64_t cost = op->cost;
        if (op->kind != DEPS_OP_NONE) {
            const uint64_t units = op->units;
            if (!units || (r->flags & EDAN_EXEC_NO_ACCESS) || (addr & ((units << EDAN_SHADOW_UNIT_BITS) - 1)))
                goto general;
            if (op->kind == DEPS_OP_STORE) {
                const links_done d = links_store(t, r, op, v);
                if (d.md == LINKS_FAILED)
                    break;
                pk = (pick){d.F, d.crit, d.md, d.deep};
                mem = d.mem;
                cost = edan_rule_cost(mem, t->lane.cost.alpha, cost);
                goto count;
            }
            const edan_shadow_page *pg = edan_shadow_recent_page(&t->shadow, addr);
            if (!pg && !(pg = links_page(t, addr)))
                break;
            if (edan_shadow_tag(pg))
                goto general; /* never: the tracker's pages are full ones */
            /* no reads state: a unit's record is a deps_write */
            w0 = (const deps_write *)pg + ((addr & (EDAN_SHADOW_PAGE - 1)) >> EDAN_SHADOW_UNIT_BITS);
            w1 = w0 + (units - 1);
            if (w0->split | w1->split)
                goto general;
        }
        deps_pick_regs(reg, op, &pk);
        if (w0) {
            const uint64_t reg_crit = pk.crit, reg_deep = pk.deep;
            edan_rule_pick_write(&pk, w0->F, w0->md, w0->by);
            if (w1->by != w0->by) /* else one store wrote both, or neither was written */
                edan_rule_pick_write(&pk, w1->F, w1->md, w1->by);
            by_bytes = pk.crit != reg_crit || pk.deep != reg_deep;
            mem = !t->has_cache || links_load_ram(t, addr, (uint32_t)op->units << EDAN_SHADOW_UNIT_BITS);
            cost = edan_rule_cost(mem, t->lane.cost.alpha, cost);
            pk.md = edan_rule_depth(pk.md, mem);
        } /* else no access: md(v) = edan_rule_depth(pk.md, 0) = pk.md, left as it is (the add cost 0.7 % here) */
        {
            const uint64_t F = edan_rule_finish(pk.F, cost);
            if (F < pk.F || pk.md > UINT32_MAX) {
                links_failed(t, v, F < pk.F);
                break;
            }
            deps_write *d = reg_at(reg, op->at[EDAN_MAX_SRC]); /* registers never split: split stays 0 */
            d->F = F;
            d->by = v + 1;
            d->md = (uint32_t)pk.md;
            pk.F = F;
        }
    count: /* pk.F, pk.md: the vertex's finish time and md */
        if (pk.F > Tinf) {
            Tinf = pk.F;
            tinf_v = v;
        }
        if (mem) {
            t->tot.W++;
            if (pk.md > t->tot.D) {
                t->tot.D = pk.md;
                t->tot.depth_v = v;
            }
        }
        t->tot.T1 += cost;
        p = link_add(p, v, pk.crit, pk.deep, mem, id, prev, by_bytes, addr, &t->link_addr);
        prev = id;
        v++;
        continue;
    general:
        t->tot.vertices = v;
        t->tot.Tinf = Tinf;
        t->tot.tinf_v = tinf_v;
        uint8_t *q = links_general(t, r, p, prev);
        if (!q)
            break;
        p = q;
        v = t->tot.vertices;
        Tinf = t->tot.Tinf;
        tinf_v = t->tot.tinf_v;
        prev = id;
    }
    t->tot.vertices = v;
    t->tot.Tinf = Tinf;
    t->tot.tinf_v = tinf_v;
    *out = p;
    *prev_id = prev;
    return i;
}

size_t edan_deps_steps_links(edan_deps *t, const edan_exec *recs, size_t n, uint8_t **out, uint32_t *prev_id)
{
    if (t->pending)
        edan_error_set(&t->err, "dependency tracker: ready() twice without commit()");
    if (t->err.set)
        return 0;
    if (*prev_id == UINT32_MAX) /* the encoding starts afresh: addresses too */
        t->link_addr = 0;
    if (!t->false_deps && !t->list_preds && !t->data)
        return links(t, recs, n, out, prev_id);
    /* reads or lists kept, or the data eDAG: every vertex the general way (and its instruction into the table of ids)
     */
    size_t i = 0;
    for (; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (!(r->id < t->n_ops && t->ops[r->id].insn == r->insn) && !deps_op_decode(t, r))
            break;
        uint8_t *q = links_general(t, r, *out, *prev_id);
        if (!q)
            break;
        *out = q;
        *prev_id = r->id;
    }
    return i;
}

const edan_insn *edan_deps_insn(const edan_deps *t, uint32_t id)
{
    return id < t->n_ops ? t->ops[id].insn : NULL;
}

size_t edan_deps_ids(const edan_deps *t)
{
    return t->n_ops;
}
