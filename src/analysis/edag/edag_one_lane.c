/*
 * edag_one_lane.c - a batch's entry (edan_edag_consume()) and the one-lane
 * analysis, the default: its loop, consume_one_lane(), is inlined into the
 * entry as before, and its short paths for the commonest accesses are here
 * with it.
 */
#include <inttypes.h>
#include <string.h>

#include "analysis/edag/edag_fold.h"

/* ---- one memory access, the general way -------------------------------- */

/*
 * One memory access of the one-lane analysis. Kept out of the loop of
 * consume_one_lane() so that loop, which mostly sees instructions without
 * memory, keeps its state in registers. T1, C and Tinf go straight to the
 * lane's totals (sums and maxima commute with the loop's local ones).
 */
static ALWAYS_INLINE bool one_lane_access(edan_edag *e, const edan_exec *r, const hot_op *opp, const bool has_cache,
                                          const bool N)
{
    const hot_op op = *opp;
    lane_state *L = &e->lane[0];
    edan_lane_stats *st = &L->st;
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    prefetch_from(e, r);
    const uint32_t size = op.size;
    const uint64_t addr = r->addr;
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    const bool rd = op.kind & EDAN_MEM_LOAD, wr = op.kind & EDAN_MEM_STORE;
    edan_shadow_page *page;
    if (off + size > EDAN_SHADOW_PAGE || !(page = edan_shadow_page_access(&e->shadow, addr, size, wr)))
        return edan_edag_step_lanes(
            e, r); /* page-crossing access (or no memory): the general path handles and reports it */
    uint64_t Fin = edan_rule_join3(regF[op.src[0]], regF[op.src[1]], regF[op.src[2]]);
    uint64_t mdin = edan_rule_join3(regMd[op.src[0]], regMd[op.src[1]], regMd[op.src[2]]);
    if (rd)
        mem_deps(&e->shadow, page, 1, false, N, off, size, &Fin, &mdin, true, false, false);
    const edan_access_class ac = edan_cache_classify(&L->cache, has_cache, addr, size, rd, wr);
    /* without a cache every access reaches RAM, and w(v) is its bytes in either bytes mode */
    const bool to_ram = !has_cache || ac.rd_ram || ac.wr_ram;
    const uint64_t t = edan_rule_cost(to_ram, L->cost.alpha, L->cost.cls[op.cls]);
    uint64_t F = edan_rule_finish(Fin, t), md = edan_rule_depth(mdin, to_ram);
    st->ram_loads += ac.rd_ram;
    st->ram_stores += ac.wr_ram;
    /* the state first, so the page and offset are dead while the totals are updated */
    regF[op.dst] = F;
    regMd[op.dst] = md;
    regF[op.dst2] = F; /* REG_SINK unless HOT_DST2 */
    regMd[op.dst2] = md;
    if (wr && !mem_store(&e->shadow, page, 1, false, N, off, size, &F, &md, false)) {
        edan_error_set(&e->err, "out of memory for shadow state");
        return false;
    }
    return account(e, L, to_ram, t, Fin, F, md, has_cache ? access_bytes(e, ac, size) : ac.line_bytes, true);
}

/*
 * Each path in four functions of its own, one per (cache or not, narrow or
 * wide shadow records): noipa, since scalar replacement would pass the
 * hot_op's fields on the stack. ONE_LANE_VARIANTS(name, call) defines
 * name_cached_narrow() ... name_uncached_wide(), each returning call with
 * has_cache and N set; ONE_LANE_PICK(name, has_cache, N) names one.
 */
#define ONE_LANE_VARIANT(name, suffix, C, W, call)                                                                     \
    static __attribute__((noipa)) bool name##suffix(edan_edag *e, const edan_exec *r, const hot_op *op)                \
    {                                                                                                                  \
        const bool has_cache = C, N = W;                                                                               \
        return call;                                                                                                   \
    }
#define ONE_LANE_VARIANTS(name, call)                                                                                  \
    ONE_LANE_VARIANT(name, _cached_narrow, true, true, call)                                                           \
    ONE_LANE_VARIANT(name, _cached_wide, true, false, call)                                                            \
    ONE_LANE_VARIANT(name, _uncached_narrow, false, true, call)                                                        \
    ONE_LANE_VARIANT(name, _uncached_wide, false, false, call)
#define ONE_LANE_PICK(name, has_cache, N)                                                                              \
    ((has_cache) ? ((N) ? name##_cached_narrow : name##_cached_wide)                                                   \
                 : ((N) ? name##_uncached_narrow : name##_uncached_wide))

ONE_LANE_VARIANTS(one_lane_access, one_lane_access(e, r, op, has_cache, N))

/* The general path, which the short ones below hand anything else to before changing any state. */
static ALWAYS_INLINE bool one_lane_general(edan_edag *e, const edan_exec *r, const hot_op *op, const bool has_cache,
                                           const bool N)
{
    return ONE_LANE_PICK(one_lane_access, has_cache, N)(e, r, op);
}

/* ---- short paths for the commonest accesses ---------------------------- */

/*
 * The records of the commonest access's one or two shadow units: 4 or 8
 * bytes at a multiple of 4, in the page the instruction's last execution
 * touched (m, while its handle is current) or else a page among the recently
 * used (for_write: one written before, not the zero page), and for a write
 * no unit split into bytes (a load reads split units, unit_writer()); false
 * for anything else. A page found among the recent ones becomes the last
 * page, as edan_shadow_page_access() would make it, and the instruction's;
 * a full page takes any access without counting lookups, so skipping the
 * recent pages for it changes no page's layout.
 */
static ALWAYS_INLINE bool recent_whole_units(edan_shadow *sh, page_memo *m, uint64_t addr, uint32_t size,
                                             const bool for_write, const bool N, char *unit[2])
{
    const uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    const uint64_t page_no = addr >> EDAN_SHADOW_PAGE_BITS;
    const edan_shadow_page *page;
    if (off + size > EDAN_SHADOW_PAGE)
        return false;
    if (m->no == page_no && m->gen == sh->gen) { /* the instruction's last page, still current (page_memo) */
        page = m->page;
    } else {
        if (!(page = edan_shadow_recent_page(sh, addr)))
            return false;
        *m = (page_memo){page_no, sh->gen, (edan_shadow_page *)page};
    }
    if (for_write && page == sh->zero_page)
        return false;
    if (N && size == 16) { /* x86's SSE: its two halves' first and last records (middle_units()) */
        char *hi[2];
        if (!whole_units(page, 1, N, off, 8, for_write, unit) || !whole_units(page, 1, N, off + 8, 8, for_write, hi))
            return false;
        unit[1] = hi[1];
        if (for_write &&
            ((edan_shadow_unit_md(unit[0] + 8, 1, false, N)[0] | edan_shadow_unit_md(unit[1] - 8, 1, false, N)[0]) &
             EDAN_SHADOW_SPLIT))
            return false;
    } else if (!whole_units(page, 1, N, off, size, for_write, unit)) {
        return false;
    }
    return !for_write ||
           !((edan_shadow_unit_md(unit[0], 1, false, N)[0] | edan_shadow_unit_md(unit[1], 1, false, N)[0]) &
             EDAN_SHADOW_SPLIT);
}

/*
 * Narrow records (a unit's or a word's) are 8 bytes each, in address order,
 * so the records of a 16-byte access are unit[0], unit[1] and those between:
 * 2 to 4 in all, which unit[0] + 8 and unit[1] - 8 cover (twice a record is
 * no harm: joins and stores of the same value are idempotent).
 */
static ALWAYS_INLINE char *middle_unit(char *const unit[2], int k)
{
    return k ? unit[1] - 8 : unit[0] + 8;
}

/*
 * The last writer of a whole unit, F and md, as mem_deps() folds it, from
 * its record and m, the record's md word already read: the record's, or of
 * a unit split into bytes (x86's rep movsb and rep stosb write a byte per
 * vertex) the latest of its four bytes'. whole: the caller found the unit
 * not split (its own test of m, one for all the access's records).
 */
static ALWAYS_INLINE void unit_writer(edan_shadow *sh, char *unit, uint32_t m, const bool N, const bool whole,
                                      uint64_t *F, uint64_t *md)
{
    if (whole || __builtin_expect(!(m & EDAN_SHADOW_SPLIT), 1)) {
        *F = edan_shadow_F_get(unit, 0, N);
        *md = m;
        return;
    }
    const edan_shadow_split *rec = edan_shadow_split_get(sh, edan_shadow_F_get(unit, 0, N));
    _Static_assert(EDAN_SHADOW_UNIT == 4, "a unit is four bytes");
    *F = edan_rule_join(edan_rule_join(rec->F[0], rec->F[1]), edan_rule_join(rec->F[2], rec->F[3]));
    *md = edan_rule_join(edan_rule_join(rec->md[0], rec->md[1]), edan_rule_join(rec->md[2], rec->md[3]));
}

/* A last writer: F and md. */
typedef struct unit_fmd {
    uint64_t F, md;
} unit_fmd;

/*
 * The last writer of a load's whole units (2, or 4 for 16 narrow bytes:
 * unit[0], unit[1] and middle_unit()'s), F and md joined over their records
 * (unit_writer()), whose md words are m0 to m3. whole as unit_writer()'s:
 * each caller passes a constant, so each case is its own straight code.
 */
static ALWAYS_INLINE unit_fmd units_writer(edan_shadow *sh, char *const unit[2], uint32_t m0, uint32_t m1, uint32_t ma,
                                           uint32_t mb, const bool N, const bool wide16, const bool whole)
{
    uint64_t F0, F1, md0, md1;
    unit_writer(sh, unit[0], m0, N, whole, &F0, &md0);
    unit_writer(sh, unit[1], m1, N, whole, &F1, &md1);
    for (int k = 0; wide16 && k < 2; k++) {
        uint64_t Fm, mdm;
        unit_writer(sh, middle_unit(unit, k), k ? mb : ma, N, whole, &Fm, &mdm);
        F0 = edan_rule_join(F0, Fm);
        md0 = edan_rule_join(md0, mdm);
    }
    return (unit_fmd){edan_rule_join(F0, F1), edan_rule_join(md0, md1)};
}

/* units_writer() where a unit is split into bytes: rare (a rep string's bytes), out of the short path's registers */
static __attribute__((noinline, cold)) unit_fmd units_writer_split(edan_shadow *sh, char *const unit[2], uint32_t m0,
                                                                   uint32_t m1, uint32_t ma, uint32_t mb, bool N,
                                                                   bool wide16)
{
    return N ? units_writer(sh, unit, m0, m1, ma, mb, true, wide16, false)
             : units_writer(sh, unit, m0, m1, ma, mb, false, wide16, false);
}

/*
 * Short paths for the commonest accesses of the one-lane analysis, in
 * functions of their own with little of one_lane_access()'s generality (it
 * saves six registers and unpacks the hot op onto the stack), doing exactly
 * what it would. Not called while prefetching, which one_lane_access() does
 * for every access.
 *
 * A load of whole units (recent_whole_units()) whose units are unit[]: it
 * reads them and its source registers (x86: an index, an operand), and
 * may write a second destination (HOT_DST2: x86 flags); the cache (or its absence)
 * classified it as ac. mru: it found the most recently used line of its set
 * in the first level, which moves no bytes (a hit elsewhere may write back
 * a dirty victim). The short paths read the hot op where it is (op, the id's
 * entry): a copy of it was unpacked byte by byte onto the stack and read back,
 * 2 % of the instructions of a whole-program x86 trace's analysis.
 */
static ALWAYS_INLINE bool one_lane_load_units(edan_edag *e, const hot_op *op, char *const unit[2], const bool has_cache,
                                              const bool N, const bool mru, const edan_access_class ac)
{
    lane_state *L = &e->lane[0];
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    const bool wide16 = N && op->size == 16;
    const uint32_t m0 = edan_shadow_unit_md(unit[0], 1, false, N)[0], m1 = edan_shadow_unit_md(unit[1], 1, false, N)[0];
    const uint32_t ma = wide16 ? edan_shadow_unit_md(middle_unit(unit, 0), 1, false, N)[0] : 0,
                   mb = wide16 ? edan_shadow_unit_md(middle_unit(unit, 1), 1, false, N)[0] : 0;
    /* the units' last writer: one test for all of them, no unit split into bytes the common case */
    const unit_fmd u = __builtin_expect(!((m0 | m1 | ma | mb) & EDAN_SHADOW_SPLIT), 1)
                           ? units_writer(&e->shadow, unit, m0, m1, ma, mb, N, wide16, true)
                           : units_writer_split(&e->shadow, unit, m0, m1, ma, mb, N, wide16);
    /* all three sources, as one_lane_access() (past n_src they are register 0, which no vertex writes) */
    const uint64_t Fin = edan_rule_join(edan_rule_join3(regF[op->src[0]], regF[op->src[1]], regF[op->src[2]]), u.F);
    const uint64_t mdin =
        edan_rule_join(edan_rule_join3(regMd[op->src[0]], regMd[op->src[1]], regMd[op->src[2]]), u.md);
    const bool to_ram = ac.rd_ram;
    const uint64_t t = edan_rule_cost(to_ram, L->cost.alpha, L->cost.cls[op->cls]), F = edan_rule_finish(Fin, t),
                   md = edan_rule_depth(mdin, to_ram);
    /* read before the stores: op's bytes may alias them, so a field read after one is read again */
    const unsigned dst = op->dst, dst2 = op->dst2;
    regF[dst] = F;
    regMd[dst] = md;
    regF[dst2] = F; /* REG_SINK unless HOT_DST2 (x86: the flags of an add with a memory source) */
    regMd[dst2] = md;
    if (mru) {
        /* no RAM, no bytes moved: only T1, C and Tinf */
        L->st.Tinf = max_u64(L->st.Tinf, F);
        L->st.T1 += t;
        L->st.C += t;
        return true;
    }
    L->st.ram_loads += ac.rd_ram;
    return account(e, L, to_ram, t, Fin, F, md, has_cache ? access_bytes(e, ac, op->size) : ac.line_bytes, true);
}

/*
 * A load of whole units that missed the most recently used line of its set
 * in the first level of the cache (a stream's next line, a gather, a pointer
 * chase: every load of the chase misses): classified here rather than by the
 * general path, apart from the hits so that their path keeps its registers.
 * It runs no look-ahead of shadow state (edag_internal.h: prefetch_ahead()).
 *
 * This is edan_cache_classify()'s load past edan_cache_try_mru(), which
 * one_lane_load() did, finding nothing and changing nothing. A hit in
 * another way of the first level's set (a column's lines, two arrays in a
 * set) moves no bytes and reaches no RAM: the most recently used line's
 * accounting, as any load that moved no bytes. The rest of
 * edan_cache_access() is edan_cache_access_past_mru() (cache.h), its one
 * place.
 */
static ALWAYS_INLINE bool one_lane_load_missed(edan_edag *e, const edan_exec *r, const hot_op *op, char *unit0,
                                               char *unit1, const bool N)
{
    char *const unit[2] = {unit0, unit1};
    edan_cache *c = &e->lane[0].cache;
    const uint64_t addr = r->addr;
    const uint32_t size = op->size;
    const edan_access_class hit = {false, false, 0};
    const edan_cache_result cr = edan_cache_access_past_mru(c, addr, size, false, NULL);
    if (!cr.reads_ram && !cr.ram_bytes) /* a hit, or a lower level's without a write-back */
        return one_lane_load_units(e, op, unit, true, N, true, hit);
    const edan_access_class ac = {cr.reads_ram, false, cr.ram_bytes};
    return one_lane_load_units(e, op, unit, true, N, false, ac);
}
static __attribute__((noipa)) bool one_lane_load_missed_narrow(edan_edag *e, const edan_exec *r, const hot_op *op,
                                                               char *unit0, char *unit1)
{
    return one_lane_load_missed(e, r, op, unit0, unit1, true);
}
static __attribute__((noipa)) bool one_lane_load_missed_wide(edan_edag *e, const edan_exec *r, const hot_op *op,
                                                             char *unit0, char *unit1)
{
    return one_lane_load_missed(e, r, op, unit0, unit1, false);
}

/*
 * A load of whole units: under a cache, to the most recently used line of
 * its set in the first level, it ends there, reaching no RAM, moving no
 * bytes and leaving only T1, C and Tinf to update (a miss goes to
 * one_lane_load_missed()); without a cache it reaches RAM.
 */
static ALWAYS_INLINE bool one_lane_load(edan_edag *e, const edan_exec *r, const hot_op *op, const bool has_cache,
                                        const bool N)
{
    const uint64_t addr = r->addr;
    lane_state *L = &e->lane[0];
    char *unit[2];
    if ((op->kind & ~HOT_DST2) != (HOT_SEEN | EDAN_MEM_LOAD) ||
        !recent_whole_units(&e->shadow, &e->memo[r->id], addr, op->size, false, N, unit))
        return one_lane_general(e, r, op, has_cache, N);
    if (has_cache && !edan_cache_try_mru(&L->cache, addr, op->size, false))
        return (N ? one_lane_load_missed_narrow : one_lane_load_missed_wide)(e, r, op, unit[0], unit[1]);
    const edan_access_class mru_hit = {false, false, 0};
    return one_lane_load_units(e, op, unit, has_cache, N, has_cache,
                               has_cache ? mru_hit
                                         : edan_cache_classify(&L->cache, false, addr, op->size, true, false));
}

/*
 * A store of whole units (recent_whole_units()) whose units are unit[]: it
 * reads no memory, so only the cache's classification (ac) and the units'
 * new writer remain. mru: it found the most recently used line of its set in
 * the first level, a write-back one, which moves no bytes and reaches no RAM.
 * (Stores in one_lane_load() cost more instructions than they saved.)
 */
static ALWAYS_INLINE bool one_lane_store_units(edan_edag *e, const hot_op *op, char *const unit[2],
                                               const bool has_cache, const bool N, const bool mru,
                                               const edan_access_class ac)
{
    lane_state *L = &e->lane[0];
    const bool to_ram = !has_cache || ac.wr_ram;
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    /* all three sources (x86: data, base, index), as one_lane_access() */
    const uint64_t Fin = edan_rule_join3(regF[op->src[0]], regF[op->src[1]], regF[op->src[2]]);
    const uint64_t t = edan_rule_cost(to_ram, L->cost.alpha, L->cost.cls[op->cls]), F = edan_rule_finish(Fin, t),
                   md = edan_rule_depth(edan_rule_join3(regMd[op->src[0]], regMd[op->src[1]], regMd[op->src[2]]),
                                        to_ram);
    const unsigned dst = op->dst, size = op->size; /* before the stores, as in one_lane_load_units() */
    regF[dst] = F;
    regMd[dst] = md;
    edan_shadow_F_set(unit[0], 0, N, F);
    edan_shadow_F_set(unit[1], 0, N, F);
    edan_shadow_unit_md(unit[0], 1, false, N)[0] = edan_shadow_unit_md(unit[1], 1, false, N)[0] = (uint32_t)md;
    for (int k = 0; N && size == 16 && k < 2; k++) {
        edan_shadow_F_set(middle_unit(unit, k), 0, N, F);
        edan_shadow_unit_md(middle_unit(unit, k), 1, false, N)[0] = (uint32_t)md;
    }
    if (mru) {
        /* no RAM, no bytes moved: only T1, C and Tinf */
        L->st.Tinf = max_u64(L->st.Tinf, F);
        L->st.T1 += t;
        L->st.C += t;
        return true;
    }
    L->st.ram_stores += ac.wr_ram;
    return account(e, L, to_ram, t, Fin, F, md, has_cache ? access_bytes(e, ac, size) : ac.line_bytes, true);
}

/*
 * A store of whole units that missed the first level's most recently used
 * line (or wrote through it): edan_cache_classify()'s store past
 * edan_cache_try_mru(), which found nothing and changed nothing
 * (edan_cache_access_past_mru()). A write-back hit in another way of the set
 * takes the most recently used line's accounting.
 */
static ALWAYS_INLINE bool one_lane_store_missed(edan_edag *e, const edan_exec *r, const hot_op *op, char *unit0,
                                                char *unit1, const bool N)
{
    char *const unit[2] = {unit0, unit1};
    edan_cache *c = &e->lane[0].cache;
    const uint64_t addr = r->addr;
    const uint32_t size = op->size;
    const edan_access_class hit = {false, false, 0};
    bool first_level;
    const edan_cache_result cr = edan_cache_access_past_mru(c, addr, size, true, &first_level);
    if (first_level)
        return one_lane_store_units(e, op, unit, true, N, true, hit);
    const edan_access_class ac = {false, cr.writes_ram || cr.reads_ram, cr.ram_bytes};
    return one_lane_store_units(e, op, unit, true, N, false, ac);
}
static __attribute__((noipa)) bool one_lane_store_missed_narrow(edan_edag *e, const edan_exec *r, const hot_op *op,
                                                                char *unit0, char *unit1)
{
    return one_lane_store_missed(e, r, op, unit0, unit1, true);
}
static __attribute__((noipa)) bool one_lane_store_missed_wide(edan_edag *e, const edan_exec *r, const hot_op *op,
                                                              char *unit0, char *unit1)
{
    return one_lane_store_missed(e, r, op, unit0, unit1, false);
}

/*
 * A store of whole units: under a cache, to the most recently used line of
 * its set in a write-back first level (edan_cache_try_mru()), it ends there
 * with the line dirty, leaving only T1, C and Tinf to update, as a load's hit
 * (a miss goes to one_lane_store_missed()); without a cache it reaches RAM.
 */
static ALWAYS_INLINE bool one_lane_store(edan_edag *e, const edan_exec *r, const hot_op *op, const bool has_cache,
                                         const bool N)
{
    const uint64_t addr = r->addr;
    lane_state *L = &e->lane[0];
    char *unit[2];
    if (!recent_whole_units(&e->shadow, &e->memo[r->id], addr, op->size, true, N, unit))
        return one_lane_general(e, r, op, has_cache, N);
    if (has_cache) {
        if (edan_cache_try_mru(&L->cache, addr, op->size, true)) {
            const edan_access_class mru_hit = {false, false, 0};
            return one_lane_store_units(e, op, unit, true, N, true, mru_hit);
        }
        return (N ? one_lane_store_missed_narrow : one_lane_store_missed_wide)(e, r, op, unit[0], unit[1]);
    }
    return one_lane_store_units(e, op, unit, false, N, false,
                                edan_cache_classify(&L->cache, false, addr, op->size, false, true));
}

ONE_LANE_VARIANTS(one_lane_load, one_lane_load(e, r, op, has_cache, N))
ONE_LANE_VARIANTS(one_lane_store, one_lane_store(e, r, op, has_cache, N))

/* ---- the loop, and the entry of every batch ---------------------------- */

/*
 * One lane, true dependencies only: the default analysis. Instructions that
 * touch no memory (about two thirds of a typical trace) take a short path
 * with the accumulators in registers; memory accesses go to
 * one_lane_access(). Executions are counted per id in the same loop.
 */
/*
 * The records RECORD_AHEAD ahead (768 bytes) are prefetched each iteration: online the batch was
 * written on the other core, so its lines come from there or the shared cache, and the loop's first
 * touch of a record (its id) waited on them (docs/benchmarks.md, issue 39).
 */
#define RECORD_AHEAD 32
static ALWAYS_INLINE void consume_one_lane(edan_edag *e, const edan_exec *recs, size_t n, const bool has_cache,
                                           const bool N, const bool D2)
{
    edan_lane_stats *st = &e->lane[0].st;
    uint64_t *regF = e->regF, *regMd = regF + ONE_LANE_MD;
    uint64_t cost[EDAN_CLASS_COUNT]; /* a copy on the stack, addressed without a register of its own */
    memcpy(cost, e->lane[0].cost.cls, sizeof cost);
    hot_id *ids = e->ids;
    size_t cap = e->id_cap;
    uint64_t C = 0, Tinf = 0;          /* of the instructions without memory access, whose T1 and C shares are equal */
    const bool prefetch = e->prefetch; /* for the whole batch */
    for (const edan_exec *r = recs, *end = recs + n; r < end; r++) {
        __builtin_prefetch(r + RECORD_AHEAD);
        hot_id *h = count_execution(e, r, &ids, &cap);
        if (!h)
            break;
        hot_op op = h->op;
        /* D2 (a native program): an instruction writing two registers (HOT_DST2) takes the plain path */
        if (D2 ? op.kind & HOT_NOT_PLAIN_D2 : op.kind != HOT_PLAIN) {
            op = seen_op(e, r, h);
            if (__builtin_expect(op.kind & (D2 ? HOT_WIDE : HOT_WIDE | HOT_DST2), 0)) {
                /* the general path, or a rep string's bytes from r on at once (edag_bytes.c) */
                if (!(r = edan_edag_wide_run(e, r)))
                    break;
                continue;
            }
            if (op.kind != HOT_PLAIN && !(D2 && op.kind == (HOT_SEEN | HOT_DST2))) {
                if (__builtin_expect(!(r->flags & EDAN_EXEC_NO_ACCESS), 1)) {
                    bool (*access)(edan_edag *, const edan_exec *, const hot_op *) =
                        prefetch                                 ? ONE_LANE_PICK(one_lane_access, has_cache, N)
                        : op.kind == (HOT_SEEN | EDAN_MEM_STORE) ? ONE_LANE_PICK(one_lane_store, has_cache, N)
                                                                 : ONE_LANE_PICK(one_lane_load, has_cache, N);
                    if (!access(e, r, &h->op))
                        break;
                    continue;
                }
                if (D2) { /* a memory instruction without an access: the general path, which counts it */
                    if (!wide_step(e, r, op))
                        break;
                    continue;
                }
                e->no_access[op.kind & 3]++;
            }
        }
        const uint64_t Fin = edan_rule_join3(regF[op.src[0]], regF[op.src[1]], regF[op.src[2]]);
        const uint64_t md = edan_rule_depth(edan_rule_join3(regMd[op.src[0]], regMd[op.src[1]], regMd[op.src[2]]), 0);
        const uint64_t t = cost[op.cls];
        const uint64_t F = edan_rule_finish(Fin, t);
        C += t;
        Tinf = max_u64(Tinf, F);
        regF[op.dst] = F;
        regMd[op.dst] = md;
        if (D2) { /* REG_SINK where the instruction has fewer destinations */
            regF[op.dst2] = F;
            regMd[op.dst2] = md;
        }
    }
    st->T1 += C;
    st->C += C;
    st->Tinf = max_u64(st->Tinf, Tinf);
}

/*
 * Narrow shadow records hold F below 2^32, inline pages md below
 * inline_max_md (shadow.h). Every F so far is at most the lane's Tinf
 * (account() and the loops fold every vertex's F into it, members or not),
 * and a vertex finishes at most its latest predecessor's F plus the largest
 * cost, so no F of the next n vertices exceeds Tinf + n * max_cost: widen
 * before the batch when that could pass the limit. Likewise every md so far
 * is at most the lane's D (md grows only at a member reaching RAM, whose md
 * account() folds into D), and each vertex adds at most 1: end inline pages
 * before a batch when D + n could pass their limit. False (the error set)
 * when out of memory.
 */
static bool narrow_in_time(edan_edag *e, size_t n)
{
    const edan_cost_model *c = &e->lane[0].cost;
    const edan_lane_stats *st = &e->lane[0].st;
    if (e->shadow.inline_on && (st->D > e->shadow.inline_max_md || n > e->shadow.inline_max_md - st->D) &&
        edan_shadow_inline_end(&e->shadow)) {
        edan_error_set(&e->err, "out of memory for shadow state (%" PRIu64 " pages)", e->shadow.pages);
        return false;
    }
    uint64_t max_cost = c->alpha, bound;
    for (int k = 0; k < EDAN_CLASS_COUNT; k++)
        max_cost = max_u64(max_cost, c->cls[k]);
    if (!__builtin_mul_overflow((uint64_t)n, max_cost, &bound) && !__builtin_add_overflow(bound, st->Tinf, &bound) &&
        bound <= EDAN_SHADOW_NARROW_MAX_F)
        return true;
    if (edan_shadow_widen(&e->shadow)) {
        edan_error_set(&e->err, "out of memory for shadow state (widening %" PRIu64 " pages)", e->shadow.pages);
        return false;
    }
    return true;
}

/* Warm records (trace/exec.h): each simulated cache follows their accesses; nothing else sees them. */
static void warm_caches(void *ctx, const edan_exec *recs, size_t n)
{
    edan_edag *e = ctx;
    for (uint32_t m = e->simulating; m; m &= m - 1)
        edan_cache_warm(&e->lane[__builtin_ctz(m)].cache, recs, n);
}

static void consume_measured(void *ctx, const edan_exec *recs, size_t n);

void edan_edag_consume(void *ctx, const edan_exec *recs, size_t n)
{
    edan_edag *e = ctx;
    if (e->n_groups) {
        edan_edag_consume_grouped(e, recs, n);
        return;
    }
    if (e->warms && e->warm_batches && n) /* one test a batch (edan_edag_warm_batches()) */
        (recs[0].flags & EDAN_EXEC_WARM ? warm_caches : consume_measured)(e, recs, n);
    else if (e->warms && !e->no_warm_records)
        edan_exec_split(recs, n, e, consume_measured, warm_caches);
    else
        consume_measured(e, recs, n);
}

/* A batch of the region's records. */
static void consume_measured(void *ctx, const edan_exec *recs, size_t n)
{
    edan_edag *e = ctx;
    if (e->err.set || (e->shadow.narrow && !narrow_in_time(e, n)))
        return;
    if (!e->cfg.false_deps && !e->scoped) {
        /* the fast paths, which prefetch when the previous batch's page lookups missed often */
        e->pf_next = recs;
        e->pf_end = recs + n;
        const uint64_t misses = e->shadow.recent_misses;
        if (e->n_lanes > 1)
            edan_edag_consume_lanes(e, recs, n);
        else if (e->native && e->lane[0].has_cache)
            e->shadow.narrow ? consume_one_lane(e, recs, n, true, true, true)
                             : consume_one_lane(e, recs, n, true, false, true);
        else if (e->native)
            e->shadow.narrow ? consume_one_lane(e, recs, n, false, true, true)
                             : consume_one_lane(e, recs, n, false, false, true);
        else if (e->lane[0].has_cache)
            e->shadow.narrow ? consume_one_lane(e, recs, n, true, true, false)
                             : consume_one_lane(e, recs, n, true, false, false);
        else
            e->shadow.narrow ? consume_one_lane(e, recs, n, false, true, false)
                             : consume_one_lane(e, recs, n, false, false, false);
        e->prefetch = (e->shadow.recent_misses - misses) * PREFETCH_WHEN > n;
        return;
    }
    hot_id *ids = e->ids;
    size_t cap = e->id_cap;
    for (size_t i = 0; i < n; i++) {
        hot_id *h = count_execution(e, &recs[i], &ids, &cap);
        if (!h)
            return;
        seen_op(e, &recs[i], h);
        if (recs[i].flags & EDAN_EXEC_NO_ACCESS)
            e->no_access[recs[i].insn->mem & 3]++;
    }
    for (size_t i = 0; i < n && edan_edag_step_lanes(e, &recs[i]); i++)
        ;
}
