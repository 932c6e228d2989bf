/*
 * edag_step.c - one vertex over all lanes: the general path, which every
 * configuration can take (false dependencies, scoped lanes, page-crossing
 * accesses), and which the short paths of the hot loops hand anything else
 * to before they change any state.
 */
#include <inttypes.h>

#include "analysis/edag/edag_fold.h"

/* ---- the shadow state of the general path ------------------------------ */

/* Give the unit (not split yet) per-byte state in every lane; false when out of memory. */
static ALWAYS_INLINE bool split_unit(edan_shadow *sh, char *unit, const int K, const bool R, const bool N)
{
    edan_u32a *umd = edan_shadow_unit_md(unit, K, R, N);
    uint64_t idx = edan_shadow_split_alloc(sh);
    if (idx == UINT64_MAX)
        return false;
    edan_shadow_split *rec = edan_shadow_split_get(sh, idx);
    for (int k = 0; k < K; k++) {
        for (uint32_t b = 0; b < EDAN_SHADOW_UNIT; b++) {
            rec[k].F[b] = edan_shadow_F_get(unit, k, N);
            rec[k].md[b] = umd[k];
            rec[k].rF[b] = R ? edan_shadow_unit_rF(unit, K)[k] : 0;
            rec[k].rmd[b] = R ? edan_shadow_unit_rmd(unit, K)[k] : 0;
        }
    }
    edan_shadow_F_set(unit, 0, N, idx);
    umd[0] = EDAN_SHADOW_SPLIT;
    return true;
}

/* One lane without readers (the default run) with K, R and N constant: the rep string's path. */
bool edan_edag_unit_split_found(edan_shadow *sh, char *unit, int K, bool R, bool N)
{
    if (K == 1 && !R)
        return N ? split_unit(sh, unit, 1, false, true) : split_unit(sh, unit, 1, false, false);
    return split_unit(sh, unit, K, R, N);
}

bool edan_edag_unit_split(edan_shadow *sh, edan_shadow_page *pg, int K, bool R, bool N, uint32_t u)
{
    char *unit = edan_shadow_unit_find(pg, K, R, N, u, true, NULL);
    if (edan_shadow_unit_md(unit, K, R, N)[0] & EDAN_SHADOW_SPLIT)
        return true;
    return edan_edag_unit_split_found(sh, unit, K, R, N);
}

/* A read in false-dependency mode (the shadow keeps readers): later writers of these bytes must wait for it. */
static bool mem_note_read(edan_shadow *sh, edan_shadow_page *pg, int K, uint32_t off, uint32_t len, const uint64_t *F,
                          const uint64_t *md)
{
    const uint32_t end = off + len;
    for (uint32_t u = off >> EDAN_SHADOW_UNIT_BITS; u <= (end - 1) >> EDAN_SHADOW_UNIT_BITS; u++) {
        const uint32_t lo = unit_lo(off, u), hi = unit_hi(end, u);
        char *unit = edan_shadow_unit(pg, K, true, false, u);
        if (lo == 0 && hi == EDAN_SHADOW_UNIT && !(edan_shadow_unit_md(unit, K, true, false)[0] & EDAN_SHADOW_SPLIT)) {
            edan_u64a *urF = edan_shadow_unit_rF(unit, K);
            edan_u32a *urmd = edan_shadow_unit_rmd(unit, K);
            for (int k = 0; k < K; k++) {
                urF[k] = edan_rule_join(urF[k], F[k]);
                urmd[k] = (uint32_t)edan_rule_join(urmd[k], md[k]);
            }
            continue;
        }
        if (!edan_edag_unit_split(sh, pg, K, true, false, u))
            return false;
        edan_shadow_split *rec = edan_shadow_split_get(sh, edan_shadow_unit_F(unit)[0]);
        for (int k = 0; k < K; k++) {
            for (uint32_t b = lo; b < hi; b++) {
                rec[k].rF[b] = edan_rule_join(rec[k].rF[b], F[k]);
                rec[k].rmd[b] = (uint32_t)edan_rule_join(rec[k].rmd[b], md[k]);
            }
        }
    }
    return true;
}

/*
 * The pieces of an access within single shadow pages: at most two, since an
 * access is at most 8 bytes.
 */
typedef struct access_span {
    int n;
    edan_shadow_page *page[2];
    uint32_t off[2], len[2];
} access_span;

static inline bool span_of(edan_shadow *sh, uint64_t addr, uint32_t size, bool for_write, access_span *sp)
{
    uint32_t off = (uint32_t)(addr & (EDAN_SHADOW_PAGE - 1));
    sp->off[0] = off;
    sp->len[0] = off + size <= EDAN_SHADOW_PAGE ? size : EDAN_SHADOW_PAGE - off;
    sp->page[0] = edan_shadow_page_access(sh, addr, sp->len[0], for_write);
    if (!sp->page[0])
        return false;
    if (off + size <= EDAN_SHADOW_PAGE) {
        sp->n = 1;
        return true;
    }
    sp->page[1] = edan_shadow_page_access(sh, addr + sp->len[0], size - sp->len[0], for_write);
    if (!sp->page[1])
        return false;
    sp->n = 2;
    sp->off[1] = 0;
    sp->len[1] = size - sp->len[0];
    return true;
}

/* ---- the step ---------------------------------------------------------- */

/*
 * One vertex, all lanes: the general path (sweeps, false dependencies,
 * page-crossing accesses). Lanes are processed phase by phase over
 * lane-major state, so each phase is a short loop over adjacent values.
 */
static ALWAYS_INLINE bool step_lanes(edan_edag *e, const edan_exec *r, const bool one, const bool N1)
{
    const int K = one ? 1 : e->n_lanes;
    const bool fd = !one && e->cfg.false_deps;
    const edan_insn *in = r->insn;
    uint32_t member = UINT32_MAX;
    if (!one && e->scoped) {
        member = e->all_mask | (e->id_member[r->id] & e->exclusive_mask);
        for (int k = 0; k < K; k++)
            if ((e->inclusive_mask >> k & 1) &&
                edan_activity_step(&e->activity[k], e->id_entry[r->id] >> k & 1, in->flow))
                member |= 1u << k;
        for (int k = 0; k < K; k++)
            e->members[k] += member >> k & 1;
    }
    const bool accessed = in->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS);
    const bool rd = accessed && in->mem != EDAN_MEM_STORE;
    const bool wr = accessed && in->mem != EDAN_MEM_LOAD;
    const uint32_t size = in->mem_size;
    access_span sp;
    sp.n = 0;
    /* with false dependencies a read is written down too */
    if (accessed && !span_of(&e->shadow, r->addr, size, wr || fd, &sp)) {
        edan_error_set(&e->err, "out of memory for shadow state (%" PRIu64 " pages allocated)", e->shadow.pages);
        return false;
    }
    const size_t S = one ? 1 : e->stride;
    const size_t dst = (size_t)(in->n_dst ? in->dst : REG_SINK) * S;
    const uint64_t *F0 = e->regF + in->src[0] * S, *F1 = e->regF + in->src[1] * S, *F2 = e->regF + in->src[2] * S;
    const uint64_t *M0 = e->regMd + in->src[0] * S, *M1 = e->regMd + in->src[1] * S, *M2 = e->regMd + in->src[2] * S;
    uint64_t Fin[EDAN_MAX_LANES], mdin[EDAN_MAX_LANES], F[EDAN_MAX_LANES], md[EDAN_MAX_LANES];
    /* the shadow functions also handle the padding lanes (edan_edag.stride) */
    for (size_t k = (size_t)K; k < S; k++)
        Fin[k] = mdin[k] = F[k] = md[k] = 0;
    for (int k = 0; k < K; k++) {
        Fin[k] = edan_rule_join3(F0[k], F1[k], F2[k]);
        mdin[k] = edan_rule_join3(M0[k], M1[k], M2[k]);
    }
    /* a native instruction's further sources (more[0 .. n_more_src)) and destinations (the rest of more[]) */
    const int n_more = in->n_more_src + in->n_more_dst;
    for (int i = 0; i < in->n_more_src; i++) {
        const size_t s = (size_t)in->more[i] * S;
        for (int k = 0; k < K; k++) {
            Fin[k] = edan_rule_join(Fin[k], e->regF[s + k]);
            mdin[k] = edan_rule_join(mdin[k], e->regMd[s + k]);
        }
    }
    /* each destination's last writer (WAW) and its readers since (WAR) */
    for (int i = in->n_dst ? -1 : n_more; fd && i < n_more; i++) {
        const size_t d = i < 0 ? dst : (size_t)in->more[i] * S;
        if (i >= 0 && i < in->n_more_src)
            continue;
        for (int k = 0; k < K; k++) {
            Fin[k] = edan_rule_join3(Fin[k], e->regF[d + k], e->regRF[d + k]);
            mdin[k] = edan_rule_join3(mdin[k], e->regMd[d + k], e->regRMd[d + k]);
        }
    }
    /* narrow records (one lane without readers) until widened: a test per access, on this general path only */
    const bool N = one ? N1 : e->shadow.narrow;
    for (int p = 0; p < sp.n; p++) {
        if (rd || (fd && wr))
            mem_deps(&e->shadow, sp.page[p], (int)S, fd, N, sp.off[p], sp.len[p], Fin, mdin, true, false, false);
        if (fd && wr)
            mem_deps(&e->shadow, sp.page[p], (int)S, fd, N, sp.off[p], sp.len[p], Fin, mdin, false, true, false);
    }
    edan_access_class ac_of[EDAN_MAX_LANES];
    for (int k = 0; k < K; k++) {
        lane_state *L = &e->lane[k];
        const bool is_member = member >> k & 1;
        edan_access_class ac = {false, false, 0};
        if (accessed) {
            const int o = one ? 0 : L->cache_owner; /* one lane owns its cache */
            ac = o == k ? edan_cache_classify(&L->cache, L->has_cache, r->addr, size, rd, wr) : ac_of[o];
            ac_of[k] = ac;
            if (is_member) {
                L->st.ram_loads += ac.rd_ram;
                L->st.ram_stores += ac.wr_ram;
            }
        }
        const bool to_ram = ac.rd_ram || ac.wr_ram;
        const uint64_t t = edan_rule_cost(to_ram, L->cost.alpha, L->cost.cls[in->cls]);
        F[k] = edan_rule_finish(Fin[k], t);
        md[k] = edan_rule_depth(mdin[k], to_ram && is_member); /* a scoped lane counts its members only */
        const uint64_t w = access_bytes(e, ac, size);
        if (!account(e, L, to_ram && is_member, t, Fin[k], F[k], md[k], w, is_member))
            return false;
    }
    if (fd) {
        for (int i = 0; i < in->n_src + in->n_more_src; i++) {
            size_t s = (size_t)(i < in->n_src ? in->src[i] : in->more[i - in->n_src]) * S;
            for (int k = 0; k < K; k++) {
                e->regRF[s + k] = edan_rule_join(e->regRF[s + k], F[k]);
                e->regRMd[s + k] = edan_rule_join(e->regRMd[s + k], md[k]);
            }
        }
        for (int i = in->n_dst ? -1 : n_more; i < n_more; i++) {
            if (i >= 0 && i < in->n_more_src)
                continue;
            const size_t d = i < 0 ? dst : (size_t)in->more[i] * S;
            for (int k = 0; k < K; k++)
                e->regRF[d + k] = e->regRMd[d + k] = 0;
        }
    }
    /* address updates (push's rsp, writeback: edan_insn.addr_dst) first, from their registers' state before */
    const size_t from = (size_t)edan_insn_addr_from(in, in->dst) * S;
    for (int i = 0; in->addr_dst && i <= in->n_more_dst; i++) {
        const uint8_t r = i ? in->more[in->n_more_src + i - 1] : in->dst;
        const size_t d = (size_t)r * S, f = in->addr_from ? from : d;
        for (int k = 0; in->addr_dst >> i & 1 && k < K; k++) {
            e->regF[d + k] = edan_rule_finish(e->regF[f + k], e->lane[k].cost.cls[EDAN_CLASS_INT]);
            e->regMd[d + k] = e->regMd[f + k];
        }
    }
    for (int i = -1; i < in->n_more_dst; i++) {
        const size_t d = i < 0 ? dst : (size_t)in->more[in->n_more_src + i] * S;
        for (int k = 0; !(in->addr_dst >> (i + 1) & 1) && k < K; k++) {
            e->regF[d + k] = F[k];
            e->regMd[d + k] = md[k];
        }
    }
    for (int p = 0; p < sp.n; p++) {
        bool ok = true;
        if (fd && rd && !wr)
            ok = mem_note_read(&e->shadow, sp.page[p], (int)S, sp.off[p], sp.len[p], F, md);
        if (wr)
            ok = ok && mem_store(&e->shadow, sp.page[p], (int)S, fd, N, sp.off[p], sp.len[p], F, md, false);
        if (!ok) {
            edan_error_set(&e->err, "out of memory for shadow state");
            return false;
        }
    }
    return true;
}

/*
 * The general path's entry. One lane without false dependencies or scopes
 * (the default run, whose short paths hand it byte accesses such as a rep
 * string's iterations, and x86 instructions with many operands) takes the
 * same code with K, the stride, fd and the records' width constant, so the
 * loops over lanes fold away; anything else the code for every lane count.
 */
bool edan_edag_step_lanes(edan_edag *e, const edan_exec *r)
{
    if (e->n_lanes == 1 && e->stride == 1 && !e->cfg.false_deps && !e->scoped)
        return e->shadow.narrow ? step_lanes(e, r, true, true) : step_lanes(e, r, true, false);
    return step_lanes(e, r, false, false);
}
