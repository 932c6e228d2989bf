/*
 * edag_fold.h - the per-byte shadow (shadow.h) folded into and out of the
 * per-lane values of one vertex: the last writers (and readers) of an
 * access's bytes into its start time and memory depth, and the vertex as
 * the new writer of the bytes it stores. Inline, for every loop of the
 * analyzer (edag_internal.h); splitting a unit into bytes is the rare path,
 * in edag_step.c.
 */
#ifndef EDAN_ANALYSIS_EDAG_FOLD_H
#define EDAN_ANALYSIS_EDAG_FOLD_H

#include "analysis/edag/edag_internal.h"

/* Give unit u per-byte state in every lane; false when out of memory. */
bool edan_edag_unit_split(edan_shadow *sh, edan_shadow_page *pg, int K, bool R, bool N, uint32_t u);
/* The same for a unit found already (edan_shadow_unit_find() for writing) and not split yet. */
bool edan_edag_unit_split_found(edan_shadow *sh, char *unit, int K, bool R, bool N);

/*
 * Shadow accesses for bytes [off, off+len) of one page (len <= 8, so at most
 * three 4-byte units), for all K lanes at once. Per-lane values are arrays
 * indexed by lane; a unit's record holds F[K], then with readers rF[K], then
 * md[K] and with readers rmd[K] (shadow.h). K is the register state's stride
 * (padding lanes included), with simd a multiple of LANE_BLOCK: then a
 * unit's lanes are handled in vectors. R says whether the shadow keeps
 * readers (false dependencies): a constant in the hot loops, so a unit's
 * address is a shift or a constant multiply. N says whether the records are
 * narrow (shadow.h: one lane, no readers), also a constant there.
 */
static ALWAYS_INLINE uint32_t unit_lo(uint32_t off, uint32_t u)
{
    return off > u * EDAN_SHADOW_UNIT ? off - u * EDAN_SHADOW_UNIT : 0;
}
static ALWAYS_INLINE uint32_t unit_hi(uint32_t end, uint32_t u)
{
    return end < (u + 1) * EDAN_SHADOW_UNIT ? end - u * EDAN_SHADOW_UNIT : EDAN_SHADOW_UNIT;
}

/*
 * The shortcut for a shadow without readers' state: an access of 4 or 8 bytes at a multiple of 4 (almost every access)
 * covers one or two whole units. Their records, with no loop: the second is the first again for 4 bytes, which is never
 * past the page. Full pages only (a sparse or inline one has no unit at a fixed place); on a narrow page of words (its
 * handle tagged EDAN_SHADOW_TAG_WORDS) a unit's record is its word's, and for_write only a whole word is taken (the
 * page's lookup made it a page of units for any other store).
 */
static ALWAYS_INLINE bool whole_units(const edan_shadow_page *pg, int K, bool N, uint32_t off, uint32_t len,
                                      bool for_write, char *unit[2])
{
    _Static_assert(EDAN_SHADOW_UNIT == 4, "4- and 8-byte accesses cover one or two units");
    if ((off & (EDAN_SHADOW_UNIT - 1)) || (len != 4 && len != 8))
        return false;
    if (!N) {
        unit[0] = edan_shadow_unit(pg, K, false, N, off >> EDAN_SHADOW_UNIT_BITS);
        unit[1] = unit[0] + (len == 8 ? edan_shadow_unit_bytes(K, false, N) : 0);
        return true;
    }
    const unsigned tag = edan_shadow_tag(pg);
    if (__builtin_expect(tag == 0, 1)) {
        unit[0] = edan_shadow_unit(pg, 1, false, true, off >> EDAN_SHADOW_UNIT_BITS);
        unit[1] = unit[0] + (len == 8 ? 8 : 0);
        return true;
    }
    if (tag != EDAN_SHADOW_TAG_WORDS || (for_write && !edan_shadow_whole_word(off, len)))
        return false;
    char *base = (char *)pg - EDAN_SHADOW_TAG_WORDS;
    unit[0] = base + (off & ~7u);
    unit[1] = base + ((off + len - 1) & ~7u);
    return true;
}

/* Fold the last writers (writers) and/or the readers since (readers) of the bytes into Fin/mdin. */
static ALWAYS_INLINE void mem_deps(edan_shadow *sh, const edan_shadow_page *pg, const int K, const bool R, const bool N,
                                   uint32_t off, uint32_t len, uint64_t *Fin, uint64_t *mdin, const bool writers,
                                   const bool readers, const bool simd)
{
    char *whole[2];
    if (!R && writers && !readers && whole_units(pg, K, N, off, len, false, whole)) {
        const edan_u64a *F0 = edan_shadow_unit_F(whole[0]), *F1 = edan_shadow_unit_F(whole[1]);
        const edan_u32a *md0 = edan_shadow_unit_md(whole[0], K, false, N),
                        *md1 = edan_shadow_unit_md(whole[1], K, false, N);
        if (!((md0[0] | md1[0]) & EDAN_SHADOW_SPLIT)) {
            if (N) {
                *Fin =
                    edan_rule_join3(*Fin, edan_shadow_F_get(whole[0], 0, true), edan_shadow_F_get(whole[1], 0, true));
                *mdin = edan_rule_join3(*mdin, md0[0], md1[0]);
                return;
            }
            for (int b = 0; simd && b < K; b += LANE_BLOCK) {
                const lane_vec f0 = VLOAD(F0 + b), f1 = VLOAD(F1 + b), m0 = VLOAD_DEPTHS(md0 + b),
                               m1 = VLOAD_DEPTHS(md1 + b), f = VLOAD(Fin + b), m = VLOAD(mdin + b);
                VSTORE(Fin + b, edan_rule_join3_vec(f, f0, f1));
                VSTORE(mdin + b, edan_rule_join3_vec(m, m0, m1));
            }
            for (int k = 0; !simd && k < K; k++) {
                Fin[k] = edan_rule_join3(Fin[k], F0[k], F1[k]);
                mdin[k] = edan_rule_join3(mdin[k], md0[k], md1[k]);
            }
            return;
        }
    }
    const uint32_t end = off + len;
    edan_u64a scratch; /* an inline page's state, or none (edan_shadow_unit_find() writes it) */
    for (uint32_t u = off >> EDAN_SHADOW_UNIT_BITS; u <= (end - 1) >> EDAN_SHADOW_UNIT_BITS; u++) {
        char *unit = edan_shadow_unit_find(pg, K, R, N, u, false, &scratch);
        const edan_u64a *uF = edan_shadow_unit_F(unit);
        const edan_u32a *umd = edan_shadow_unit_md(unit, K, R, N);
        if (!(umd[0] & EDAN_SHADOW_SPLIT)) {
            if (N) {
                *Fin = edan_rule_join(*Fin, edan_shadow_F_get(unit, 0, true));
                *mdin = edan_rule_join(*mdin, umd[0]);
                continue;
            }
            if (simd && writers && !readers) {
                for (int b = 0; b < K; b += LANE_BLOCK) {
                    const lane_vec f = VLOAD(Fin + b), sf = VLOAD(uF + b);
                    const lane_vec m = VLOAD(mdin + b), sm = VLOAD_DEPTHS(umd + b);
                    VSTORE(Fin + b, edan_rule_join_vec(f, sf));
                    VSTORE(mdin + b, edan_rule_join_vec(m, sm));
                }
                continue;
            }
            for (int k = 0; k < K; k++) {
                if (writers) {
                    Fin[k] = edan_rule_join(Fin[k], uF[k]);
                    mdin[k] = edan_rule_join(mdin[k], umd[k]);
                }
                if (readers) {
                    Fin[k] = edan_rule_join(Fin[k], edan_shadow_unit_rF(unit, K)[k]);
                    mdin[k] = edan_rule_join(mdin[k], edan_shadow_unit_rmd(unit, K)[k]);
                }
            }
        } else {
            const edan_shadow_split *rec = edan_shadow_split_get(sh, edan_shadow_F_get(unit, 0, N));
            const uint32_t lo = unit_lo(off, u), hi = unit_hi(end, u);
            for (int k = 0; k < K; k++) {
                for (uint32_t b = lo; b < hi; b++) {
                    if (writers) {
                        Fin[k] = edan_rule_join(Fin[k], rec[k].F[b]);
                        mdin[k] = edan_rule_join(mdin[k], rec[k].md[b]);
                    }
                    if (readers) {
                        Fin[k] = edan_rule_join(Fin[k], rec[k].rF[b]);
                        mdin[k] = edan_rule_join(mdin[k], rec[k].rmd[b]);
                    }
                }
            }
        }
    }
}

/* The bytes were written: their last writer is now this vertex, with no readers since (R: the shadow keeps them). */
static ALWAYS_INLINE bool mem_store(edan_shadow *sh, edan_shadow_page *pg, const int K, const bool R, const bool N,
                                    uint32_t off, uint32_t len, const uint64_t *F, const uint64_t *md, const bool simd)
{
    char *whole[2];
    if (!R && whole_units(pg, K, N, off, len, true, whole)) {
        edan_u64a *F0 = edan_shadow_unit_F(whole[0]), *F1 = edan_shadow_unit_F(whole[1]);
        edan_u32a *md0 = edan_shadow_unit_md(whole[0], K, false, N), *md1 = edan_shadow_unit_md(whole[1], K, false, N);
        if (!((md0[0] | md1[0]) & EDAN_SHADOW_SPLIT)) {
            if (N) {
                edan_shadow_F_set(whole[0], 0, true, F[0]);
                edan_shadow_F_set(whole[1], 0, true, F[0]);
                md0[0] = md1[0] = (uint32_t)md[0];
                return true;
            }
            for (int b = 0; simd && b < K; b += LANE_BLOCK) {
                const lane_vec f = VLOAD(F + b), m = VLOAD(md + b);
                VSTORE(F0 + b, f);
                VSTORE(F1 + b, f);
                VSTORE_DEPTHS(md0 + b, m);
                VSTORE_DEPTHS(md1 + b, m);
            }
            for (int k = 0; !simd && k < K; k++) {
                const uint64_t f = F[k];
                const uint32_t m = (uint32_t)md[k];
                F0[k] = F1[k] = f;
                md0[k] = md1[k] = m;
            }
            return true;
        }
    }
    if (N && !edan_shadow_is_fixed(pg) && edan_shadow_whole_word(off, len)) {
        /* a whole word of a sparse or inline page: one entry (the page's lookup made room for it) */
        edan_shadow_word_store(sh, pg, off >> 3, F[0], md[0]);
        return true;
    }
    const uint32_t end = off + len;
    for (uint32_t u = off >> EDAN_SHADOW_UNIT_BITS; u <= (end - 1) >> EDAN_SHADOW_UNIT_BITS; u++) {
        const uint32_t lo = unit_lo(off, u), hi = unit_hi(end, u);
        char *unit = edan_shadow_unit_find(pg, K, R, N, u, true, NULL);
        edan_u64a *uF = edan_shadow_unit_F(unit);
        edan_u32a *umd = edan_shadow_unit_md(unit, K, R, N);
        if (lo == 0 && hi == EDAN_SHADOW_UNIT) {
            if (umd[0] & EDAN_SHADOW_SPLIT)
                edan_shadow_split_release(sh, edan_shadow_F_get(unit, 0, N));
            if (N) {
                edan_shadow_F_set(unit, 0, true, F[0]);
                umd[0] = (uint32_t)md[0];
                continue;
            }
            if (simd && !R) {
                for (int b = 0; b < K; b += LANE_BLOCK) {
                    VSTORE(uF + b, VLOAD(F + b));
                    VSTORE_DEPTHS(umd + b, VLOAD(md + b));
                }
                continue;
            }
            for (int k = 0; k < K; k++) {
                uF[k] = F[k];
                umd[k] = (uint32_t)md[k];
                if (R) {
                    edan_shadow_unit_rF(unit, K)[k] = 0;
                    edan_shadow_unit_rmd(unit, K)[k] = 0;
                }
            }
            continue;
        }
        /* a unit split before (a rep string's next byte) stays split: no second lookup of its page */
        if (!(umd[0] & EDAN_SHADOW_SPLIT) && !edan_edag_unit_split_found(sh, unit, K, R, N))
            return false;
        edan_shadow_split *rec = edan_shadow_split_get(sh, edan_shadow_F_get(unit, 0, N));
        for (int k = 0; k < K; k++) {
            if (hi - lo == 1) { /* a byte: four stores, where GCC made the loop's zeroing two memset calls */
                rec[k].F[lo] = F[k];
                rec[k].md[lo] = (uint32_t)md[k];
                rec[k].rF[lo] = 0;
                rec[k].rmd[lo] = 0;
                continue;
            }
            for (uint32_t b = lo; b < hi; b++) {
                rec[k].F[b] = F[k];
                rec[k].md[b] = (uint32_t)md[k];
                rec[k].rF[b] = 0;
                rec[k].rmd[b] = 0;
            }
        }
    }
    return true;
}

#endif
