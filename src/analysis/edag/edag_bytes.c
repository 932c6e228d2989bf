/*
 * edag_bytes.c - the one-lane analysis's short path for runs of byte
 * accesses: x86's rep strings (rep stosb; the two vertices of each rep movsb
 * iteration), which QEMU executes once per byte, each execution a vertex
 * with address updates (rdi, rsi, rcx) that the hot op does not hold. The
 * general path (edag_step.c) took each of them alone: a page lookup, its
 * loops over an instruction's registers and lanes, and the one-lane loop's
 * entry and dispatch per record, about 600 host instructions a byte of
 * stream's memset. A run starts at a byte access of a wide instruction
 * (HOT_WIDE) and goes on over the byte accesses after it, of any
 * instruction; each is taken exactly as the general path with one lane, no
 * false dependencies and no scopes takes it (the same rule, the same per-byte
 * shadow state, split units and all), its page kept per static instruction
 * (page_memo) instead of looked up.
 */
#include "analysis/edag/edag_fold.h"

/*
 * Bytes in a row that touch more than EDAN_SHADOW_SPARSE_MAX units (any 1025 bytes in a row span 257 units): stored
 * to a narrow page, they make it a full page of units, whatever it was before.
 */
#define AHEAD_BYTES (EDAN_SHADOW_SPARSE_MAX * EDAN_SHADOW_UNIT + 1)

/*
 * Whether the records from r (a byte store) up to end hold AHEAD_BYTES byte stores of r's instruction (every record,
 * or every other one: rep movsb's store vertex) at the addresses after or before r's one by one, all in r's page.
 * Whoever takes them, they make the page a full page of units (above); what else the records do cannot undo that.
 */
static bool run_fills_page(const edan_exec *r, const edan_exec *end)
{
    if (end - r < 3)
        return false;
    const uint32_t id = r->id;
    const size_t step = r[1].id == id ? 1 : 2, last = (AHEAD_BYTES - 1) * step;
    if ((size_t)(end - r) <= last || r[step].id != id)
        return false;
    const uint64_t a = r->addr, d = r[step].addr - a; /* 1, or -1 modulo 2^64 */
    const uint64_t to = a + d * (AHEAD_BYTES - 1);
    if ((d != 1 && d != UINT64_MAX) || r[last].id != id || r[last].addr != to ||
        to >> EDAN_SHADOW_PAGE_BITS != a >> EDAN_SHADOW_PAGE_BITS)
        return false;
    for (size_t i = 1; i < AHEAD_BYTES; i++) {
        const edan_exec *q = r + i * step;
        if (q->id != id || q->addr != a + d * i || (q->flags & EDAN_EXEC_NO_ACCESS))
            return false;
    }
    return true;
}

/*
 * The shadow page of byte access r by static instruction r->id, of the run up to end: the one its last execution
 * found while that handle is current (shadow.h: gen) and takes the access as it is (a full page of units, for a
 * store not the zero page: edan_shadow_page_access() would return it without counting a lookup or remaking it), else
 * a lookup's. A store to a narrow page that is not yet a full page of units, when the records ahead fill the page
 * (run_fills_page(), tried once a page in a run: *ahead), makes it one at once: its first quarter then takes this
 * path instead of a sparse page's lookups and inserts.
 */
static ALWAYS_INLINE edan_shadow_page *byte_page(edan_shadow *sh, page_memo *m, const edan_exec *r, bool wr,
                                                 const edan_exec *end, uint64_t *ahead, const bool N)
{
    const uint64_t addr = r->addr, page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    /* the short paths of whole units keep a byte load's or store's page too, any page (one_lane_load()) */
    if (m->no == page_no && m->gen == sh->gen && edan_shadow_tag(m->page) == 0 && (!wr || m->page != sh->zero_page))
        return m->page;
    edan_shadow_page *page;
    if (N && wr && *ahead != page_no) {
        *ahead = page_no;
        page = edan_shadow_recent_page(sh, addr);
        if (!(page && edan_shadow_tag(page) == 0 && page != sh->zero_page) && run_fills_page(r, end)) {
            page = edan_shadow_page_units(sh, addr);
            if (page)
                *m = (page_memo){page_no, sh->gen, page};
            return page;
        }
    }
    page = edan_shadow_page_access(sh, addr, 1, wr);
    if (page && edan_shadow_tag(page) == 0 && (!wr || page != sh->zero_page))
        *m = (page_memo){page_no, sh->gen, page};
    return page;
}

/*
 * What the rule does with an instruction's registers, as step_lanes() does it with one lane, in lists: the sources
 * (src[], then more[]'s), the address updates in order (upd[i] from from[i], each reading its register's state
 * before any destination is written), then the other destinations in order. Made once per instruction of a run.
 */
typedef struct byte_plan {
    const edan_insn *in;
    bool rd, wr;
    uint8_t n_src, n_upd, n_dst;
    uint8_t src[EDAN_MAX_SRC + EDAN_MAX_MORE];
    uint8_t upd[EDAN_MAX_MORE + 1], from[EDAN_MAX_MORE + 1];
    uint8_t dst[EDAN_MAX_MORE + 1];
} byte_plan;

static void plan_of(byte_plan *p, const edan_insn *in)
{
    p->in = in;
    p->rd = in->mem != EDAN_MEM_STORE;
    p->wr = in->mem != EDAN_MEM_LOAD;
    p->n_src = p->n_upd = p->n_dst = 0;
    for (int i = 0; i < EDAN_MAX_SRC; i++) /* past n_src: register 0, whose state stays 0, as step_lanes() reads it */
        p->src[p->n_src++] = in->src[i];
    for (int i = 0; i < in->n_more_src; i++)
        p->src[p->n_src++] = in->more[i];
    const uint8_t from = edan_insn_addr_from(in, in->dst);
    for (int i = 0; in->addr_dst && i <= in->n_more_dst; i++) {
        const uint8_t d = i ? in->more[in->n_more_src + i - 1] : in->dst;
        if (in->addr_dst >> i & 1) {
            p->upd[p->n_upd] = d;
            p->from[p->n_upd++] = in->addr_from ? from : d;
        }
    }
    for (int i = -1; i < in->n_more_dst; i++)
        if (!(in->addr_dst >> (i + 1) & 1))
            p->dst[p->n_dst++] = i < 0 ? (uint8_t)(in->n_dst ? in->dst : REG_SINK) : in->more[in->n_more_src + i];
}

/*
 * The last unit split into bytes that the run touched on a full page of units (page, unit number unit) and its
 * split record: within a run, whose accesses are all bytes, a split unit stays split with the same record (only
 * a store of the whole unit or word joins it, and pages are widened or their inline state ended between batches
 * only), so the run's next byte in the unit reads and writes the record directly.
 */
typedef struct byte_unit {
    const edan_shadow_page *page;
    uint64_t unit;
    edan_shadow_split *rec;
    const edan_exec *end; /* the run's batch's end */
    uint64_t ahead;       /* the page whose records ahead were looked at last (byte_page()) */
} byte_unit;

/* The unit of byte off of page, a full page of units, for the next access: kept if split. */
static ALWAYS_INLINE void keep_unit(edan_shadow *sh, byte_unit *c, edan_shadow_page *page, uint64_t addr, uint32_t off,
                                    const bool N)
{
    char *unit = edan_shadow_unit_find(page, 1, false, N, off >> EDAN_SHADOW_UNIT_BITS, false, NULL);
    if (edan_shadow_unit_md(unit, 1, false, N)[0] & EDAN_SHADOW_SPLIT) {
        c->page = page;
        c->unit = addr >> EDAN_SHADOW_UNIT_BITS;
        c->rec = edan_shadow_split_get(sh, edan_shadow_F_get(unit, 0, N));
    }
}

/* One byte access r of instruction p->in: step_lanes() (edag_step.c) with one lane, size 1 and an access. */
static ALWAYS_INLINE bool byte_step(edan_edag *e, const edan_exec *r, const byte_plan *p, byte_unit *c,
                                    const bool has_cache, const bool N)
{
    edan_shadow *sh = &e->shadow;
    lane_state *L = &e->lane[0];
    uint64_t *regF = e->regF, *regMd = e->regMd;
    const bool rd = p->rd, wr = p->wr;
    const uint64_t addr = r->addr;
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1)), b = off & (EDAN_SHADOW_UNIT - 1);
    edan_shadow_page *page = byte_page(sh, &e->memo[r->id], r, wr, c->end, &c->ahead, N);
    if (!page) {
        edan_error_set(&e->err, "out of memory for shadow state (%" PRIu64 " pages allocated)", sh->pages);
        return false;
    }
    /* a full page of units (for a wide shadow every page): its unit's record has a place of its own */
    const bool fixed = !N || edan_shadow_tag(page) == 0;
    edan_shadow_split *rec = c->unit == addr >> EDAN_SHADOW_UNIT_BITS && c->page == page ? c->rec : NULL;
    /* src[]'s three first (always there: plan_of()), then more[]'s */
    _Static_assert(EDAN_MAX_SRC == 3, "three sources in src[]");
    uint64_t Fin = edan_rule_join3(regF[p->src[0]], regF[p->src[1]], regF[p->src[2]]);
    uint64_t mdin = edan_rule_join3(regMd[p->src[0]], regMd[p->src[1]], regMd[p->src[2]]);
    for (int i = EDAN_MAX_SRC; i < p->n_src; i++) {
        Fin = edan_rule_join(Fin, regF[p->src[i]]);
        mdin = edan_rule_join(mdin, regMd[p->src[i]]);
    }
    if (rd && rec) {
        Fin = edan_rule_join(Fin, rec->F[b]);
        mdin = edan_rule_join(mdin, rec->md[b]);
    } else if (rd) {
        mem_deps(sh, page, 1, false, N, off, 1, &Fin, &mdin, true, false, false);
    }
    const edan_access_class ac = edan_cache_classify(&L->cache, has_cache, addr, 1, rd, wr);
    L->st.ram_loads += ac.rd_ram;
    L->st.ram_stores += ac.wr_ram;
    const bool to_ram = ac.rd_ram || ac.wr_ram;
    const uint64_t t = edan_rule_cost(to_ram, L->cost.alpha, L->cost.cls[p->in->cls]);
    uint64_t F = edan_rule_finish(Fin, t), md = edan_rule_depth(mdin, to_ram);
    if (!account(e, L, to_ram, t, Fin, F, md, access_bytes(e, ac, 1), true))
        return false;
    /* address updates first, from their registers' state before (step_lanes()), then the other destinations */
    for (int i = 0; i < p->n_upd; i++) {
        regF[p->upd[i]] = edan_rule_finish(regF[p->from[i]], L->cost.cls[EDAN_CLASS_INT]);
        regMd[p->upd[i]] = regMd[p->from[i]];
    }
    for (int i = 0; i < p->n_dst; i++) {
        regF[p->dst[i]] = F;
        regMd[p->dst[i]] = md;
    }
    if (wr && !rec && fixed) { /* mem_store() of a byte: the unit split first if it is not yet, then kept */
        char *unit = edan_shadow_unit_find(page, 1, false, N, off >> EDAN_SHADOW_UNIT_BITS, true, NULL);
        if (!(edan_shadow_unit_md(unit, 1, false, N)[0] & EDAN_SHADOW_SPLIT) &&
            !edan_edag_unit_split_found(sh, unit, 1, false, N)) {
            edan_error_set(&e->err, "out of memory for shadow state");
            return false;
        }
        rec = edan_shadow_split_get(sh, edan_shadow_F_get(unit, 0, N));
        c->page = page;
        c->unit = addr >> EDAN_SHADOW_UNIT_BITS;
        c->rec = rec;
    }
    if (wr && rec) { /* mem_store() of a byte of a split unit */
        rec->F[b] = F;
        rec->md[b] = (uint32_t)md;
        rec->rF[b] = 0;
        rec->rmd[b] = 0;
    } else if (wr && !mem_store(sh, page, 1, false, N, off, 1, &F, &md, false)) {
        edan_error_set(&e->err, "out of memory for shadow state");
        return false;
    }
    if (!rec && fixed) /* a load's: kept if split */
        keep_unit(sh, c, page, addr, off, N);
    return true;
}

/*
 * The run of byte accesses from r (edan_edag_byte_record(), of a wide instruction: the caller found r one, and counted
 * its execution) up to end: each counted and taken by byte_step(). The records it took, or 0 on failure (the error
 * set).
 */
static ALWAYS_INLINE size_t byte_run(edan_edag *e, const edan_exec *r, const edan_exec *end, const bool has_cache,
                                     const bool N)
{
    byte_plan plan[2]; /* the last two instructions' (rep movsb's two vertices) */
    byte_unit c = {NULL, UINT64_MAX, NULL, end, UINT64_MAX};
    plan_of(&plan[0], r->insn);
    plan[1].in = NULL;
    if (!byte_step(e, r, &plan[0], &c, has_cache, N))
        return 0;
    const edan_exec *q = r + 1;
    hot_id *ids = e->ids;
    const size_t cap = e->id_cap;
    int last = 0;
    for (; q < end && q->id < cap && edan_edag_byte_record(q, ids[q->id].op); q++) {
        ids[q->id].count++;
        if (plan[last].in != q->insn) {
            last ^= 1;
            if (plan[last].in != q->insn)
                plan_of(&plan[last], q->insn);
        }
        if (!byte_step(e, q, &plan[last], &c, has_cache, N))
            return 0;
    }
    return (size_t)(q - r);
}

static size_t byte_run_cached_narrow(edan_edag *e, const edan_exec *r, const edan_exec *end)
{
    return byte_run(e, r, end, true, true);
}
static size_t byte_run_cached_wide(edan_edag *e, const edan_exec *r, const edan_exec *end)
{
    return byte_run(e, r, end, true, false);
}
static size_t byte_run_uncached_narrow(edan_edag *e, const edan_exec *r, const edan_exec *end)
{
    return byte_run(e, r, end, false, true);
}
static size_t byte_run_uncached_wide(edan_edag *e, const edan_exec *r, const edan_exec *end)
{
    return byte_run(e, r, end, false, false);
}

const edan_exec *edan_edag_wide_run(edan_edag *e, const edan_exec *r)
{
    const hot_op op = e->ids[r->id].op;
    if (!(op.kind & HOT_WIDE) || !edan_edag_byte_record(r, op))
        return wide_step(e, r, op) ? r : NULL;
    const edan_exec *end = e->pf_end; /* the batch's end (consume_measured()) */
    size_t took;
    if (e->lane[0].has_cache)
        took = e->shadow.narrow ? byte_run_cached_narrow(e, r, end) : byte_run_cached_wide(e, r, end);
    else
        took = e->shadow.narrow ? byte_run_uncached_narrow(e, r, end) : byte_run_uncached_wide(e, r, end);
    return took ? r + took - 1 : NULL;
}
